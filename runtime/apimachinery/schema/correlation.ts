import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { deepEqualJSON, hasField, isJSONObject, ownField } from '../serializer/jsonvalue.js';
import { fieldSchema, propertySchema } from './property.js';

/**
 * Correlation of an updated object with the stored one, as CRDValidationRatcheting correlates
 * them (kube-openapi's common.CorrelatedObject): properties and map values by key, items of
 * list-type=map lists by their key fields; items of any other list never correlate (a list
 * index says nothing about which old item an item was). A value that correlates and is
 * deep-equal to its old value is unchanged, and so is everything below it.
 */

/** Granular and atomic maps (and unmarked ones) correlate their values by key. */
export function mapIsCorrelatable(schema: JSONSchemaProps | undefined): boolean {
  const t = schema?.['x-kubernetes-map-type'];
  return t === undefined || t === 'granular' || t === 'atomic';
}

/**
 * The old item each item of a list correlates with: by the key fields of a list-type=map
 * list; undefined for every item of other lists, or without an old list.
 */
export function correlatedItems(schema: JSONSchemaProps | undefined, old: readonly unknown[] | undefined): (item: unknown) => unknown {
  const keys = schema?.['x-kubernetes-list-map-keys'];
  if (old === undefined || schema?.['x-kubernetes-list-type'] !== 'map' || keys === undefined || keys.length === 0) return () => undefined;
  const keyOf = (item: unknown): string | undefined => (isJSONObject(item) ? JSON.stringify(keys.map((k) => ownField(item, k) ?? null)) : undefined);
  const byKey = new Map<string, unknown>();
  for (const item of old) {
    const k = keyOf(item);
    if (k !== undefined && !byKey.has(k)) byKey.set(k, item);
  }
  return (item) => {
    const k = keyOf(item);
    return k === undefined ? undefined : byKey.get(k);
  };
}

/**
 * The ratcheting test of schema errors on update (kube-openapi's ratcheting schema validator):
 * given the path of the value an error was raised at (JSON-pointer segments from the root, as
 * the validator reports them; a missing required property is raised at its parent), whether
 * the error is ratcheted, i.e. some value on the way there correlates with the old object and
 * is deep-equal to it. Values the schema does not describe (preserved unknown fields) do not
 * correlate. Equality is computed once per path prefix.
 */
export function ratchetedAt(schema: JSONSchemaProps, obj: unknown, old: unknown): (segments: readonly string[]) => boolean {
  const equalAt = new Map<string, boolean>();
  const itemsOf = new Map<readonly unknown[], (item: unknown) => unknown>();
  const correlate = (listSchema: JSONSchemaProps | undefined, oldList: readonly unknown[]): ((item: unknown) => unknown) => {
    let f = itemsOf.get(oldList);
    if (f === undefined) itemsOf.set(oldList, (f = correlatedItems(listSchema, oldList)));
    return f;
  };
  return (segments) => {
    let s: JSONSchemaProps | undefined = schema;
    let value = obj;
    let oldValue = old;
    let prefix = '';
    for (let i = 0; ; i++) {
      let equal = equalAt.get(prefix);
      if (equal === undefined) equalAt.set(prefix, (equal = deepEqualJSON(value, oldValue)));
      if (equal) return true;
      if (i === segments.length) return false;
      const seg = segments[i] as string;
      const next = childOf(s, value, oldValue, seg, correlate);
      if (next === undefined) return false;
      ({ schema: s, value, old: oldValue } = next);
      prefix += `/${seg.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    }
  };
}

/** The child `seg` of a value and its correlated old value, undefined where either is missing. */
function childOf(
  schema: JSONSchemaProps | undefined,
  value: unknown,
  old: unknown,
  seg: string,
  correlate: (listSchema: JSONSchemaProps | undefined, oldList: readonly unknown[]) => (item: unknown) => unknown,
): { schema: JSONSchemaProps | undefined; value: unknown; old: unknown } | undefined {
  if (Array.isArray(value)) {
    const i = Number(seg);
    if (!Number.isInteger(i) || i < 0 || i >= value.length || !Array.isArray(old)) return undefined;
    const item: unknown = value[i];
    const oldItem = correlate(schema, old)(item);
    const items = schema?.items;
    return oldItem === undefined ? undefined : { schema: Array.isArray(items) ? undefined : items, value: item, old: oldItem };
  }
  if (!isJSONObject(value) || !isJSONObject(old) || !hasField(value, seg) || !hasField(old, seg)) return undefined;
  // A declared property, or a map value (when the map correlates its values).
  const childSchema = propertySchema(schema, seg) ?? (mapIsCorrelatable(schema) ? fieldSchema(schema, seg) : undefined);
  return childSchema === undefined ? undefined : { schema: childSchema, value: ownField(value, seg), old: ownField(old, seg) };
}
