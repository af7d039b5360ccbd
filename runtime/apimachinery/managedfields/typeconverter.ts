import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { goType } from '../patch/strategic/gosort.js';
import { objectMetaSchema } from '../schema/objectmeta.js';
import type { JSONObject } from '../serializer/jsonvalue.js';
import { isJSONObject } from '../serializer/jsonvalue.js';
import type { Atom, TypeDef, TypeRef } from '../structuredmerge/schema/index.js';
import { Schema } from '../structuredmerge/schema/index.js';
import type { ValidationOptions } from '../structuredmerge/typed/index.js';
import { deducedParseableType, TypedValue } from '../structuredmerge/typed/index.js';
import type { GroupVersionKind } from './groupversion.js';
import { groupVersionKindString, objectGroupVersionKind, parseGroupVersion } from './groupversion.js';
import { deducedDef, SchemaConverter, untypedDef } from './schemaconv.js';

/** The structural schema of one kind in one version. */
export interface GVKSchema {
  /** `group/version`, or `v1` for the core group. */
  readonly apiVersion: string;
  readonly kind: string;
  /** The kind's structural schema; `metadata` at its root is ObjectMeta whatever it says. */
  readonly schema: JSONSchemaProps;
  /** The OpenAPI definition name, used in conversion errors (default `<apiVersion>.<kind>`). */
  readonly name?: string;
}

/** Objects ↔ typed values of structured-merge-diff (managedfields.TypeConverter). */
export interface TypeConverter {
  /** The object typed by the schema of its apiVersion and kind; throws a NoCorrespondingTypeError or SMD's ValidationErrors. */
  objectToTyped(obj: JSONObject, opts?: ValidationOptions): TypedValue;
  /** The object a typed value holds; throws when it is not an object. */
  typedToObject(v: TypedValue): JSONObject;
}

/** The error of a kind the converter has no schema for (kube's noCorrespondingTypeErr). */
export class NoCorrespondingTypeError extends Error {
  constructor(readonly gvk: GroupVersionKind) {
    super(`no corresponding type for ${groupVersionKindString(gvk)}`);
    this.name = 'NoCorrespondingTypeError';
  }
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/**
 * Converted kinds, per schema object and preserveUnknownFields flag: schemas are immutable and
 * shared (a ResourceDefinition's, a CRD version's), so every field manager of a kind, and every
 * version serving the same schema object, converts it once.
 */
const convertedKinds = { false: new WeakMap<JSONSchemaProps, Atom>(), true: new WeakMap<JSONSchemaProps, Atom>() };
const objectMetaAtoms = new Map<boolean, Atom>();

/**
 * A TypeConverter for kinds with structural schemas (NewTypeConverter over kube's OpenAPI
 * models). With preserveUnknownFields, every object accepts fields its schema does not declare
 * (a CRD with spec.preserveUnknownFields). Throws `failed to convert models to schema: …` with
 * one line per problem when a schema cannot be converted.
 */
export function newTypeConverter(kinds: readonly GVKSchema[], opts: { readonly preserveUnknownFields: boolean }): TypeConverter {
  const preserve = opts.preserveUnknownFields;
  const errors: string[] = [];
  const types = new Map<string, TypeDef>();
  const byGVK = new Map<string, TypeRef>();
  for (const k of kinds) {
    const name = k.name ?? `${k.apiVersion}.${k.kind}`;
    const atom = convertKind(name, k.schema, preserve, errors);
    if (!types.has(name)) types.set(name, { ...atom, name });
    byGVK.set(groupVersionKindString({ ...parseGroupVersion(k.apiVersion), kind: k.kind }), { namedType: name });
  }
  if (errors.length > 0) throw new Error(`failed to convert models to schema: ${errors.join('\n')}`);
  const schema = new Schema({ types: [...types.values(), untypedDef, deducedDef] });
  return {
    objectToTyped(obj, validation) {
      const gvk = objectGroupVersionKind(obj);
      const tr = byGVK.get(groupVersionKindString(gvk));
      if (tr === undefined) throw new NoCorrespondingTypeError(gvk);
      return TypedValue.asTyped(obj, schema, tr, validation);
    },
    typedToObject: valueToObject,
  };
}

/**
 * The TypeConverter of custom resources without a usable schema (NewDeducedTypeConverter):
 * every map merges key by key, every list and scalar is atomic.
 */
export const deducedTypeConverter: TypeConverter = {
  objectToTyped: (obj, validation) => deducedParseableType.fromUnstructured(obj, validation),
  typedToObject: valueToObject,
};

function convertKind(name: string, schema: JSONSchemaProps, preserve: boolean, errors: string[]): Atom {
  const cache = preserve ? convertedKinds.true : convertedKinds.false;
  const cached = cache.get(schema);
  if (cached !== undefined) return cached;
  const c = new SchemaConverter(() => objectMetaAtom(preserve));
  let atom: Atom;
  try {
    atom = c.convertDefinition(name, schema, preserve, true);
  } catch (err) {
    // A schema nested deeper than the call stack (a CRD's schema may nest as deep as its body).
    if (!(err instanceof RangeError)) throw err;
    errors.push(`${name}: schema is nested too deeply`);
    return {};
  }
  if (c.errors.length > 0) errors.push(...c.errors);
  else cache.set(schema, atom);
  return atom;
}

/** ObjectMeta converted as kube converts its named definition: with the converter's flag only. */
function objectMetaAtom(preserve: boolean): Atom {
  let atom = objectMetaAtoms.get(preserve);
  if (atom === undefined) {
    const c = new SchemaConverter(() => objectMetaAtom(preserve));
    atom = c.convertDefinition(OBJECT_META, objectMetaSchema, preserve, false);
    if (c.errors.length > 0) throw new Error(`failed to convert models to schema: ${c.errors.join('\n')}`);
    objectMetaAtoms.set(preserve, atom);
  }
  return atom;
}

function valueToObject(v: TypedValue): JSONObject {
  const value = v.value;
  if (isJSONObject(value)) return value;
  throw new Error(`failed to convert value to unstructured for type ${goType(value)}`);
}
