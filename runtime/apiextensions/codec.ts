import type { JSONSchemaProps } from '../../apis/apiextensions/v1/types.js';
import { prune } from '../apimachinery/schema/index.js';
import { canonicalJSON, deepCopyJSON } from '../apimachinery/serializer/jsonvalue.js';
import type { KindScheme } from '../apimachinery/scheme/scheme.js';
import type { MaybePromise, ObjectCodec } from '../endpoints/handlers/scope.js';
import type { KubeObject } from '../registry/rest.js';
import { deepFreeze } from '../apimachinery/object.js';
import type { CRConverter } from './conversion/converter.js';
import { NotRegisteredError, type ObjectConvertor } from '../apimachinery/managedfields/versionconverter.js';
import type { JSONObject } from '../apimachinery/serializer/jsonvalue.js';

/**
 * The codec of one version of a custom resource (kube's safe converter behind the CRD's
 * per-version storage): objects move between the request version and the storage version
 * (the hub) through the CRD's converter, and whatever the conversion produced that the
 * target version's schema does not know is pruned (schemaCoercingConverter). Frozen objects
 * of the watch cache are converted once per version, shared (in flight too), and dropped from
 * the cache when a conversion fails so the next read tries again.
 */
export function customResourceCodec(scheme: KindScheme, version: string, converter: CRConverter): ObjectCodec {
  const hub = scheme.hubVersion;
  const apiVersion = scheme.apiVersion(version);
  const base = { apiVersion, kind: scheme.kind, scheme };
  if (version === hub) {
    // The request version is the storage version: nothing to convert, reads share the stored objects.
    return {
      ...base,
      toHub: (obj) => obj,
      fromHub: (obj) => obj,
      fromHubShared: (obj) => obj,
      fromHubSharedList: (objs) => [...objs],
    };
  }
  const toHubSchema = pruner(scheme, hub, version);
  const fromHubSchema = pruner(scheme, version, hub);
  const convert = (objs: readonly KubeObject[], to: string, schema: JSONSchemaProps | undefined): MaybePromise<KubeObject[]> => {
    const out = converter.convert(objs, to);
    const finish = (converted: KubeObject[]): KubeObject[] => (schema === undefined ? converted : converted.map((o) => pruned(o, schema)));
    return out instanceof Promise ? out.then(finish) : finish(out);
  };
  const one = (obj: KubeObject, to: string, schema: JSONSchemaProps | undefined): MaybePromise<KubeObject> => {
    const out = convert([obj], to, schema);
    return out instanceof Promise ? out.then((o) => o[0] as KubeObject) : (out[0] as KubeObject);
  };
  const shared = new SharedConversions((objs) => convert(objs, version, fromHubSchema));
  return {
    ...base,
    toHub: (obj) => one(obj, hub, toHubSchema),
    fromHub: (obj) => one(obj, version, fromHubSchema),
    fromHubShared: (obj) => (Object.isFrozen(obj) ? shared.one(obj) : one(obj, version, fromHubSchema)),
    fromHubSharedList: (objs) => shared.many(objs),
  };
}

/**
 * Conversions between any two versions of a custom resource for its field managers (kube hands
 * them the CRD's safe converter): the CRD's converter, then pruning by the target version's
 * schema when it differs from the source version's.
 */
export function customResourceObjectConvertor(scheme: KindScheme, converter: CRConverter): ObjectConvertor {
  return {
    convert(obj, apiVersion) {
      const to = scheme.versionOf(apiVersion);
      if (to === undefined) throw new NotRegisteredError(scheme.kind, apiVersion);
      const from = typeof obj['apiVersion'] === 'string' ? scheme.versionOf(obj['apiVersion']) : undefined;
      if (from === to) return obj;
      const schema = from === undefined ? scheme.resource(to).schema : pruner(scheme, to, from);
      const out = converter.convert([obj as KubeObject], to);
      const finish = (converted: KubeObject[]): JSONObject => {
        const first = converted[0] as KubeObject;
        return schema === undefined ? first : pruned(first, schema);
      };
      return out instanceof Promise ? out.then(finish) : finish(out);
    },
  };
}

/**
 * The schema to prune converted objects with, going from version `from` to `to`; undefined
 * when both versions have the same schema (nothing the conversion kept can be unknown).
 */
function pruner(scheme: KindScheme, to: string, from: string): JSONSchemaProps | undefined {
  const target = scheme.resource(to).schema;
  return canonicalJSON(target) === canonicalJSON(scheme.resource(from).schema) ? undefined : target;
}

/** A pruned deep copy: converted objects may share nested values with frozen originals. */
function pruned(obj: KubeObject, schema: JSONSchemaProps): KubeObject {
  const copy = deepCopyJSON(obj);
  prune(copy, schema, { isResourceRoot: true });
  return copy;
}

/** Conversions of frozen (shared) objects to one version, remembered per object. */
class SharedConversions {
  private readonly done = new WeakMap<object, KubeObject>();
  private readonly inFlight = new WeakMap<object, Promise<KubeObject>>();

  constructor(private readonly convert: (objs: readonly KubeObject[]) => MaybePromise<KubeObject[]>) {}

  one(obj: KubeObject): MaybePromise<KubeObject> {
    const known = this.done.get(obj) ?? this.inFlight.get(obj);
    if (known !== undefined) return known;
    const out = this.many([obj]);
    return out instanceof Promise ? out.then((o) => o[0] as KubeObject) : (out[0] as KubeObject);
  }

  /** Converts what is not known yet in one call; non-frozen objects are converted every time. */
  many(objs: readonly KubeObject[]): MaybePromise<KubeObject[]> {
    const known = objs.map((o) => this.done.get(o) ?? this.inFlight.get(o));
    const missingAt: number[] = [];
    known.forEach((k, i) => {
      if (k === undefined) missingAt.push(i);
    });
    const missing = missingAt.map((i) => objs[i] as KubeObject);
    const converted = missing.length === 0 ? [] : this.convert(missing);
    if (!(converted instanceof Promise) && !known.some((k) => k instanceof Promise)) {
      const out = known as KubeObject[];
      missingAt.forEach((i, j) => (out[i] = this.remember(missing[j] as KubeObject, converted[j] as KubeObject)));
      return out;
    }
    const batch = Promise.resolve(converted).then((list) => list.map((c, j) => this.remember(missing[j] as KubeObject, c)));
    const position = new Map<number, number>(missingAt.map((i, j) => [i, j]));
    missing.forEach((o, j) => {
      if (!Object.isFrozen(o)) return;
      const p = batch.then((list) => list[j] as KubeObject);
      p.catch(() => this.inFlight.delete(o));
      this.inFlight.set(o, p);
    });
    return Promise.all(objs.map((_, i) => known[i] ?? batch.then((list) => list[position.get(i) as number] as KubeObject)));
  }

  private remember(original: KubeObject, converted: KubeObject): KubeObject {
    if (!Object.isFrozen(original)) return converted;
    const frozen = deepFreeze(converted);
    this.done.set(original, frozen);
    this.inFlight.delete(original);
    return frozen;
  }
}
