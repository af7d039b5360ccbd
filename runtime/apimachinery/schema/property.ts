import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { ownField } from '../serializer/jsonvalue.js';

/**
 * The schema of field `name` declared in `schema.properties`, or undefined.
 * `name` is usually a key of client data: an own-property lookup, so
 * `constructor` or `__proto__` are fields like any other and never resolve to
 * Object's members (which would keep an unknown `__proto__` from being pruned).
 */
export function propertySchema(schema: JSONSchemaProps | undefined, name: string): JSONSchemaProps | undefined {
  const props = schema?.properties;
  return props === undefined ? undefined : (ownField(props, name) as JSONSchemaProps | undefined);
}

/** The schema of field `name` of an object: its declared property, else `additionalProperties` when that is a schema. */
export function fieldSchema(schema: JSONSchemaProps | undefined, name: string): JSONSchemaProps | undefined {
  return propertySchema(schema, name) ?? (typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined);
}
