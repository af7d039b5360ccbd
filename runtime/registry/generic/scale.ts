import type { Scale } from '../../../apis/autoscaling/v1/types.js';
import type { ManagedFieldsEntry } from '../../../apis/meta/v1/types.js';
import { newBadRequest, newInternalError, newInvalid, newNotFound } from '../../apimachinery/errors/index.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import type { Getter, KubeObject, RequestContext, UpdatedObjectInfo, UpdateValidation, Updater, ValidateObjectFunc, WriteOptions } from '../rest.js';
import type { ResourceDefinition } from '../../apimachinery/definition/resource.js';
import { selectableFieldName } from './predicate.js';
import type { Store } from './store.js';
import { HUB_VIEW, type VersionView } from './view.js';
import { deepCopyJSON, hasField, isJSONObject, ownField, setField } from '../../apimachinery/serializer/jsonvalue.js';
import { ScaleHandler, type ResourcePathMappings } from '../../apimachinery/managedfields/scalehandler.js';
import { makePath } from '../../apimachinery/structuredmerge/fieldpath/index.js';
import type { APIGroupDefinition } from '../types.js';

type ScalePaths = NonNullable<ResourceDefinition['subresources']['scale']>;

/** Marks a Scale built from an object without spec replicas (kube: the smallest int32). */
const invalidSpecReplicas = -2147483648;

function segments(path: string): string[] {
  return selectableFieldName(path).split('.');
}

/** unstructured.NestedFieldNoCopy over a `.a.b` path. */
function nested(obj: unknown, path: string): { value: unknown; found: boolean } {
  let cur: unknown = obj;
  for (const seg of segments(path)) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !hasField(cur, seg)) return { value: undefined, found: false };
    cur = ownField(cur, seg);
  }
  return { value: cur, found: true };
}

function nestedInt(obj: unknown, path: string): { value: number; found: boolean } {
  const { value, found } = nested(obj, path);
  if (!found) return { value: 0, found: false };
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw newBadRequest(`${path} accessor error: ${JSON.stringify(value)} is of the type ${value === null ? 'null' : typeof value}, expected int64`);
  }
  return { value, found: true };
}

export function setNested(obj: Record<string, unknown>, path: string, value: unknown): void {
  const segs = segments(path);
  let cur = obj;
  for (const seg of segs.slice(0, -1)) {
    const next = ownField(cur, seg);
    const child: Record<string, unknown> = isJSONObject(next) ? next : {};
    if (child !== next) setField(cur, seg, child);
    cur = child;
  }
  setField(cur, segs[segs.length - 1] as string, value);
}

/** scaleFromCustomResource: the autoscaling/v1 Scale view of an object; `found` tells whether spec replicas exist. */
export function scaleFromObject(obj: KubeObject, paths: ScalePaths): { scale: Scale; found: boolean } {
  const spec = nestedInt(obj, paths.specReplicasPath);
  const status = nestedInt(obj, paths.statusReplicasPath);
  let selector = '';
  if (paths.labelSelectorPath !== undefined && paths.labelSelectorPath !== '') {
    const s = nested(obj, paths.labelSelectorPath).value;
    if (typeof s === 'string') selector = s;
  }
  const meta = obj.metadata ?? {};
  const metadata: NonNullable<Scale['metadata']> = {};
  for (const k of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp'] as const) {
    if (meta[k] !== undefined) (metadata as Record<string, unknown>)[k] = meta[k];
  }
  const scale: Scale = {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: { replicas: spec.value },
    status: selector === '' ? { replicas: status.value } : { replicas: status.value, selector },
  };
  return { scale, found: spec.found };
}

export function validateScale(scale: Scale): FieldError[] {
  const r = scale.spec?.replicas;
  if (r === undefined) return [];
  if (typeof r !== 'number' || !Number.isInteger(r)) return [{ type: 'FieldValueInvalid', field: 'spec.replicas', badValue: r, detail: 'must be an integer' }];
  return r < 0 ? [{ type: 'FieldValueInvalid', field: 'spec.replicas', badValue: r, detail: 'must be greater than or equal to 0' }] : [];
}

/**
 * The spec replicas path of a kind in each version of its group (null where a version has no
 * scale subresource): how the Scale's ownership of `spec.replicas` maps onto the resource's.
 */
export function replicasPathMappings(group: APIGroupDefinition, kind: string): ResourcePathMappings {
  const out = new Map<string, ReturnType<typeof makePath> | null>();
  for (const v of group.versions) {
    const r = v.resources.find((d) => d.kind === kind);
    if (r === undefined) continue;
    const apiVersion = group.name === '' ? v.name : `${group.name}/${v.name}`;
    const scale = r.subresources.scale;
    out.set(apiVersion, scale === undefined ? null : makePath(...segments(scale.specReplicasPath)));
  }
  return out;
}

/** The version whose replica paths a scale endpoint reads (a custom resource version: kube's ScaleREST reads the object in its own version). */
export type ScaleObjectView = VersionView;

