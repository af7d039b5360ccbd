import { newBadRequest, newConflict, OPTIMISTIC_LOCK_ERROR_MSG, toStatusError, type GroupKind, type GroupResource } from '../../apimachinery/errors/index.js';
import type { ResourceInfo } from '../../registry/generic/context.js';
import { beforeCreate, fillSystemFields } from '../../registry/generic/create.js';
import { checkDeletePreconditions, deletionFinalizers, markAsDeleting } from '../../registry/generic/delete.js';
import type { RandomIntFunc } from '../../registry/generic/names.js';
import { finalizersOf, metaOf } from '../../registry/generic/objectMeta.js';
import { beforeUpdate, checkName, type UpdateTarget } from '../../registry/generic/update.js';
import type { DeleteOptions, KubeObject } from '../../registry/rest.js';
import { ResourceVersionSetOnCreateError } from '../../storage/errors.js';
import { apiVersionOf, type FakeResource } from './resources.js';

/**
 * The object preparation of a write, as the generic registry store does it:
 * these call the registry's own BeforeCreate/BeforeUpdate and deletion
 * helpers (with an empty strategy, so ObjectMeta rules only), so the fake
 * and the server cannot drift apart. Every function works on copies.
 */

export function groupResource(r: FakeResource): GroupResource {
  return { group: r.descriptor.group, resource: r.descriptor.resource };
}

export function groupKind(r: FakeResource): GroupKind {
  return { group: r.descriptor.group, kind: r.descriptor.kind };
}

export function resourceInfo(r: FakeResource, now: () => Date): ResourceInfo {
  return {
    groupResource: groupResource(r),
    groupKind: groupKind(r),
    namespaced: r.descriptor.namespaced,
    hasStatus: r.subresources?.status === true,
    strategy: {},
    now,
  };
}

/** A request body as the server would decode it: a JSON copy (undefined fields dropped), an object. */
export function decodeBody(body: unknown): KubeObject {
  const text = JSON.stringify(body) ?? 'null';
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw newBadRequest(`Object 'Kind' is missing in '${text.slice(0, 1024)}'`);
  }
  return value as KubeObject;
}

/** apiVersion and kind default to the resource's; others are a 400, as the server's decoder answers. */
export function checkTypeMeta(r: FakeResource, obj: KubeObject): void {
  const expected = apiVersionOf(r.descriptor);
  const apiVersion = typeof obj.apiVersion === 'string' && obj.apiVersion !== '' ? obj.apiVersion : expected;
  const kind = typeof obj.kind === 'string' && obj.kind !== '' ? obj.kind : r.descriptor.kind;
  if (apiVersion !== expected) {
    throw newBadRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${expected})`);
  }
  if (kind !== r.descriptor.kind) {
    throw newBadRequest(`the kind in the data (${kind}) does not match the expected kind (${r.descriptor.kind})`);
  }
  obj.apiVersion = apiVersion;
  obj.kind = kind;
}

const ignoreWarnings = (): void => {};

/** The object a create stores (without resourceVersion): system fields, generated name, ObjectMeta validation. */
export function prepareCreate(info: ResourceInfo, r: FakeResource, namespace: string, body: unknown, random: RandomIntFunc): KubeObject {
  const obj = decodeBody(body);
  checkTypeMeta(r, obj);
  fillSystemFields(obj, info.now, random);
  beforeCreate(info, { namespace, warn: ignoreWarnings }, obj);
  const rv = obj.metadata?.resourceVersion;
  if (rv !== undefined && rv !== '') throw toStatusError(new ResourceVersionSetOnCreateError());
  return obj;
}

/**
 * The object an update (or the update behind a patch) stores: name and
 * namespace must match the URL (400), the body's uid and resourceVersion are
 * preconditions (409), an empty resourceVersion is unconditional, then the
 * registry's BeforeUpdate for the main resource or /status.
 */
export function prepareUpdate(info: ResourceInfo, r: FakeResource, namespace: string, name: string, body: unknown, old: KubeObject, target: UpdateTarget): KubeObject {
  const obj = decodeBody(body);
  checkTypeMeta(r, obj);
  checkName(obj, name, namespace);
  const meta = metaOf(obj);
  const oldMeta = old.metadata ?? {};
  if (typeof meta.uid === 'string' && meta.uid !== '' && meta.uid !== oldMeta.uid) {
    throw newConflict(info.groupResource, name, `Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${oldMeta.uid ?? ''}`);
  }
  if (meta.resourceVersion === undefined || meta.resourceVersion === '') meta.resourceVersion = oldMeta.resourceVersion;
  else if (meta.resourceVersion !== oldMeta.resourceVersion) throw newConflict(info.groupResource, name, OPTIMISTIC_LOCK_ERROR_MSG);
  beforeUpdate(info, { namespace, warn: ignoreWarnings }, obj, old, target);
  return obj;
}

/** What a delete does to a stored object: remove it now, or keep it marked as deleting. */
export type DeleteDecision = { readonly action: 'delete' } | { readonly action: 'keep'; readonly object: KubeObject };

/**
 * The registry store's delete: preconditions (409), the garbage collector's
 * finalizers the options ask for, and, while finalizers remain,
 * deletionTimestamp instead of removal.
 */
export function decideDelete(info: ResourceInfo, current: KubeObject, opts: DeleteOptions): DeleteDecision {
  checkDeletePreconditions(info.groupKind, current, opts);
  const gc = deletionFinalizers(info.strategy.defaultGarbageCollectionPolicy, current, opts);
  if (finalizersOf(current).length === 0 && !gc.changed) return { action: 'delete' };
  const obj = structuredClone(current);
  if (gc.changed) {
    if (gc.finalizers.length === 0) delete metaOf(obj).finalizers;
    else metaOf(obj).finalizers = gc.finalizers;
  }
  if (finalizersOf(obj).length === 0) return { action: 'delete' };
  markAsDeleting(obj, info.now());
  return { action: 'keep', object: obj };
}

/** DeleteOptions from a request body (meta/v1 DeleteOptions) and the dryRun query parameter. */
export function deleteOptionsFrom(body: unknown, dryRunQuery: unknown): DeleteOptions {
  const o = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const pre = o['preconditions'] as { uid?: unknown; resourceVersion?: unknown } | undefined;
  const preconditions =
    pre === undefined || pre === null
      ? undefined
      : {
          ...(typeof pre.uid === 'string' ? { uid: pre.uid } : {}),
          ...(typeof pre.resourceVersion === 'string' ? { resourceVersion: pre.resourceVersion } : {}),
        };
  const dryRunBody = Array.isArray(o['dryRun']) && (o['dryRun'] as unknown[]).includes('All');
  return {
    dryRun: dryRunBody || dryRunQuery === 'All',
    gracePeriodSeconds: typeof o['gracePeriodSeconds'] === 'number' ? o['gracePeriodSeconds'] : undefined,
    preconditions,
    propagationPolicy: typeof o['propagationPolicy'] === 'string' ? (o['propagationPolicy'] as DeleteOptions['propagationPolicy']) : undefined,
    orphanDependents: typeof o['orphanDependents'] === 'boolean' ? o['orphanDependents'] : undefined,
  };
}
