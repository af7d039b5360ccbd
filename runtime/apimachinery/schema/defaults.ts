import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { deepCopyJSON, hasField, isJSONObject, setField } from '../serializer/jsonvalue.js';
import { fieldSchema, propertySchema } from './property.js';

/**
 * Structural defaulting (structuraldefaulting.Default), in place: a property
 * that is absent, or null where the schema is not nullable, gets a deep copy
 * of its `default`; array items and additionalProperties values that are
 * null (not nullable) get their schema's default. Defaulted values are then
 * defaulted inside, like any other. Mutates `obj`; returns nothing. Follows
 * the schema only, so its depth bounds the recursion.
 */
export function applyDefaults(obj: unknown, schema: JSONSchemaProps | undefined): void {
  if (schema === undefined) return;
  if (Array.isArray(obj)) {
    const items = Array.isArray(schema.items) ? undefined : schema.items;
    if (items === undefined) return;
    for (let i = 0; i < obj.length; i++) {
      if (isNonNullableNull(obj[i], items) && hasDefault(items)) obj[i] = deepCopyJSON(items.default);
      applyDefaults(obj[i], items);
    }
    return;
  }
  if (!isJSONObject(obj)) return;
  for (const [k, prop] of Object.entries(schema.properties ?? {})) {
    if (!hasDefault(prop)) continue;
    if (!hasField(obj, k) || isNonNullableNull(obj[k], prop)) setField(obj, k, deepCopyJSON(prop.default));
  }
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const k of Object.keys(obj)) {
    const prop = propertySchema(schema, k);
    if (prop !== undefined) {
      applyDefaults(obj[k], prop);
    } else if (additional !== undefined) {
      if (isNonNullableNull(obj[k], additional) && hasDefault(additional)) setField(obj, k, deepCopyJSON(additional.default));
      applyDefaults(obj[k], additional);
    }
  }
}

/**
 * Removes, in place, null values the schema does not allow and has no default
 * for (structuraldefaulting.PruneNonNullableNullsWithoutDefaults): object
 * properties and additionalProperties values. Run after applyDefaults, as the
 * apiserver does when decoding custom resources.
 */
export function pruneNonNullableNullsWithoutDefaults(obj: unknown, schema: JSONSchemaProps | undefined): void {
  if (schema === undefined) return;
  if (Array.isArray(obj)) {
    const items = Array.isArray(schema.items) ? undefined : schema.items;
    if (items !== undefined) for (const v of obj) pruneNonNullableNullsWithoutDefaults(v, items);
    return;
  }
  if (!isJSONObject(obj)) return;
  for (const k of Object.keys(obj)) {
    const sub = fieldSchema(schema, k);
    if (sub === undefined) continue;
    if (obj[k] === null && sub.nullable !== true && !hasDefault(sub)) {
      delete obj[k];
      continue;
    }
    pruneNonNullableNullsWithoutDefaults(obj[k], sub);
  }
}

/**
 * What Go's decoding of a typed kind makes of null list items: the item type's zero value (a
 * struct `{}`, `""`, `0`, `false`); items of other types stay null (a nil slice or map). Defaulters
 * and Go-style validation then read the items as Go would. Null fields are
 * pruneNonNullableNullsWithoutDefaults'.
 */
export function zeroNullListItems(obj: unknown, schema: JSONSchemaProps | undefined): void {
  if (schema === undefined) return;
  if (Array.isArray(obj)) {
    const items = Array.isArray(schema.items) ? undefined : schema.items;
    if (items === undefined) return;
    for (let i = 0; i < obj.length; i++) {
      if (obj[i] === null) obj[i] = goZero(items);
      else zeroNullListItems(obj[i], items);
    }
    return;
  }
  if (!isJSONObject(obj)) return;
  for (const k of Object.keys(obj)) zeroNullListItems(obj[k], fieldSchema(schema, k));
}

/**
 * What Go's decoding of a typed kind writes for a required (non-omitempty) field the JSON lacks:
 * its type's zero, at every depth (a struct's zero with its own required fields' zeros). For kinds
 * validated by Go-style code alone (markGoValidation), which reads `key` of a label selector
 * requirement `{}` as Go does, as "", with no schema check before it to refuse the object.
 * Follows the schema only, so its depth bounds the walk.
 */
export function zeroMissingRequiredFields(obj: unknown, schema: JSONSchemaProps | undefined): void {
  if (schema === undefined) return;
  if (Array.isArray(obj)) {
    const items = Array.isArray(schema.items) ? undefined : schema.items;
    for (const item of obj) zeroMissingRequiredFields(item, items);
    return;
  }
  if (!isJSONObject(obj)) return;
  for (const k of schema.required ?? []) {
    if (hasField(obj, k)) continue;
    const sub = fieldSchema(schema, k);
    const zero = sub === undefined ? null : goZero(sub);
    if (zero !== null) setField(obj, k, zero);
  }
  for (const k of Object.keys(obj)) zeroMissingRequiredFields(obj[k], fieldSchema(schema, k));
}

/**
 * The JSON of Go's zero value of a schema's type; null where Go's zero is nil or the type is open.
 * A struct's zero carries its required (non-omitempty) fields' zeros, as Go writes them.
 */
function goZero(s: JSONSchemaProps, depth = 0): unknown {
  // a pointer's zero is nil
  if (s['x-kubernetes-int-or-string'] === true || s.nullable === true || depth > 32) return null;
  switch (s.type) {
    case 'object': {
      if (s.additionalProperties !== undefined && s.properties === undefined) return null;
      const zero: Record<string, unknown> = {};
      for (const k of s.required ?? []) {
        const sub = fieldSchema(s, k);
        const v = sub === undefined ? null : goZero(sub, depth + 1);
        if (v !== null) setField(zero, k, v);
      }
      return zero;
    }
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

function isNonNullableNull(v: unknown, s: JSONSchemaProps): boolean {
  return v === null && s.nullable !== true;
}

/** A `default` of null is no default (kube's Default.Object == nil). */
function hasDefault(s: JSONSchemaProps): boolean {
  return s.default !== undefined && s.default !== null;
}

/** Whether defaulting with `schema` can add anything (reads from storage skip the copy when not). */
export function schemaHasDefaults(s: JSONSchemaProps | undefined): boolean {
  if (s === undefined) return false;
  if (s.default !== undefined && s.default !== null) return true;
  if (Object.values(s.properties ?? {}).some(schemaHasDefaults)) return true;
  if (s.items !== undefined && !Array.isArray(s.items) && schemaHasDefaults(s.items)) return true;
  return typeof s.additionalProperties === 'object' && schemaHasDefaults(s.additionalProperties);
}