/**
 * The /scale subresource (apiextensions' ScaleREST): reads and writes autoscaling/v1 Scale
 * objects over the main store, at the replica paths of the version `view` reaches. Updates
 * write spec replicas into the object through the main update path, with the Scale's
 * resourceVersion as precondition; admission sees Scales.
 */
export class ScaleStore implements Getter, Updater {
  private readonly view: ScaleObjectView;
  private readonly replicasPaths: ResourcePathMappings | undefined;
  private readonly validatesScale: boolean;

  constructor(
    private readonly store: Store,
    private readonly paths: ScalePaths,
    opts: {
      readonly versionView?: ScaleObjectView | undefined;
      /** Where managedFields of the Scale map onto the resource; without it the Scale has none. */
      readonly replicasPaths?: ResourcePathMappings;
      /** See ResourceStorageOptions.validateScale. Default true. */
      readonly validateScale?: boolean;
    } = {},
  ) {
    this.view = opts.versionView ?? HUB_VIEW;
    this.replicasPaths = opts.replicasPaths;
    this.validatesScale = opts.validateScale ?? true;
  }

  async get(ctx: RequestContext, name: string, opts: { resourceVersion: string }): Promise<KubeObject> {
    const obj = await this.view.fromHub(await this.store.get(ctx, name, opts));
    const { scale, found } = scaleFromObject(obj, this.paths);
    if (!found) throw newInternalError(new Error(`the spec replicas field ${JSON.stringify(this.paths.specReplicasPath)} does not exist`));
    return scale as KubeObject;
  }

  async update(
    ctx: RequestContext,
    name: string,
    objInfo: UpdatedObjectInfo,
    validate: UpdateValidation,
    opts: WriteOptions & { forceAllowCreate: boolean },
  ): Promise<{ object: KubeObject; created: boolean }> {
    const { paths, view, replicasPaths, validatesScale } = this;
    const gr = this.store.groupResource;
    const wrapped: UpdatedObjectInfo = {
      preconditions: () => objInfo.preconditions(),
      async updatedObject(c, old) {
        if (old === undefined) throw newNotFound(gr, name);
        const obj = deepCopyJSON(await view.fromHub(old));
        const { scale: oldScale, found } = scaleFromObject(obj, paths);
        if (!found && oldScale.spec) oldScale.spec.replicas = invalidSpecReplicas;
        // The Scale carries the resource's ownership of the replicas as its own managedFields, and
        // what the scale endpoint records goes back to the resource (kube's scale handler).
        const managed =
          replicasPaths === undefined ? undefined : new ScaleHandler(obj.metadata?.managedFields as readonly ManagedFieldsEntry[] | undefined, String(obj.apiVersion ?? ''), replicasPaths);
        const subresourceFields = managed?.toSubresource() ?? [];
        if (subresourceFields.length > 0) (oldScale.metadata ??= {}).managedFields = subresourceFields;
        const scale = (await objInfo.updatedObject(c, oldScale as KubeObject)) as Scale;
        const replicas = scale.spec?.replicas ?? 0;
        if (replicas === invalidSpecReplicas) {
          throw newBadRequest(`the spec replicas field ${JSON.stringify(paths.specReplicasPath)} cannot be empty`);
        }
        // apiextensions' ScaleREST does not validate the Scale: its replicas (an int32, the body
        // decoded as a typed Scale) land in the object, whose validation judges them, named by the
        // resource's kind (its schema's minimum, the strategy's scale check, its rules).
        if (validatesScale) {
          const errs = validateScale(scale);
          if (errs.length > 0) throw newInvalid({ group: 'autoscaling', kind: 'Scale' }, name, errs);
        }
        setNested(obj, paths.specReplicasPath, replicas);
        if (managed !== undefined) {
          const parentFields = managed.toParent(scale.metadata?.managedFields);
          if (parentFields.length > 0) obj.metadata = { ...obj.metadata, managedFields: parentFields };
          else if (obj.metadata !== undefined) delete obj.metadata.managedFields;
        }
        const rv = scale.metadata?.resourceVersion;
        if (typeof rv === 'string' && rv !== '') obj.metadata = { ...obj.metadata, resourceVersion: rv };
        const hub = await view.toHub(obj);
        await validate.resource?.(hub, old);
        return hub;
      },
    };
    const scaleOf = async (hub: KubeObject): Promise<KubeObject> => scaleFromObject(await view.fromHub(hub), paths).scale as KubeObject;
    const asScale =
      (f: ValidateObjectFunc): ValidateObjectFunc =>
      async (obj, old) =>
        f(await scaleOf(obj), old === undefined ? undefined : await scaleOf(old));
    const r = await this.store.update(ctx, name, wrapped, { create: asScale(validate.create), update: asScale(validate.update) }, { ...opts, forceAllowCreate: false });
    return { object: await scaleOf(r.object), created: false };
  }
}
