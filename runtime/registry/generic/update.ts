import { newBadRequest, newConflict, newInvalid, OPTIMISTIC_LOCK_ERROR_MSG, type GroupResource } from '../../apimachinery/errors/index.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import { deepCopyJSON, setField } from '../../apimachinery/serializer/jsonvalue.js';
import { apiObjectVersioner } from '../../storage/versioner.js';
import type { KubeObject, RequestContext } from '../rest.js';
import type { ResourceInfo } from './context.js';
import { metaOf, validateObjectMetaUpdate } from './objectMeta.js';
import { jsonEqual, nonMetadata } from './objects.js';

/** Which endpoint an update came through: the main resource or its /status subresource. */
export type UpdateTarget = 'main' | 'status';

/**
 * rest.BeforeUpdate: namespace checks, generation carried over (and bumped by the main
 * resource when anything outside metadata changed), the status rules of the target, the
 * strategy's preparation, system fields kept from `old`, validation (422), warnings and
 * canonicalization. Mutates obj, never old.
 */
export function beforeUpdate(info: ResourceInfo, ctx: Pick<RequestContext, 'namespace' | 'warn'>, obj: KubeObject, old: KubeObject, target: UpdateTarget): void {
  prepareUpdate(info, ctx, obj, old, target);
  const strategy = info.strategy;
  finishUpdate(info, ctx, obj, old, target, (target === 'status' ? strategy.status?.validateUpdate?.(obj, old) : strategy.validateUpdate?.(obj, old)) ?? []);
}

/** The first half of beforeUpdate, up to the system fields kept from `old`. */
export function prepareUpdate(info: ResourceInfo, ctx: Pick<RequestContext, 'namespace'>, obj: KubeObject, old: KubeObject, target: UpdateTarget): void {
  const meta = metaOf(obj);
  if (info.namespaced) {
    if (typeof meta.namespace !== 'string' || meta.namespace === '') meta.namespace = ctx.namespace;
    if (meta.namespace !== ctx.namespace) throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
  } else {
    delete meta.namespace;
  }
  const oldMeta = old.metadata ?? {};
  if (oldMeta.generation === undefined) delete meta.generation;
  else meta.generation = oldMeta.generation;

  const strategy = info.strategy;
  if (target === 'status') {
    prepareStatusUpdate(obj, old);
    strategy.status?.prepareForUpdate?.(obj, old);
  } else {
    prepareMainUpdate(info, obj, old);
    strategy.prepareForUpdate?.(obj, old);
  }
  keepSystemFields(obj, old);
}

/**
 * The second half of beforeUpdate: the ObjectMeta errors and `strategyErrors` (the target's
 * strategy validation of the prepared object, which the caller may have run in another
 * version) as one 422, then the target's warnings and canonicalization.
 */
export function finishUpdate(info: ResourceInfo, ctx: Pick<RequestContext, 'warn'>, obj: KubeObject, old: KubeObject, target: UpdateTarget, strategyErrors: readonly FieldError[]): void {
  const strategy = info.strategy;
  const errs = [...validateObjectMetaUpdate(metaOf(obj), old.metadata ?? {}, info.namespaced), ...strategyErrors];
  if (errs.length > 0) throw newInvalid(info.groupKind, String(metaOf(obj).name ?? ''), errs);
  const warnings = target === 'status' ? strategy.status?.warningsOnUpdate?.(obj, old) : strategy.warningsOnUpdate?.(obj, old);
  for (const w of warnings ?? []) ctx.warn(w);
  strategy.canonicalize?.(obj);
}

/** Main resource: status belongs to the subresource when there is one; generation follows non-metadata changes. */
function prepareMainUpdate(info: ResourceInfo, obj: KubeObject, old: KubeObject): void {
  if (info.hasStatus) keepStoredStatus(obj, old);
  if (!jsonEqual(nonMetadata(obj, false), nonMetadata(old, false))) {
    metaOf(obj).generation = (typeof old.metadata?.generation === 'number' ? old.metadata.generation : 0) + 1;
  }
}

