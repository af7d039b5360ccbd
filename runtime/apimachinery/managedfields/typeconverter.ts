import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { goType } from '../patch/strategic/gosort.js';
import { objectMetaSchema } from '../schema/objectmeta.js';
import type { JSONObject } from '../serializer/jsonvalue.js';
import { isJSONObject, ownField } from '../serializer/jsonvalue.js';
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
  /**
   * The definitions the schema's `$ref`s name (its OpenAPI document's `components.schemas`).
   * With them the schema is a published definition, converted as kube converts its OpenAPI
   * models: as is (its `metadata` refers to ObjectMeta), each referenced definition once as a
   * named type. Without them (a CRD's structural schema) every type is inlined, and the root
   * gets TypeMeta and ObjectMeta as kube's CRD OpenAPI builder adds them.
   */
  readonly definitions?: Readonly<Record<string, unknown>>;
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
const OBJECT_META_REF: TypeRef = { namedType: OBJECT_META };

/**
 * Definitions kube-openapi's schemaconv types by name whatever their documents say: a quantity
 * is an untyped scalar, a RawExtension holds anything atomically.
 */
const hardCodedAtoms: ReadonlyMap<string, Atom> = new Map<string, Atom>([
  ['io.k8s.apimachinery.pkg.api.resource.Quantity', { scalar: 'untyped' }],
  ['io.k8s.apimachinery.pkg.runtime.RawExtension', { scalar: untypedDef.scalar, list: untypedDef.list, map: untypedDef.map }],
]);

/** A converted definition: its atom and the definitions it names. */
interface Converted {
  readonly atom: Atom;
  readonly references: readonly string[];
}

/**
 * Converted definitions, per schema object, preserveUnknownFields flag and whether the schema
 * is a resource root to complete with TypeMeta and ObjectMeta: schemas are immutable and
 * shared (a ResourceDefinition's, a CRD version's, an OpenAPI document's), so every field
 * manager of a kind, every version serving the same schema object and every kind referring to
 * the same definition converts it once.
 */
const convertedSchemas = new Map<string, WeakMap<object, Converted>>();
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
  const types = new Map<string, TypeDef>([[OBJECT_META, { ...objectMetaAtom(preserve), name: OBJECT_META }]]);
  const references: Reference[] = [];
  const byGVK = new Map<string, TypeRef>();
  for (const k of kinds) {
    const name = k.name ?? `${k.apiVersion}.${k.kind}`;
    const c = convertSchema(name, k.schema, preserve, k.definitions === undefined, errors);
    if (!types.has(name)) types.set(name, { ...c.atom, name });
    for (const r of c.references) references.push({ name: r, referrer: name, definitions: k.definitions });
    byGVK.set(groupVersionKindString({ ...parseGroupVersion(k.apiVersion), kind: k.kind }), { namedType: name });
  }
  addReferencedTypes(types, references, preserve, errors);
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

/** A definition named by a `$ref` in the definition `referrer`, to be found in `definitions`. */
interface Reference {
  readonly name: string;
  readonly referrer: string;
  readonly definitions: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Adds the named type of every definition referred to, and of those they refer to, each once
 * (a recursive definition refers to its own name). As kube-openapi, a definition that is
 * itself a bare `$ref` makes no type; a reference to no definition at all is an error here
 * (kube would fail later, on the first object reaching it).
 */
function addReferencedTypes(types: Map<string, TypeDef>, pending: Reference[], preserve: boolean, errors: string[]): void {
  const seen = new Set<string>(types.keys());
  for (let i = 0; i < pending.length; i++) {
    const { name, referrer, definitions } = pending[i] as Reference;
    if (seen.has(name)) continue;
    seen.add(name);
    const hardCoded = hardCodedAtoms.get(name);
    if (hardCoded !== undefined) {
      types.set(name, { ...hardCoded, name });
      continue;
    }
    const def = definitions === undefined ? undefined : ownField(definitions, name);
    if (!isJSONObject(def)) {
      errors.push(`${referrer}: unresolvable reference to ${name}`);
      continue;
    }
    const ref = ownField(def, '$ref');
    if (typeof ref === 'string' && ref !== '') continue;
    const c = convertSchema(name, def as JSONSchemaProps, preserve, false, errors);
    types.set(name, { ...c.atom, name });
    for (const r of c.references) pending.push({ name: r, referrer: name, definitions });
  }
}

/**
 * The TypeConverter of custom resources without a usable schema (NewDeducedTypeConverter):
 * every map merges key by key, every list and scalar is atomic.
 */
export const deducedTypeConverter: TypeConverter = {
  objectToTyped: (obj, validation) => deducedParseableType.fromUnstructured(obj, validation),
  typedToObject: valueToObject,
};

function convertSchema(name: string, schema: JSONSchemaProps, preserve: boolean, resource: boolean, errors: string[]): Converted {
  const key = `${String(preserve)}/${String(resource)}`;
  let cache = convertedSchemas.get(key);
  if (cache === undefined) convertedSchemas.set(key, (cache = new WeakMap()));
  const cached = cache.get(schema);
  if (cached !== undefined) return cached;
  const c = new SchemaConverter(OBJECT_META_REF);
  let out: Converted;
  try {
    out = { atom: c.convertDefinition(name, schema, preserve, resource), references: [...c.references] };
  } catch (err) {
    // A schema nested deeper than the call stack (a CRD's schema may nest as deep as its body).
    if (!(err instanceof RangeError)) throw err;
    errors.push(`${name}: schema is nested too deeply`);
    return { atom: {}, references: [] };
  }
  if (c.errors.length > 0) errors.push(...c.errors);
  else cache.set(schema, out);
  return out;
}

/** ObjectMeta converted as kube converts its named definition: with the converter's flag only. */
function objectMetaAtom(preserve: boolean): Atom {
  let atom = objectMetaAtoms.get(preserve);
  if (atom === undefined) {
    const c = new SchemaConverter(OBJECT_META_REF);
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
