import type { CustomResourceDefinition, CustomResourceDefinitionCondition } from '../../../apis/apiextensions/v1/types.js';
import type { DeepReadonly } from '../../client/types.js';
import { formatTime } from '../../registry/generic/index.js';

/** The condition types of a CRD's status (apiextensions/v1 CustomResourceDefinitionConditionType). */
export const ESTABLISHED = 'Established';
export const NAMES_ACCEPTED = 'NamesAccepted';
export const NON_STRUCTURAL_SCHEMA = 'NonStructuralSchema';
export const TERMINATING = 'Terminating';

/** The finalizer that holds a deleted CRD until its custom resources are gone. */
export const CUSTOM_RESOURCE_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

type CRD = DeepReadonly<CustomResourceDefinition>;
type Condition = DeepReadonly<CustomResourceDefinitionCondition>;

/** The condition of `type`, or undefined. */
export function findCondition(crd: CRD, type: string): Condition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

/** Whether the condition of `type` is present with status True. */
export function isConditionTrue(crd: CRD, type: string): boolean {
  return findCondition(crd, type)?.status === 'True';
}

/** Same status, reason and message (lastTransitionTime aside): IsCRDConditionEquivalent. */
export function conditionEquivalent(a: Condition | undefined, b: Condition | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.type === b.type && a.status === b.status && a.reason === b.reason && a.message === b.message;
}

/**
 * Sets a condition on a CRD the caller owns (SetCRDCondition): added when absent; otherwise
 * status, reason and message replaced, lastTransitionTime moved to `now` only when the status
 * changes. Mutates `crd`.
 */
export function setCondition(crd: CustomResourceDefinition, condition: CustomResourceDefinitionCondition, now: Date): void {
  const status = (crd.status ??= {});
  const conditions = (status.conditions ??= []);
  const i = conditions.findIndex((c) => c.type === condition.type);
  const existing = conditions[i];
  if (existing === undefined) {
    conditions.push({ ...condition, lastTransitionTime: condition.lastTransitionTime ?? formatTime(now) });
    return;
  }
  const lastTransitionTime = existing.status !== condition.status ? (condition.lastTransitionTime ?? formatTime(now)) : existing.lastTransitionTime;
  conditions[i] = { ...condition, ...(lastTransitionTime !== undefined ? { lastTransitionTime } : {}) };
}

/** Removes the condition of `type` from a CRD the caller owns; the list is a new one, never null (RemoveCRDCondition). Mutates `crd`. */
export function removeCondition(crd: CustomResourceDefinition, type: string): void {
  const status = (crd.status ??= {});
  status.conditions = (status.conditions ?? []).filter((c) => c.type !== type);
}

export function hasFinalizer(crd: CRD, finalizer: string): boolean {
  return crd.metadata?.finalizers?.includes(finalizer) ?? false;
}

export function isBeingDeleted(crd: CRD): boolean {
  const ts = crd.metadata?.deletionTimestamp;
  return ts !== undefined && ts !== null && ts !== '';
}

/** A mutable copy of a cached (frozen) CRD. */
export function mutableCopy(crd: CRD): CustomResourceDefinition {
  return structuredClone(crd) as CustomResourceDefinition;
}

/** The CRD's key in informers and work queues: its name (CRDs are cluster-scoped). */
export function crdKey(crd: CRD): string {
  return crd.metadata?.name ?? '';
}
