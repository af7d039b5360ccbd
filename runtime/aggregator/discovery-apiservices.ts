import type { APIService } from '../../apis/apiregistration/v1/types.js';
import type { DeepReadonly } from '../client/index.js';
import type { GroupVersionPriorities, GroupVersionPriority } from '../server/discovery/index.js';

/** An APIService as informers hand it out. */
export type CachedAPIService = DeepReadonly<APIService>;

/** kube's port when spec.service.port is unset. */
export const DEFAULT_SERVICE_PORT = 443;

/** The group and version an APIService is named for (`<version>.<group>`; `v1.` is the core group). */
export function apiServiceGroupVersion(name: string): { group: string; version: string } {
  const dot = name.indexOf('.');
  return dot < 0 ? { group: '', version: name } : { group: name.slice(dot + 1), version: name.slice(0, dot) };
}

/** Served by this process (no spec.service). */
export function isLocalAPIService(s: CachedAPIService): boolean {
  return s.spec?.service === undefined || s.spec.service === null;
}

/**
 * The Available condition's status; 'Unknown' while no availability check has reported
 * (the condition is absent).
 */
export function availability(s: CachedAPIService): 'True' | 'False' | 'Unknown' {
  return s.status?.conditions?.find((c) => c.type === 'Available')?.status ?? 'Unknown';
}

/**
 * The backend an APIService points at (kube's serviceKey): APIServices naming the same Service
 * port share one download of its discovery.
 */
export function serviceKey(s: CachedAPIService): string | undefined {
  const svc = s.spec?.service;
  if (svc === undefined || svc === null) return undefined;
  return `${svc.namespace ?? ''}/${svc.name ?? ''}:${svc.port ?? DEFAULT_SERVICE_PORT}`;
}

export function apiServicePriority(s: CachedAPIService): GroupVersionPriority {
  return { groupPriorityMinimum: s.spec?.groupPriorityMinimum ?? 0, versionPriority: s.spec?.versionPriority ?? 0 };
}

/** The aggregator's own group: kube-aggregator lists it first whatever APIServices say. */
const AGGREGATOR_GROUP = 'apiregistration.k8s.io';

/**
 * The discovery order kube derives from APIService objects (apiregistration's
 * SortedByGroupAndVersion), as priority overrides for the DiscoveryManager: one entry per
 * APIService, keyed by the group version of its spec. apiregistration.k8s.io keeps the place
 * the aggregator gives it (first).
 */
export function priorityTable(apiServices: readonly CachedAPIService[]): GroupVersionPriorities {
  const table = new Map<string, GroupVersionPriority>();
  const sorted = [...apiServices].sort((a, b) => compareNames(a.metadata?.name ?? '', b.metadata?.name ?? ''));
  for (const s of sorted) {
    if (s.spec === undefined || s.spec.group === AGGREGATOR_GROUP) continue;
    table.set(`${s.spec.group ?? ''}/${s.spec.version ?? ''}`, apiServicePriority(s));
  }
  return table;
}

/**
 * kube-aggregator's OpenAPI merge order of service-backed APIServices (its byPriority): groups
 * by their highest groupPriorityMinimum, higher first; in one group by versionPriority, higher
 * first; then by name.
 */
export function compareForOpenAPIMerge(all: readonly CachedAPIService[]): (a: CachedAPIService, b: CachedAPIService) => number {
  const groupPriority = new Map<string, number>();
  for (const s of all) {
    const g = s.spec?.group ?? '';
    groupPriority.set(g, Math.max(groupPriority.get(g) ?? 0, s.spec?.groupPriorityMinimum ?? 0));
  }
  return (a, b) => {
    const ga = a.spec?.group ?? '';
    const gb = b.spec?.group ?? '';
    const pa = ga === gb ? (a.spec?.versionPriority ?? 0) : (groupPriority.get(ga) ?? 0);
    const pb = ga === gb ? (b.spec?.versionPriority ?? 0) : (groupPriority.get(gb) ?? 0);
    return pb - pa || compareNames(a.metadata?.name ?? '', b.metadata?.name ?? '');
  };
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
