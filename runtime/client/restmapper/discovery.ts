import type { APIGroup, APIResource } from '../../../apis/meta/v1/discovery.js';
import { isGroupDiscoveryFailedError } from '../discovery/errors.js';
import type { DiscoveryInterface, GroupsAndResources } from '../discovery/types.js';
import { DefaultRESTMapper, unsafeGuessKindToResource } from './default.js';
import { MultiRESTMapper } from './multi.js';
import { ANY, PriorityRESTMapper } from './priority.js';
import type { GroupVersionKind, GroupVersionResource } from './schema.js';

/** A group with the resources of each of its versions (restmapper.APIGroupResources). */
export interface APIGroupResources {
  readonly group: APIGroup;
  /** version → resources, for the versions discovery answered. */
  readonly versionedResources: ReadonlyMap<string, readonly APIResource[]>;
}

/**
 * A mapper over discovered groups (restmapper.NewDiscoveryRESTMapper): one DefaultRESTMapper per
 * group version, asked together, with ambiguity settled in this order: core v1 first, then each
 * group in discovery order with its preferred version before its others, then any version of
 * each group. Subresources get no mapping; a resource without a singular name gets a guessed one.
 */
export function newDiscoveryRESTMapper(groupResources: readonly APIGroupResources[]): PriorityRESTMapper {
  const mappers: DefaultRESTMapper[] = [];
  const resourcePriority: GroupVersionResource[] = [{ group: '', version: 'v1', resource: ANY }];
  const kindPriority: GroupVersionKind[] = [{ group: '', version: 'v1', kind: ANY }];
  const groupPriority: string[] = [];
  for (const { group, versionedResources } of groupResources) {
    groupPriority.push(group.name);
    const preferred = group.preferredVersion?.version ?? '';
    if (preferred !== '' && versionedResources.has(preferred)) {
      resourcePriority.push({ group: group.name, version: preferred, resource: ANY });
      kindPriority.push({ group: group.name, version: preferred, kind: ANY });
    }
    for (const v of group.versions) {
      const resources = versionedResources.get(v.version);
      if (resources === undefined) continue;
      if (v.version !== preferred) {
        resourcePriority.push({ group: group.name, version: v.version, resource: ANY });
        kindPriority.push({ group: group.name, version: v.version, kind: ANY });
      }
      const gv = { group: group.name, version: v.version };
      const m = new DefaultRESTMapper([gv]);
      for (const r of resources) {
        if (r.name.includes('/')) continue;
        const scope = r.namespaced ? 'namespace' : 'root';
        const plural = { ...gv, resource: r.name };
        const singular = r.singularName ? { ...gv, resource: r.singularName } : unsafeGuessKindToResource({ ...gv, kind: r.kind }).singular;
        m.addSpecific({ ...gv, kind: r.kind.toLowerCase() }, plural, singular, scope);
        m.addSpecific({ ...gv, kind: r.kind }, plural, singular, scope);
        m.add({ ...gv, kind: `${r.kind}List` }, scope);
      }
      m.add({ ...gv, kind: 'List' }, 'root');
      mappers.push(m);
    }
  }
  for (const group of groupPriority) {
    resourcePriority.push({ group, version: ANY, resource: ANY });
    kindPriority.push({ group, version: ANY, kind: ANY });
  }
  return new PriorityRESTMapper(new MultiRESTMapper(mappers), resourcePriority, kindPriority);
}

/**
 * Every group with its versions' resources (restmapper.GetAPIGroupResources). Group versions that
 * failed are left out and the rest used, as client-go does with a partial discovery.
 */
export async function getAPIGroupResources(d: DiscoveryInterface): Promise<APIGroupResources[]> {
  let found: GroupsAndResources;
  try {
    found = await d.serverGroupsAndResources();
  } catch (e) {
    if (!isGroupDiscoveryFailedError(e) || e.partial === undefined) throw e;
    found = e.partial;
  }
  const byGV = new Map(found.resources.map((r) => [r.groupVersion, r.resources]));
  return found.groups.map((group) => {
    const versionedResources = new Map<string, readonly APIResource[]>();
    for (const v of group.versions) {
      const resources = byGV.get(v.groupVersion);
      if (resources !== undefined) versionedResources.set(v.version, resources);
    }
    return { group, versionedResources };
  });
}
