import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { canonicalJSON, hasField, isJSONObject, setField } from '../serializer/jsonvalue.js';
import { goSyntax, type FieldError } from '../validation/field.js';
import { propertySchema } from './property.js';

/**
 * Uniqueness of `x-kubernetes-list-type: set` and `map` lists
 * (listtype.ValidateListSetsAndMaps): a repeated set element, or a repeated
 * list-map key tuple, is a FieldValueDuplicate at the index of its second
 * occurrence (once per value), e.g. `spec.ports[1]: Duplicate value:
 * map[string]interface {}{"port":80}` (a map or list value is printed with Go's %#v, as
 * field.Error prints the interface{} kube holds); a list-map element that is not an object is
 * `must be an object for an array of list-type map`. Paths use kube's field
 * path syntax (`spec.map[key].list[0]`). Pure; follows the schema.
 */
export function validateListSetsAndMaps(obj: unknown, schema: JSONSchemaProps | undefined, path = ''): FieldError[] {
  if (schema === undefined) return [];
  if (Array.isArray(obj)) return validateArray(obj, schema, path);
  if (!isJSONObject(obj)) return [];
  const errs: FieldError[] = [];
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  if (additional !== undefined) for (const [k, v] of Object.entries(obj)) errs.push(...validateListSetsAndMaps(v, additional, `${path}[${k}]`));
  for (const [k, v] of Object.entries(obj)) {
    const prop = propertySchema(schema, k);
    if (prop !== undefined) errs.push(...validateListSetsAndMaps(v, prop, path === '' ? k : `${path}.${k}`));
  }
  return errs;
}

function validateArray(list: unknown[], schema: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (schema['x-kubernetes-list-type'] === 'set') {
    for (const i of nonUniqueIndices(list)) errs.push({ type: 'FieldValueDuplicate', field: `${path}[${i}]`, badValue: unstructured(list[i]), detail: '' });
  } else if (schema['x-kubernetes-list-type'] === 'map') {
    errs.push(...validateListMap(list, schema['x-kubernetes-list-map-keys'] ?? [], path));
  }
  const items = Array.isArray(schema.items) ? undefined : schema.items;
  if (items !== undefined) list.forEach((v, i) => errs.push(...validateListSetsAndMaps(v, items, `${path}[${i}]`)));
  return errs;
}

function validateListMap(list: unknown[], keyFields: readonly string[], path: string): FieldError[] {
  const notObject = list.findIndex((x) => x !== null && !isJSONObject(x));
  if (notObject !== -1) return [{ type: 'FieldValueInvalid', field: `${path}[${notObject}]`, badValue: unstructured(list[notObject]), detail: 'must be an object for an array of list-type map' }];
  const keys = list.map((x) => {
    const key: Record<string, unknown> = {};
    if (isJSONObject(x)) for (const f of keyFields) if (hasField(x, f)) setField(key, f, x[f]);
    return key;
  });
  return nonUniqueIndices(keys).map((i) => ({ type: 'FieldValueDuplicate', field: `${path}[${i}]`, badValue: goSyntax(keys[i]), detail: '' }));
}

/** A value of the object as field.Error shows it: maps and lists with %#v, scalars (and nil, "null") as they are. */
function unstructured(v: unknown): unknown {
  return typeof v === 'object' && v !== null ? goSyntax(v) : v;
}

/** Indices where a value occurs for the second time (validateListSet); objects compare by content. */
function nonUniqueIndices(list: readonly unknown[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  list.forEach((x, i) => {
    const key = typeof x === 'object' && x !== null ? `c${canonicalJSON(x)}` : `${typeof x}:${String(x)}`;
    const times = seen.get(key) ?? 0;
    seen.set(key, times + 1);
    if (times === 1) out.push(i);
  });
  return out;
}
