import type { StatusCause } from '../../../apis/meta/v1/status.js';
import { newApplyConflict } from '../errors/catalog.js';
import type { StatusError } from '../errors/status-error.js';
import type { Conflict, Conflicts } from '../structuredmerge/merge/index.js';
import type { Path } from '../structuredmerge/fieldpath/index.js';
import { pathString } from '../structuredmerge/fieldpath/index.js';
import { goQuote } from '../structuredmerge/value/tostring.js';
import { formatManagedTime, parseManagerIdentifier } from './managedfields.js';

/**
 * The 409 an apply with conflicts answers (NewConflictError): one FieldManagerConflict cause
 * per conflicting field and manager, and a message naming managers as people read them
 * (`"kubectl" using v1`) rather than by their internal keys.
 */
export function newConflictError(conflicts: Conflicts): StatusError {
  const causes: StatusCause[] = conflicts.conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.manager)}`,
    field: pathString(c.path),
  }));
  return newApplyConflict(causes, conflictMessage(conflicts.conflicts));
}

function conflictMessage(conflicts: readonly Conflict[]): string {
  const only = conflicts.length === 1 ? conflicts[0] : undefined;
  if (only !== undefined) return `Apply failed with 1 conflict: conflict with ${printManager(only.manager)}: ${pathString(only.path)}`;
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) {
    const paths = byManager.get(c.manager);
    if (paths === undefined) byManager.set(c.manager, [c.path]);
    else paths.push(c.path);
  }
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort(compareBytes)) {
    lines.push(`conflicts with ${printManager(manager)}:`);
    for (const p of byManager.get(manager) ?? []) lines.push(`- ${pathString(p)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/**
 * A manager key as a person reads it: the quoted name, the subresource if any, and for an
 * Update the version it wrote (and its time, if the key carries one). A key that is not a
 * manager entry is quoted as it is.
 */
export function printManager(manager: string): string {
  let entry;
  try {
    entry = parseManagerIdentifier(manager);
  } catch {
    return goQuote(manager);
  }
  let s = goQuote(entry.manager ?? '');
  if (entry.subresource !== undefined) s = `${s} with subresource ${goQuote(entry.subresource)}`;
  if (entry.operation !== 'Update') return s;
  const version = entry.apiVersion ?? '';
  if (entry.time === undefined) return `${s} using ${version}`;
  const ms = Date.parse(entry.time);
  const at = Number.isNaN(ms) ? entry.time : formatManagedTime(new Date(ms));
  return `${s} using ${version} at ${at}`;
}

/** Go's sort.Strings order: UTF-8 bytes. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
