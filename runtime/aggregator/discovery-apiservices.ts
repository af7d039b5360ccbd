import type { GroupVersionPriorities, GroupVersionPriority } from '../server/discovery/index.js';
import type { AggregatedAPIService } from './discovery-backend.js';

/** The aggregator's own group: kube-aggregator lists it first whatever APIServices say. */
const AGGREGATOR_GROUP = 'apiregistration.k8s.io';

/**
 * The backend an APIService points at (kube's serviceKey): APIServices naming the same Service
 * port share one download of its discovery. Undefined for local APIServices.
 */
export function serviceKey(s: AggregatedAPIService): string | undefined {
  return s.service === undefined ? undefined : `${s.service.namespace}/${s.service.name}:${s.service.port}`;
}

export function apiServicePriority(s: AggregatedAPIService): GroupVersionPriority {
  return { groupPriorityMinimum: s.groupPriorityMinimum, versionPriority: s.versionPriority };
}

/**
 * The discovery order kube derives from APIService objects (apiregistration's
 * SortedByGroupAndVersion), as priority overrides for the DiscoveryManager: one entry per
 * APIService, keyed `<group>/<version>`. apiregistration.k8s.io keeps the place the aggregator
 * gives it (first).
 */
export function priorityTable(apiServices: readonly AggregatedAPIService[]): GroupVersionPriorities {
  const table = new Map<string, GroupVersionPriority>();
  for (const s of [...apiServices].sort((a, b) => compareNames(a.name, b.name))) {
    if (s.group === AGGREGATOR_GROUP) continue;
    table.set(`${s.group}/${s.version}`, apiServicePriority(s));
  }
  return table;
}

/**
 * kube-aggregator's OpenAPI merge order of service-backed APIServices (its byPriority): groups
 * by their highest groupPriorityMinimum, higher first; in one group by versionPriority, higher
 * first; then by name.
 */
export function compareForOpenAPIMerge(all: readonly AggregatedAPIService[]): (a: AggregatedAPIService, b: AggregatedAPIService) => number {
  const groupPriority = new Map<string, number>();
  for (const s of all) groupPriority.set(s.group, Math.max(groupPriority.get(s.group) ?? 0, s.groupPriorityMinimum));
  return (a, b) => {
    const pa = a.group === b.group ? a.versionPriority : (groupPriority.get(a.group) ?? 0);
    const pb = a.group === b.group ? b.versionPriority : (groupPriority.get(b.group) ?? 0);
    return pb - pa || compareNames(a.name, b.name);
  };
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
