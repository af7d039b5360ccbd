import { deepEqualJSON, isJSONObject, setField, type JSONObject } from './jsonvalue.js';

/**
 * apiequality.Semantic.DeepEqual for typed objects carried as JSON: Go compares structs whose
 * absent fields are zero values, and treats nil and empty slices and maps as equal, so here a
 * field that is absent, null, '', an empty array or an empty object equals its absence. Array
 * elements are kept as they are (`apiGroups: ['']` is not `apiGroups: []`). For typed API objects
 * (their schema bounds how deep they nest), not arbitrary client JSON.
 */
export function semanticDeepEqual(a: unknown, b: unknown): boolean {
  const x = withoutZeroFields(a);
  const y = withoutZeroFields(b);
  // a nil slice or map equals an empty one at the top too
  return (isZero(x) && isZero(y)) || deepEqualJSON(x, y);
}

function withoutZeroFields(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutZeroFields);
  if (!isJSONObject(v)) return v;
  const out: JSONObject = {};
  for (const [k, field] of Object.entries(v)) {
    const value = withoutZeroFields(field);
    if (!isZero(value)) setField(out, k, value);
  }
  return out;
}

function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return isJSONObject(v) && Object.keys(v).length === 0;
}
