// What the server-side apply acceptance tests read back and compare: managedFields entries with
// their times checked and masked, kube's conflict wording (k8s.io/apimachinery
// pkg/util/managedfields/internal/conflict.go) and the advice kubectl adds to a 409 from apply.
import assert from 'node:assert/strict';

/** One managedFields entry as kube serializes it (metav1.ManagedFieldsEntry, JSON field order). */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string | Date;
  fieldsType?: string;
  fieldsV1?: unknown;
  subresource?: string;
}

/** metav1.Time on the wire: RFC 3339 in UTC, whole seconds. */
export const RFC3339_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** The placeholder masked times are replaced with, so that expected JSON can be written out in full. */
export const TIME = '<time>';

/** A time as it was on the wire; @kubernetes/client-node hands it over as a Date (whole seconds on the wire: no milliseconds). */
function wireTime(t: unknown): string {
  return t instanceof Date ? t.toISOString().replace(/\.000Z$/, 'Z') : String(t);
}

/** metadata.managedFields of an object, [] when absent. */
export function managedFieldsOf(obj: unknown): ManagedFieldsEntry[] {
  const meta = (obj as { metadata?: { managedFields?: ManagedFieldsEntry[] } } | undefined)?.metadata;
  return meta?.managedFields ?? [];
}

/**
 * The entries with each `time` checked (RFC 3339, whole seconds) and replaced by TIME, keys kept
 * in the order the server sent them: JSON.stringify of the result compares byte for byte with
 * what kube-apiserver writes (JSON.parse keeps the order of non-numeric keys). An entry without a
 * time stays without one (kube writes none for an applier whose first apply changed nothing).
 */
export function maskTimes(entries: readonly ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  return entries.map((e) => {
    if (Object.hasOwn(e, 'time')) assert.match(wireTime(e.time), RFC3339_SECONDS, `time of the entry of ${e.manager ?? '?'}`);
    const out: ManagedFieldsEntry = {};
    for (const [k, v] of Object.entries(e)) Object.defineProperty(out, k, { value: k === 'time' ? TIME : v, enumerable: true, writable: true, configurable: true });
    return out;
  });
}

/**
 * An expected entry in kube's field order; `fieldsV1` is written as the JSON text kube stores.
 * `untimed`: kube leaves the time out (see maskTimes).
 */
export function entry(manager: string, operation: 'Apply' | 'Update', apiVersion: string, fieldsV1: string, subresource?: string, untimed = false): ManagedFieldsEntry {
  return {
    manager,
    operation,
    apiVersion,
    ...(untimed ? {} : { time: TIME }),
    fieldsType: 'FieldsV1',
    fieldsV1: JSON.parse(fieldsV1) as unknown,
    ...(subresource !== undefined ? { subresource } : {}),
  };
}

/** Asserts the object's managedFields are exactly `want` (order, keys, fieldsV1 bytes), times masked. */
export function assertManagedFields(obj: unknown, want: readonly ManagedFieldsEntry[], what = 'managedFields'): void {
  assert.equal(JSON.stringify(maskTimes(managedFieldsOf(obj))), JSON.stringify(want), what);
}

/** The manager as kube's conflict message prints it: an Update manager with its API version, an applier by name. */
export function conflictManager(manager: string, update?: { apiVersion: string; subresource?: string }): string {
  const sub = update?.subresource ? ` with subresource "${update.subresource}"` : '';
  return update ? `"${manager}"${sub} using ${update.apiVersion}` : `"${manager}"`;
}

/** kube-apiserver's message for one conflicting field. */
export function oneConflictMessage(manager: string, path: string): string {
  return `Apply failed with 1 conflict: conflict with ${manager}: ${path}`;
}

/** What kubectl appends to the server's conflict message (the same in 1.27 through 1.33). */
export const KUBECTL_CONFLICT_ADVICE = [
  'Please review the fields above--they currently have other managers. Here',
  'are the ways you can resolve this warning:',
  '* If you intend to manage all of these fields, please re-run the apply',
  '  command with the `--force-conflicts` flag.',
  '* If you do not intend to manage all of the fields, please edit your',
  '  manifest to remove references to the fields that should keep their',
  '  current managers.',
  '* You may co-own fields by updating your manifest to match the existing',
  "  value; in this case, you'll become the manager if the other manager(s)",
  '  stop managing the field (remove it from their configuration).',
  'See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts',
].join('\n');

/** `v` with every object's keys sorted: kubectl re-encodes objects with sorted keys, so what it prints is compared in this form. */
export function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(v).sort()) out[k] = canonical((v as Record<string, unknown>)[k]);
  return out;
}

/** As assertManagedFields, for output a client re-encoded (kubectl sorts keys, client-node's models have their own order). */
export function assertManagedFieldsSorted(obj: unknown, want: readonly ManagedFieldsEntry[], what = 'managedFields'): void {
  assert.equal(JSON.stringify(canonical(maskTimes(managedFieldsOf(obj)))), JSON.stringify(canonical(want)), what);
}
