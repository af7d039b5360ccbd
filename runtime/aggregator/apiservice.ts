import type { APIService, APIServiceCondition } from '../../apis/apiregistration/v1/types.js';
import type { DeepReadonly } from '../client/types.js';
import { formatTime } from '../registry/generic/index.js';
import { compareVersionsForDiscovery } from '../server/discovery/index.js';

/** The one APIService whose group is empty: the legacy core API under /api. */
export const LEGACY_API_SERVICE_NAME = 'v1.';

/** The condition type the availability controllers keep. */
export const AVAILABLE = 'Available';

/** The group the aggregator serves itself: never proxied, never auto-registered. */
export const APIREGISTRATION_GROUP = 'apiregistration.k8s.io';

/** What informers and listers hand out: shared and frozen. */
export type CachedAPIService = DeepReadonly<APIService>;

/** `<version>.<group>` (`v1.` for the core group). */
export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}

/** The group version an APIService name stands for (APIServiceNameToGroupVersion): split at the first dot. */
export function groupVersionOfName(name: string): { group: string; version: string } {
  const dot = name.indexOf('.');
  return dot < 0 ? { group: '', version: name } : { group: name.slice(dot + 1), version: name.slice(0, dot) };
}

/** The path the APIService owns: `/apis/<group>/<version>`, or `/api` for the legacy core group. */
export function proxyPath(name: string): string {
  if (name === LEGACY_API_SERVICE_NAME) return '/api';
  const gv = groupVersionOfName(name);
  return `/apis/${gv.group}/${gv.version}`;
}

/** No spec.service: served by this server's own chain. */
export function isLocal(svc: CachedAPIService): boolean {
  return svc.spec?.service === undefined || svc.spec.service === null;
}

export function availableCondition(svc: CachedAPIService): DeepReadonly<APIServiceCondition> | undefined {
  return svc.status?.conditions?.find((c) => c.type === AVAILABLE);
}

/** IsAPIServiceConditionTrue(svc, Available). */
export function isAvailable(svc: CachedAPIService): boolean {
  return availableCondition(svc)?.status === 'True';
}

/** A copy the caller may change (informer objects are frozen). */
export function mutableCopy(svc: CachedAPIService): APIService {
  return structuredClone(svc) as APIService;
}

/**
 * SetAPIServiceCondition on an APIService the caller owns: the condition is added when absent;
 * otherwise reason and message are replaced, and lastTransitionTime moves to `now` only when the
 * status changes. Mutates `svc`.
 */
export function setAvailableCondition(svc: APIService, condition: Omit<APIServiceCondition, 'type' | 'lastTransitionTime'>, now: Date): void {
  const conditions = ((svc.status ??= {}).conditions ??= []);
  const existing = conditions.find((c) => c.type === AVAILABLE);
  if (existing === undefined) {
    conditions.push({ type: AVAILABLE, ...condition, lastTransitionTime: formatTime(now) });
    return;
  }
  if (existing.status !== condition.status) {
    existing.status = condition.status;
    existing.lastTransitionTime = formatTime(now);
  }
  existing.reason = condition.reason;
  existing.message = condition.message;
}

/**
 * SortedByGroupAndVersion: APIServices grouped by group, groups ordered by groupPriorityMinimum
 * (highest first, then by name), versions within a group by versionPriority (highest first,
 * then kube-aware version order).
 */
export function sortedByGroupAndVersion(list: readonly CachedAPIService[]): CachedAPIService[][] {
  const byGroupPriority = [...list].sort((a, b) => (b.spec?.groupPriorityMinimum ?? 0) - (a.spec?.groupPriorityMinimum ?? 0) || compareStrings(a.metadata?.name ?? '', b.metadata?.name ?? ''));
  const groups = new Map<string, CachedAPIService[]>();
  for (const svc of byGroupPriority) {
    const group = svc.spec?.group ?? '';
    const members = groups.get(group);
    if (members === undefined) groups.set(group, [svc]);
    else members.push(svc);
  }
  return [...groups.values()].map((members) => members.sort(byVersionPriority));
}

function byVersionPriority(a: CachedAPIService, b: CachedAPIService): number {
  return (b.spec?.versionPriority ?? 0) - (a.spec?.versionPriority ?? 0) || compareVersionsForDiscovery(a.spec?.version ?? '', b.spec?.version ?? '');
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
