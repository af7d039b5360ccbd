/**
 * fieldpath's managers.go: what each manager owns, in which API version,
 * and whether it got there by apply.
 */
import type { Set } from './set.js';

/** The version of an object or of a field set (group/version). */
export type APIVersion = string;

export class VersionedSet {
  constructor(
    readonly set: Set,
    readonly apiVersion: APIVersion,
    readonly applied: boolean,
  ) {}
}

/** Manager key → the fields it owns. */
export type ManagedFields = Map<string, VersionedSet>;

/** ManagedFields.Equals: the same managers, versions, applied flags and sets. */
export function managedFieldsEquals(lhs: ManagedFields, rhs: ManagedFields): boolean {
  if (lhs.size !== rhs.size) return false;
  for (const [manager, left] of lhs) {
    const right = rhs.get(manager);
    if (right === undefined) return false;
    if (left.apiVersion !== right.apiVersion || left.applied !== right.applied) return false;
    if (!left.set.equals(right.set)) return false;
  }
  return true;
}

/** ManagedFields.Copy: a new map of the same (immutable) versioned sets. */
export function copyManagedFields(m: ManagedFields): ManagedFields {
  return new Map(m);
}

/**
 * ManagedFields.Difference: per manager, what changed between lhs and rhs.
 * A manager on one side only keeps its (non-empty) set; a manager whose
 * version changed keeps rhs's entry whole; otherwise the symmetric
 * difference, in rhs's version, not applied. Empty results are left out.
 */
export function managedFieldsDifference(lhs: ManagedFields, rhs: ManagedFields): ManagedFields {
  const diff: ManagedFields = new Map();
  for (const [manager, left] of lhs) {
    const right = rhs.get(manager);
    if (right === undefined) {
      if (!left.set.empty()) diff.set(manager, left);
      continue;
    }
    if (left.apiVersion !== right.apiVersion) {
      diff.set(manager, right);
      continue;
    }
    const changed = left.set.difference(right.set).union(right.set.difference(left.set));
    if (!changed.empty()) diff.set(manager, new VersionedSet(changed, right.apiVersion, false));
  }
  for (const [manager, right] of rhs) {
    if (!lhs.has(manager) && !right.set.empty()) diff.set(manager, right);
  }
  return diff;
}

/** ManagedFields.String. */
export function managedFieldsString(m: ManagedFields): string {
  let out = '';
  for (const [k, v] of m) out += `${k}:\n- Applied: ${v.applied}\n- APIVersion: ${v.apiVersion}\n- Set: ${v.set.toString()}\n`;
  return out;
}