/** The main resource of a kind with a /status subresource: status is the stored object's (none if it has none). */
export function keepStoredStatus(obj: KubeObject, old: KubeObject): void {
  if ('status' in old) obj.status = deepCopyJSON(old.status);
  else delete obj.status;
}

/** Status subresource: everything but status (and managedFields) comes from the stored object. */
export function prepareStatusUpdate(obj: KubeObject, old: KubeObject): void {
  const status = obj.status;
  const hasStatus = 'status' in obj;
  const managedFields = obj.metadata?.managedFields;
  for (const k of Object.keys(obj)) delete obj[k];
  // setField: Object.assign would turn a stored `__proto__` field into obj's prototype.
  for (const [k, v] of Object.entries(deepCopyJSON(old))) setField(obj, k, v);
  if (managedFields === undefined) delete metaOf(obj).managedFields;
  else metaOf(obj).managedFields = managedFields;
  if (hasStatus) obj.status = status;
  else delete obj.status;
}

/** uid defaults to the stored one; creation and deletion timestamps can never be changed by an update. */
function keepSystemFields(obj: KubeObject, old: KubeObject): void {
  const meta = metaOf(obj);
  const oldMeta = old.metadata ?? {};
  if (typeof meta.uid !== 'string' || meta.uid === '') {
    if (oldMeta.uid === undefined) delete meta.uid;
    else meta.uid = oldMeta.uid;
  }
  if (oldMeta.creationTimestamp !== undefined) meta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp !== undefined) meta.deletionTimestamp = oldMeta.deletionTimestamp;
  if (oldMeta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) {
    meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  }
}

/**
 * Store.Update's optimistic-concurrency check of the updated object against the stored one (both
 * in any version), made, as in kube, before rest.BeforeUpdate validates: a stale resourceVersion is
 * the 409 whatever else is wrong with the object. For the handlers, whose request-version
 * validation runs before the store's own check; no resourceVersion (an unconditional update) and
 * one that does not parse are left to the store.
 */
export function checkResourceVersionConflict(gr: GroupResource, name: string, obj: KubeObject, current: KubeObject): void {
  let rv: number;
  let currentRV: number;
  try {
    rv = apiObjectVersioner.objectResourceVersion(obj);
    currentRV = apiObjectVersioner.objectResourceVersion(current);
  } catch {
    return;
  }
  if (rv !== 0 && currentRV !== 0 && rv !== currentRV) throw newConflict(gr, name, OPTIMISTIC_LOCK_ERROR_MSG);
}

/** ShouldDeleteDuringUpdate: the update removed the last finalizer of an object being deleted (grace 0 or unset). */
export function shouldDeleteDuringUpdate(obj: KubeObject, old: KubeObject): boolean {
  const finalizers = obj.metadata?.finalizers;
  if (Array.isArray(finalizers) && finalizers.length > 0) return false;
  const oldMeta = old.metadata ?? {};
  if (oldMeta.deletionTimestamp === undefined || oldMeta.deletionTimestamp === null) return false;
  return oldMeta.deletionGracePeriodSeconds === undefined || oldMeta.deletionGracePeriodSeconds === null || oldMeta.deletionGracePeriodSeconds === 0;
}

/**
 * checkName: a PUT or patched body names the object of the URL; a namespace, when both have one,
 * too (400 otherwise). A body without a name is the namer's error (ContextBasedNaming.ObjectName:
 * "name must be provided"), reported as undeterminable.
 */
export function checkName(obj: KubeObject, name: string, namespace: string): void {
  const objName = typeof obj.metadata?.name === 'string' ? obj.metadata.name : '';
  if (objName === '') throw newBadRequest(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
  if (objName !== name) throw newBadRequest(`the name of the object (${objName}) does not match the name on the URL (${name})`);
  const objNamespace = typeof obj.metadata?.namespace === 'string' ? obj.metadata.namespace : '';
  if (namespace !== '' && objNamespace !== '' && objNamespace !== namespace) {
    throw newBadRequest(`the namespace of the object (${objNamespace}) does not match the namespace on the request (${namespace})`);
  }
}
