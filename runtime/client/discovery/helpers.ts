import type { APIGroupList, APIResource, APIResourceList } from '../../../apis/meta/v1/discovery.js';
import { groupVersionString } from '../restmapper/schema.js';
import { ErrGroupDiscoveryFailed } from './errors.js';
import { isAggregatedDiscovery, type DiscoveryInterface, type GroupsAndResources } from './types.js';

/**
 * How any discovery client answers ServerGroupsAndResources (discovery.ServerGroupsAndResources):
 * from the aggregated answer when the client has one, otherwise the groups and then every group
 * version's resources, fetched concurrently. Failed group versions reject with
 * ErrGroupDiscoveryFailed carrying the rest.
 */
export async function serverGroupsAndResources(d: DiscoveryInterface): Promise<GroupsAndResources> {
  let list: APIGroupList;
  if (isAggregatedDiscovery(d)) {
    const answer = await d.groupsAndMaybeResources();
    list = answer.groups;
    if (answer.resources !== undefined) {
      const result = { groups: list.groups, resources: [...answer.resources.values()] };
      if (answer.failed.size > 0) throw new ErrGroupDiscoveryFailed(answer.failed, result);
      return result;
    }
  } else {
    list = await d.serverGroups();
  }
  const fetched = await fetchGroupVersionResources(d, list);
  const failed = fetched.failed;
  const resources: APIResourceList[] = [];
  for (const g of list.groups) {
    for (const v of g.versions) {
      const r = fetched.resources.get(groupVersionString({ group: g.name, version: v.version }));
      if (r !== undefined) resources.push(r);
    }
  }
  const result = { groups: list.groups, resources };
  if (failed.size > 0) throw new ErrGroupDiscoveryFailed(failed, result);
  return result;
}

/**
 * One resource list per served group version, each resource in the group's preferred version
 * when it is served there, else in the first version that serves it
 * (discovery.ServerPreferredResources). Subresources are left out. Failed group versions reject
 * with ErrGroupDiscoveryFailed carrying the lists (`partial.resources`).
 */
export async function serverPreferredResources(d: DiscoveryInterface): Promise<APIResourceList[]> {
  let list: APIGroupList;
  let byGV: Map<string, APIResourceList> | undefined;
  let failed: ReadonlyMap<string, Error> = new Map();
  if (isAggregatedDiscovery(d)) {
    const answer = await d.groupsAndMaybeResources();
    list = answer.groups;
    byGV = answer.resources;
    failed = answer.failed;
  } else {
    list = await d.serverGroups();
  }
  if (byGV === undefined) {
    const fetched = await fetchGroupVersionResources(d, list);
    byGV = fetched.resources;
    failed = fetched.failed;
  }
  const result: APIResourceList[] = [];
  const chosen = new Map<string, { version: string; resource: APIResource }>();
  const listsByGV = new Map<string, APIResourceList>();
  for (const g of list.groups) {
    for (const v of g.versions) {
      const gv = groupVersionString({ group: g.name, version: v.version });
      const served = byGV.get(gv);
      if (served === undefined) continue;
      const out: APIResourceList = { groupVersion: v.groupVersion, resources: [] };
      listsByGV.set(gv, out);
      result.push(out);
      for (const r of served.resources) {
        if (r.name.includes('/')) continue;
        const key = `${g.name}\u0000${r.name}`;
        if (chosen.has(key) && v.version !== g.preferredVersion?.version) continue;
        chosen.set(key, { version: v.version, resource: r });
      }
    }
  }
  for (const [key, { version, resource }] of chosen) {
    const group = key.slice(0, key.indexOf('\u0000'));
    listsByGV.get(groupVersionString({ group, version }))?.resources.push(resource);
  }
  if (failed.size > 0) throw new ErrGroupDiscoveryFailed(failed, { groups: list.groups, resources: result });
  return result;
}

/** serverPreferredResources without cluster-scoped resources; a partial failure keeps its partial answer filtered too. */
export async function serverPreferredNamespacedResources(d: DiscoveryInterface): Promise<APIResourceList[]> {
  try {
    return filteredBy(await serverPreferredResources(d), (_gv, r) => r.namespaced);
  } catch (e) {
    if (e instanceof ErrGroupDiscoveryFailed && e.partial !== undefined) {
      throw new ErrGroupDiscoveryFailed(e.groups, { groups: e.partial.groups, resources: filteredBy(e.partial.resources, (_gv, r) => r.namespaced) });
    }
    throw e;
  }
}

/** The lists with only the resources the predicate keeps; lists left empty are dropped (discovery.FilteredBy). */
export function filteredBy(lists: readonly APIResourceList[], keep: (groupVersion: string, r: APIResource) => boolean): APIResourceList[] {
  const out: APIResourceList[] = [];
  for (const l of lists) {
    const resources = l.resources.filter((r) => keep(l.groupVersion, r));
    if (resources.length > 0) out.push({ ...l, resources });
  }
  return out;
}

/** Asks every group version of the list at once; failures are collected, not thrown. */
export async function fetchGroupVersionResources(d: DiscoveryInterface, list: APIGroupList): Promise<{ resources: Map<string, APIResourceList>; failed: Map<string, Error> }> {
  const resources = new Map<string, APIResourceList>();
  const failed = new Map<string, Error>();
  const gvs = list.groups.flatMap((g) => g.versions.map((v) => groupVersionString({ group: g.name, version: v.version })));
  await Promise.all(
    gvs.map(async (gv) => {
      try {
        resources.set(gv, await d.serverResourcesForGroupVersion(gv));
      } catch (e) {
        failed.set(gv, e instanceof Error ? e : new Error(String(e)));
      }
    }),
  );
  return { resources, failed };
}

/** Runs a discovery again when only some group versions failed, up to `max` times in all (discovery's withRetries). */
export async function withRetries<T>(max: number, f: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await f();
    } catch (e) {
      if (!(e instanceof ErrGroupDiscoveryFailed) || attempt >= max) throw e;
    }
  }
}
