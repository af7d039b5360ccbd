import { type FieldManager, newDefaultCRDFieldManager, newDefaultFieldManager } from '../apimachinery/managedfields/index.js';
import { newZeroObject } from '../apimachinery/definition/zero.js';
import { kindSchemas } from '../apimachinery/managedfields/gvk-schemas.js';
import { deducedTypeConverter, newTypeConverter, type GVKSchema, type TypeConverter } from '../apimachinery/managedfields/typeconverter.js';
import { NotRegisteredError, type ObjectConvertor } from '../apimachinery/managedfields/versionconverter.js';
import type { KindScheme } from '../apimachinery/scheme/scheme.js';
import type { JSONObject } from '../apimachinery/serializer/jsonvalue.js';
import { makePath } from '../apimachinery/structuredmerge/fieldpath/path.js';
import { Set as FieldSet } from '../apimachinery/structuredmerge/fieldpath/set.js';
import { resetFieldNames } from '../registry/generic/resetfields.js';
import type { APIGroupDefinition } from '../registry/types.js';

/**
 * The field managers of one kind's endpoints in one version (the installer's
 * NewDefaultFieldManager per RequestScope): managedFields are computed in the request version
 * with the kind's schemas of every version of the group (a manager that wrote in another version
 * keeps its set in that version), objects move through `objectConvertor`, and each endpoint
 * leaves out what its strategy resets.
 */
export interface KindFieldManagers {
  readonly main: FieldManager;
  readonly status: FieldManager;
  readonly scale: FieldManager;
}

export interface KindFieldManagerOptions {
  readonly group: APIGroupDefinition;
  readonly scheme: KindScheme;
  /** The request version (a version name of the group). */
  readonly version: string;
  readonly hasStatus: boolean;
  /**
   * Custom resources: fields under x-kubernetes-preserve-unknown-fields are merged as deduced
   * types (NewDefaultCRDFieldManager). Unset for the kinds of apis/.
   */
  readonly customResource?: { readonly preserveUnknownFields: boolean };
  /** Default: the scheme's conversions. */
  readonly objectConvertor?: ObjectConvertor;
  /** The clock of managedFields times. Default: the wall clock. */
  readonly now?: () => Date;
}

/** The type converter of a kind, shared by the installations of every version of its group. */
const typeConverters = new WeakMap<APIGroupDefinition, Map<string, TypeConverter>>();

export function kindFieldManagers(o: KindFieldManagerOptions): KindFieldManagers {
  const { scheme } = o;
  const typeConverter = kindTypeConverter(o.group, scheme, o.customResource);
  const objectConverter = o.objectConvertor ?? schemeObjectConvertor(scheme);
  const apiVersion = scheme.apiVersion(o.version);
  const strategy = scheme.resource(scheme.hubVersion).strategy;
  const common = {
    typeConverter,
    objectConverter,
    apiVersion,
    hubApiVersion: scheme.apiVersion(scheme.hubVersion),
    kind: scheme.kind,
    objectCreater: (apiVersion: string, kind: string) => {
      const version = scheme.versionOf(apiVersion);
      return newZeroObject(version === undefined ? undefined : scheme.resource(version), apiVersion, kind);
    },
    ...(o.now !== undefined ? { now: o.now } : {}),
  };
  const build = (subresource: string): FieldManager => {
    const opts = { ...common, subresource, resetFields: resetFieldsOf(o.group, scheme, resetFieldNames(strategy, o.hasStatus, subresource)) };
    return o.customResource !== undefined ? newDefaultCRDFieldManager({ ...opts, preserveUnknownFields: o.customResource.preserveUnknownFields }) : newDefaultFieldManager(opts);
  };
  return { main: build(''), status: build('status'), scale: scaleFieldManager(o.now) };
}

/**
 * The Scale endpoint's manager: autoscaling/v1 Scale objects with deduced types, as kube's CRD
 * handler builds it (a Scale has no lists, so its field sets equal those of its schema).
 */
function scaleFieldManager(now: (() => Date) | undefined): FieldManager {
  const identity: ObjectConvertor = { convert: (obj) => obj };
  return newDefaultFieldManager({
    typeConverter: deducedTypeConverter,
    objectConverter: identity,
    apiVersion: 'autoscaling/v1',
    hubApiVersion: 'autoscaling/v1',
    kind: 'Scale',
    subresource: 'scale',
    ...(now !== undefined ? { now } : {}),
  });
}

/**
 * The kind's type converter over the schemas of every version of its group, built on first use
 * (a write or an apply) so installing a group costs no schema conversion at start.
 */
function kindTypeConverter(group: APIGroupDefinition, scheme: KindScheme, customResource: KindFieldManagerOptions['customResource']): TypeConverter {
  let byKind = typeConverters.get(group);
  if (byKind === undefined) typeConverters.set(group, (byKind = new Map()));
  const known = byKind.get(scheme.kind);
  if (known !== undefined) return known;
  let built: TypeConverter | undefined;
  const get = (): TypeConverter => {
    if (built !== undefined) return built;
    if (customResource === undefined) {
      // The kinds of apis/ are typed by their published OpenAPI definitions, as kube's type
      // converters are: they carry the list markers the validation schema leaves to a strategy.
      return (built = newTypeConverter(kindSchemas(group, scheme.kind), { preserveUnknownFields: false }));
    }
    const kinds: GVKSchema[] = [];
    for (const v of group.versions) {
      const r = v.resources.find((d) => d.kind === scheme.kind);
      if (r !== undefined) kinds.push({ apiVersion: scheme.apiVersion(v.name), kind: scheme.kind, schema: r.schema });
    }
    return (built = newTypeConverter(kinds, { preserveUnknownFields: customResource.preserveUnknownFields }));
  };
  const lazy: TypeConverter = { objectToTyped: (obj, opts) => get().objectToTyped(obj, opts), typedToObject: (v) => get().typedToObject(v) };
  byKind.set(scheme.kind, lazy);
  return lazy;
}

/** The reset fields of an endpoint in every version of the kind (the field manager filters by the version it merges in). */
function resetFieldsOf(group: APIGroupDefinition, scheme: KindScheme, names: readonly string[]): ReadonlyMap<string, FieldSet> | undefined {
  if (names.length === 0) return undefined;
  const out = new Map<string, FieldSet>();
  for (const v of group.versions) {
    if (v.resources.some((d) => d.kind === scheme.kind)) out.set(scheme.apiVersion(v.name), new FieldSet(...names.map((n) => makePath(n))));
  }
  return out;
}

/** Conversions of the kinds of apis/: the scheme converts between any two of its versions. */
function schemeObjectConvertor(scheme: KindScheme): ObjectConvertor {
  return {
    convert(obj: JSONObject, apiVersion: string): JSONObject {
      const version = scheme.versionOf(apiVersion);
      if (version === undefined) throw new NotRegisteredError(scheme.kind, apiVersion);
      return scheme.convert(obj as Parameters<KindScheme['convert']>[0], version) as JSONObject;
    },
  };
}
