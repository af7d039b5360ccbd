// Conflicts between an applier and the other managers of the fields it sets (SMD merge/conflict.go).
// The messages are SMD's: kube puts them, unchanged, in the 409 an apply with conflicts answers.
import type { ManagedFields, Path } from '../fieldpath/index.js';
import { comparePaths, pathString, Set } from '../fieldpath/index.js';

/** One field that `manager` owns and an applier would change. */
export class Conflict {
  constructor(
    readonly manager: string,
    readonly path: Path,
  ) {}

  equals(other: Conflict): boolean {
    return this.manager === other.manager && comparePaths(this.path, other.path) === 0;
  }

  toString(): string {
    return `conflict with ${JSON.stringify(this.manager)}: ${pathString(this.path)}`;
  }
}

/**
 * Every conflict of an apply, thrown as one error. The message names a single conflict as it is,
 * and several grouped under their managers (sorted), each path on its own `- ` line.
 */
export class Conflicts extends Error {
  readonly conflicts: readonly Conflict[];

  constructor(conflicts: readonly Conflict[]) {
    super(conflictsMessage(conflicts));
    this.name = 'Conflicts';
    this.conflicts = conflicts;
  }

  equals(other: Conflicts): boolean {
    if (this.conflicts.length !== other.conflicts.length) return false;
    return this.conflicts.every((c, i) => c.equals(other.conflicts[i] as Conflict));
  }

  /** Every conflicting path, whoever owns it. */
  toSet(): Set {
    const set = new Set();
    for (const c of this.conflicts) set.insert(c.path);
    return set;
  }
}

function conflictsMessage(conflicts: readonly Conflict[]): string {
  const only = conflicts.length === 1 ? conflicts[0] : undefined;
  if (only !== undefined) return only.toString();
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) {
    const paths = byManager.get(c.manager);
    if (paths === undefined) byManager.set(c.manager, [c.path]);
    else paths.push(c.path);
  }
  const lines: string[] = [];
  // Go's sort.Strings: byte order, which for UTF-16 strings is code-unit order except past the BMP.
  for (const manager of [...byManager.keys()].sort(compareStrings)) {
    lines.push(`conflicts with ${JSON.stringify(manager)}:`);
    for (const p of byManager.get(manager) ?? []) lines.push(`- ${pathString(p)}`);
  }
  return lines.join('\n');
}

function compareStrings(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** One conflict per path of every manager's set, in the managers' order. */
export function conflictsFromManagers(sets: ManagedFields): Conflicts {
  const conflicts: Conflict[] = [];
  for (const [manager, versioned] of sets) {
    versioned.set.iterate((p) => conflicts.push(new Conflict(manager, p)));
  }
  return new Conflicts(conflicts);
}
