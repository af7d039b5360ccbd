/** JSON value helpers of the store: order-insensitive equality and key-order alignment. */
import { hasField, ownField, setField } from '../../apimachinery/serializer/jsonvalue.js';

type JSONObject = Record<string, unknown>;

function isPlainObject(v: unknown): v is JSONObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Deep equality of JSON values, ignoring object key order (apiequality.Semantic.DeepEqual for JSON). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => hasField(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/**
 * Returns `value` with object keys in the order `reference` has them (keys new in `value`
 * last), recursively. Storage skips writes whose encoding equals the stored bytes; aligning the
 * order makes a semantically unchanged update encode to exactly those bytes, whatever order the
 * client sent its fields in. Does not mutate its inputs.
 */
export function alignKeyOrder<T>(value: T, reference: unknown): T {
  if (Array.isArray(value)) {
    const ref = Array.isArray(reference) ? reference : [];
    return value.map((v, i) => alignKeyOrder(v, ref[i])) as T;
  }
  if (!isPlainObject(value)) return value;
  const ref = isPlainObject(reference) ? reference : {};
  const out: JSONObject = {};
  // Own-property checks and setField: a field named `__proto__` or `constructor` is data.
  for (const k of Object.keys(ref)) if (hasField(value, k)) setField(out, k, alignKeyOrder(value[k], ref[k]));
  for (const k of Object.keys(value)) if (!hasField(out, k)) setField(out, k, alignKeyOrder(value[k], undefined));
  return out as T;
}

/**
 * alignKeyOrder for an object about to be stored over `stored`, except metadata.managedFields:
 * the field manager writes them in kube's canonical order (entries sorted, FieldsV1 keys
 * sorted), which a client cannot vary, so they are kept as written; aligned by position they
 * would take the order of whatever entry held that index before (a forced apply stored
 * `f:metadata` before `f:data`).
 */
export function alignStoredKeyOrder<T extends JSONObject>(obj: T, stored: unknown): T {
  const aligned = alignKeyOrder(obj, stored);
  const meta = ownField(obj, 'metadata');
  const alignedMeta = ownField(aligned, 'metadata');
  if (isPlainObject(meta) && isPlainObject(alignedMeta) && hasField(meta, 'managedFields')) setField(alignedMeta, 'managedFields', meta['managedFields']);
  return aligned;
}

/** A copy of obj without `metadata` (and without `status` when `withoutStatus`), for generation checks. */
export function nonMetadata(obj: JSONObject, withoutStatus: boolean): JSONObject {
  const out: JSONObject = {};
  for (const [k, v] of Object.entries(obj)) if (k !== 'metadata' && !(withoutStatus && k === 'status')) setField(out, k, v);
  return out;
}
