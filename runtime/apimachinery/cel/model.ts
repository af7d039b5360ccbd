import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { EvaluationError } from '@marcbachmann/cel-js';
import { escapeProperty } from './escaping.js';

/**
 * The CEL type of a structural schema node, as the apiserver declares it (SchemaDeclType):
 * objects with properties are object types whose fields are the escaped property names,
 * objects with additionalProperties are map<string, V>, arrays are lists, scalars map to CEL
 * scalars (string formats byte, date, date-time and duration to bytes, timestamp and
 * duration), x-kubernetes-int-or-string is dyn. Nodes CEL cannot see (no type, list items
 * it cannot see) have no DeclType. Each DeclType is computed once per schema object.
 */
export type DeclType = ObjectDecl | MapDecl | ListDecl | ScalarDecl | DynDecl;

export interface ObjectDecl {
  readonly kind: 'object';
  readonly schema: JSONSchemaProps;
  /** Escaped field name → the property it reads and its type. */
  readonly fields: ReadonlyMap<string, { readonly property: string; readonly type: DeclType }>;
  /** Property name → its type, for converting values. */
  readonly properties: ReadonlyMap<string, DeclType>;
  /** The class of this object type's values: one per declaration, shared by every environment. */
  readonly ctor: new (raw: Record<string, unknown>) => CelObject;
}

export interface MapDecl {
  readonly kind: 'map';
  readonly schema: JSONSchemaProps;
  readonly value: DeclType;
}

export interface ListDecl {
  readonly kind: 'list';
  readonly schema: JSONSchemaProps;
  readonly items: DeclType;
  /** set lists become JS Sets (equality ignores order); map and atomic lists arrays. */
  readonly listType: 'atomic' | 'set' | 'map';
}

export type ScalarKind = 'string' | 'int' | 'double' | 'bool' | 'bytes' | 'timestamp' | 'duration';

export interface ScalarDecl {
  readonly kind: 'scalar';
  readonly schema: JSONSchemaProps;
  readonly scalar: ScalarKind;
}

export interface DynDecl {
  readonly kind: 'dyn';
  readonly schema: JSONSchemaProps;
}

/**
 * A value of an object type: the fields rules can read (escaped names → CEL values) and the
 * decoded object it came from, which equality needs for the fields CEL cannot see.
 */
export class CelObject extends Map<string, unknown> {
  constructor(readonly raw: Record<string, unknown>) {
    super();
  }

  /** A field whose value does not fit its schema fails whoever reads it (values.ts InvalidData). */
  override get(key: string): unknown {
    const v = super.get(key);
    if (typeof v === 'object' && v !== null && (v as { invalidData?: unknown }).invalidData === INVALID_DATA) {
      throw new EvaluationError((v as { message: string }).message);
    }
    return v;
  }
}

/** The brand of values.ts InvalidData (kept here so the two modules do not import each other). */
export const INVALID_DATA: unique symbol = Symbol('invalid data');

const declCache = new WeakMap<JSONSchemaProps, DeclType | null>();
const rootCache = new WeakMap<JSONSchemaProps, DeclType | null>();

/** The DeclType of a schema node; isResourceRoot adds apiVersion, kind and metadata.name/generateName. */
export function declTypeOf(schema: JSONSchemaProps, isResourceRoot = false): DeclType | undefined {
  const cache = isResourceRoot ? rootCache : declCache;
  let decl = cache.get(schema);
  if (decl === undefined) {
    decl = build(isResourceRoot ? withTypeAndObjectMeta(schema) : schema) ?? null;
    cache.set(schema, decl);
  }
  return decl ?? undefined;
}

function build(schema: JSONSchemaProps): DeclType | undefined {
  if (schema['x-kubernetes-int-or-string'] === true) return { kind: 'dyn', schema };
  switch (schema.type) {
    case 'array': {
      const items = Array.isArray(schema.items) ? undefined : schema.items;
      const itemType = items === undefined ? undefined : declTypeOf(items, items['x-kubernetes-embedded-resource'] === true);
      if (itemType === undefined) return undefined;
      const lt = schema['x-kubernetes-list-type'];
      return { kind: 'list', schema, items: itemType, listType: lt === 'set' || lt === 'map' ? lt : 'atomic' };
    }
    case 'object': {
      const additional = schema.additionalProperties;
      if (typeof additional === 'object') {
        const value = declTypeOf(additional, additional['x-kubernetes-embedded-resource'] === true);
        return value === undefined ? undefined : { kind: 'map', schema, value };
      }
      const fields = new Map<string, { property: string; type: DeclType }>();
      const properties = new Map<string, DeclType>();
      for (const [name, prop] of Object.entries(schema.properties ?? {})) {
        const type = declTypeOf(prop, prop['x-kubernetes-embedded-resource'] === true);
        if (type === undefined) continue;
        properties.set(name, type);
        const escaped = escapeProperty(name);
        if (escaped !== undefined) fields.set(escaped, { property: name, type });
      }
      return { kind: 'object', schema, fields, properties, ctor: class extends CelObject {} };
    }
    case 'string':
      switch (schema.format) {
        case 'byte':
          return { kind: 'scalar', schema, scalar: 'bytes' };
        case 'duration':
          return { kind: 'scalar', schema, scalar: 'duration' };
        case 'date':
        case 'date-time':
          return { kind: 'scalar', schema, scalar: 'timestamp' };
        default:
          return { kind: 'scalar', schema, scalar: 'string' };
      }
    case 'integer':
      return { kind: 'scalar', schema, scalar: 'int' };
    case 'number':
      return { kind: 'scalar', schema, scalar: 'double' };
    case 'boolean':
      return { kind: 'scalar', schema, scalar: 'bool' };
    default:
      return undefined;
  }
}

const typeMetaCache = new WeakMap<JSONSchemaProps, JSONSchemaProps>();
const STRING: JSONSchemaProps = { type: 'string' };
const OBJECT_META: JSONSchemaProps = { type: 'object', properties: { name: STRING, generateName: STRING } };

/**
 * WithTypeAndObjectMeta: the root of a resource (and of an embedded resource) always lets rules
 * read apiVersion, kind, metadata.name and metadata.generateName, whatever its schema says.
 * Returns the same schema object for the same input, so DeclTypes stay cached.
 */
export function withTypeAndObjectMeta(schema: JSONSchemaProps): JSONSchemaProps {
  const p = schema.properties;
  const meta = p?.['metadata'];
  if (
    p?.['kind']?.type === 'string' &&
    p['apiVersion']?.type === 'string' &&
    meta?.type === 'object' &&
    meta.properties?.['name']?.type === 'string' &&
    meta.properties['generateName']?.type === 'string'
  ) {
    return schema;
  }
  let out = typeMetaCache.get(schema);
  if (out === undefined) {
    out = { ...schema, properties: { ...p, kind: STRING, apiVersion: STRING, metadata: OBJECT_META } };
    typeMetaCache.set(schema, out);
  }
  return out;
}
