import type { JSONObject } from '../serializer/jsonvalue.js';
import { deepEqualJSON, hasField, isJSONObject, ownField } from '../serializer/jsonvalue.js';

/**
 * Keeps the old managedFields times when a write changed nothing but those times
 * (IgnoreManagedFieldsTimestampsTransformer of apiserver's fieldmanager package): an apply or
 * update whose only effect is a newer `time` on some entries must not become a new revision of
 * the object. Returns `newObj` itself when anything else differs, else a copy of it carrying the
 * old times. Objects compare as JSON (unstructured semantics: an absent map is not an empty one).
 */
export function ignoreManagedFieldsTimestamps(newObj: JSONObject, oldObj: JSONObject): JSONObject {
  const oldEntries = managedFieldsOf(oldObj);
  const newEntries = managedFieldsOf(newObj);
  if (oldEntries === undefined || newEntries === undefined) return newObj;
  if (oldEntries.length !== newEntries.length || newEntries.length === 0) return newObj;
  if (newEntries.every((e, i) => sameTime(e, oldEntries[i]))) return newObj;
  if (!newEntries.every((e, i) => entriesEqualIgnoringTime(e, oldEntries[i]))) return newObj;
  if (!equalIgnoringValueAtPath(newObj, oldObj, ['metadata', 'managedFields'])) return newObj;
  const restored = newEntries.map((e, i) => withTimeOf(e, oldEntries[i]));
  const meta = ownField(newObj, 'metadata') as JSONObject;
  return { ...newObj, metadata: { ...meta, managedFields: restored } };
}

function managedFieldsOf(obj: JSONObject): unknown[] | undefined {
  const meta = ownField(obj, 'metadata');
  const mf = isJSONObject(meta) ? ownField(meta, 'managedFields') : undefined;
  return Array.isArray(mf) ? mf : undefined;
}

/** metav1.Time equality: the same instant, or both absent. */
function sameTime(a: unknown, b: unknown): boolean {
  const ta = timeOf(a);
  const tb = timeOf(b);
  if (ta === undefined || tb === undefined) return ta === tb;
  const ma = Date.parse(ta);
  const mb = Date.parse(tb);
  return Number.isNaN(ma) || Number.isNaN(mb) ? ta === tb : ma === mb;
}

function timeOf(entry: unknown): string | undefined {
  const t = isJSONObject(entry) ? ownField(entry, 'time') : undefined;
  return typeof t === 'string' ? t : undefined;
}

function entriesEqualIgnoringTime(a: unknown, b: unknown): boolean {
  if (!isJSONObject(a) || !isJSONObject(b)) return deepEqualJSON(a, b);
  return equalIgnoringValueAtPath(a, b, ['time']);
}

function withTimeOf(entry: unknown, old: unknown): unknown {
  if (!isJSONObject(entry)) return entry;
  const out: JSONObject = { ...entry };
  const t = timeOf(old);
  if (t === undefined) delete out.time;
  else out.time = t;
  return out;
}

/**
 * Deep equality that ignores the value at `path` (equalIgnoringValueAtPath): maps must have the
 * same keys, the value at the path is not compared, and where either side is not a map before
 * the path ends the difference is ignored, as kube's helper does.
 */
export function equalIgnoringValueAtPath(a: unknown, b: unknown, path: readonly string[]): boolean {
  if (path.length === 0) return true;
  if (!isJSONObject(a) || !isJSONObject(b)) return true;
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  const [head, ...rest] = path;
  for (const k of aKeys) {
    if (!hasField(b, k)) return false;
    const equal = k === head ? equalIgnoringValueAtPath(a[k], b[k], rest) : deepEqualJSON(a[k], b[k]);
    if (!equal) return false;
  }
  return true;
}
