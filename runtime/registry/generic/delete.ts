import { newConflict, type GroupKind } from '../../apimachinery/errors/index.js';
import type { DeleteOptions, KubeObject } from '../rest.js';
import type { RESTStrategy } from '../../apimachinery/definition/strategy.js';
import { formatTime } from './context.js';
import { finalizersOf, metaOf } from './objectMeta.js';

export const finalizerOrphanDependents = 'orphan';
export const finalizerDeleteDependents = 'foregroundDeletion';

/**
 * rest.BeforeDelete's early precondition check, with kube's wording; kube names the resource
 * by its Kind here (`Operation cannot be fulfilled on APIService.apiregistration.k8s.io "x": …`).
 * Storage checks the same preconditions again at the write.
 */
export function checkDeletePreconditions(groupKind: GroupKind, obj: KubeObject, opts: Pick<DeleteOptions, 'preconditions'>): void {
  const p = opts.preconditions;
  if (p === undefined) return;
  const gr = { group: groupKind.group, resource: groupKind.kind };
  const name = String(obj.metadata?.name ?? '');
  const uid = String(obj.metadata?.uid ?? '');
  const rv = String(obj.metadata?.resourceVersion ?? '');
  if (p.uid !== undefined && p.uid !== uid) {
    throw newConflict(gr, name, `the UID in the precondition (${p.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`);
  }
  if (p.resourceVersion !== undefined && p.resourceVersion !== rv) {
    throw newConflict(gr, name, `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${rv}). The object might have been modified`);
  }
}

type GCPolicy = RESTStrategy<never>['defaultGarbageCollectionPolicy'];

function shouldOrphan(policy: GCPolicy, finalizers: readonly string[], opts: DeleteOptions): boolean {
  if (policy === 'Unsupported') return false;
  if (opts.orphanDependents !== undefined) return opts.orphanDependents;
  if (opts.propagationPolicy !== undefined) return opts.propagationPolicy === 'Orphan';
  for (const f of finalizers) {
    if (f === finalizerOrphanDependents) return true;
    if (f === finalizerDeleteDependents) return false;
  }
  return policy === 'OrphanDependents';
}

function shouldDeleteDependents(policy: GCPolicy, finalizers: readonly string[], opts: DeleteOptions): boolean {
  if (policy === 'Unsupported') return false;
  if (opts.orphanDependents !== undefined) return false;
  if (opts.propagationPolicy !== undefined) return opts.propagationPolicy === 'Foreground';
  for (const f of finalizers) {
    if (f === finalizerDeleteDependents) return true;
    if (f === finalizerOrphanDependents) return false;
  }
  return false;
}

/**
 * deletionFinalizersForGarbageCollection: the finalizers the garbage collector needs for this
 * delete (orphan / foregroundDeletion as the options or the object ask), and whether they
 * differ (as a set) from the object's.
 */
export function deletionFinalizers(policy: GCPolicy, obj: KubeObject, opts: DeleteOptions): { changed: boolean; finalizers: string[] } {
  const current = finalizersOf(obj);
  const next = current.filter((f) => f !== finalizerOrphanDependents && f !== finalizerDeleteDependents);
  if (shouldOrphan(policy, current, opts)) next.push(finalizerOrphanDependents);
  if (shouldDeleteDependents(policy, current, opts)) next.push(finalizerDeleteDependents);
  const a = new Set(current);
  const b = new Set(next);
  const changed = a.size !== b.size || [...a].some((f) => !b.has(f));
  return { changed, finalizers: changed ? next : [...current] };
}

/**
 * markAsDeleting: deletionTimestamp now (kept when already set and not in the future),
 * deletionGracePeriodSeconds 0, generation bumped on the first deletion. Mutates obj.
 */
export function markAsDeleting(obj: KubeObject, now: Date): void {
  const meta = metaOf(obj);
  const existing = typeof meta.deletionTimestamp === 'string' ? Date.parse(meta.deletionTimestamp) : Number.NaN;
  if (Number.isNaN(existing) && typeof meta.generation === 'number' && meta.generation > 0) meta.generation += 1;
  if (Number.isNaN(existing) || existing > now.getTime()) meta.deletionTimestamp = formatTime(now);
  meta.deletionGracePeriodSeconds = 0;
}
