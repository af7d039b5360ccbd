import type { APIResourceDiscovery, APIVersionDiscovery } from '../../apis/apidiscovery/v2/types.js';
import type { APIResource } from '../../apis/meta/v1/discovery.js';
import type { GroupVersionKind } from '../../apis/meta/v1/types.js';
import type { ResourceDescription, SubresourceDescription } from '../server/discovery/index.js';

/**
 * Decoding of a backend's discovery documents into the discovery model. Documents come off the
 * wire: every field is checked, and a malformed document is an Error naming what is wrong
 * (the backend then counts as failed, its last good description kept).
 */

/** `<group>/<version>` → resources, for every group version of an APIGroupDiscoveryList. */
export function fromAggregatedDiscovery(doc: unknown): Map<string, ResourceDescription[]> {
  const items = field(doc, 'items');
  if (!Array.isArray(items)) throw new Error('APIGroupDiscoveryList: items is not a list');
  const out = new Map<string, ResourceDescription[]>();
  for (const item of items as unknown[]) {
    const name = field(field(item, 'metadata'), 'name');
    const group = typeof name === 'string' ? name : '';
    const versions = field(item, 'versions');
    for (const v of Array.isArray(versions) ? (versions as unknown[]) : []) {
      const version = field(v, 'version');
      if (typeof version !== 'string' || version === '') throw new Error(`APIGroupDiscoveryList: group ${JSON.stringify(group)} has a version without a name`);
      out.set(`${group}/${version}`, fromVersionDiscovery(group, version, v as APIVersionDiscovery));
    }
  }
  return out;
}

function fromVersionDiscovery(group: string, version: string, v: APIVersionDiscovery): ResourceDescription[] {
  const resources: unknown[] = Array.isArray(v.resources) ? v.resources : [];
  return resources.map((r) => {
    if (typeof r !== 'object' || r === null) throw new Error(`APIGroupDiscoveryList: ${group}/${version} has a resource that is not an object`);
    return fromResourceDiscovery(group, version, r as APIResourceDiscovery);
  });
}

function fromResourceDiscovery(group: string, version: string, r: APIResourceDiscovery): ResourceDescription {
  if (typeof r.resource !== 'string' || r.resource === '') throw new Error(`APIGroupDiscoveryList: ${group}/${version} has a resource without a name`);
  const subresources: SubresourceDescription[] = [];
  for (const s of Array.isArray(r.subresources) ? r.subresources : []) {
    if (typeof s !== 'object' || s === null || typeof s.subresource !== 'string' || s.subresource === '') continue;
    const responseKind = gvk(s.responseKind);
    subresources.push({ name: s.subresource, ...(responseKind !== undefined ? { responseKind } : {}), verbs: strings(s.verbs) });
  }
  return {
    name: r.resource,
    singularName: typeof r.singularResource === 'string' ? r.singularResource : '',
    namespaced: r.scope === 'Namespaced',
    kind: typeof r.responseKind?.kind === 'string' ? r.responseKind.kind : '',
    verbs: strings(r.verbs),
    ...optionalList('shortNames', r.shortNames),
    ...optionalList('categories', r.categories),
    ...(subresources.length > 0 ? { subresources } : {}),
  };
}

/**
 * The resources of a legacy APIResourceList (kube's ConvertGroupVersionIntoToDiscovery):
 * `<resource>/<sub>` entries become subresources of their parent, with the kind they name.
 */
export function fromAPIResourceList(group: string, version: string, doc: unknown): ResourceDescription[] {
  const list = field(doc, 'resources');
  if (!Array.isArray(list)) throw new Error(`APIResourceList of ${group}/${version}: resources is not a list`);
  const parents = new Map<string, ResourceDescription & { subresources: SubresourceDescription[] }>();
  const children: APIResource[] = [];
  for (const r of list as (APIResource | null)[]) {
    if (typeof r !== 'object' || r === null || typeof r.name !== 'string' || r.name === '') throw new Error(`APIResourceList of ${group}/${version}: a resource has no name`);
    if (r.name.includes('/')) {
      children.push(r);
      continue;
    }
    parents.set(r.name, {
      name: r.name,
      singularName: typeof r.singularName === 'string' ? r.singularName : '',
      namespaced: r.namespaced === true,
      kind: typeof r.kind === 'string' ? r.kind : '',
      verbs: strings(r.verbs),
      ...optionalList('shortNames', r.shortNames),
      ...optionalList('categories', r.categories),
      ...(typeof r.storageVersionHash === 'string' && r.storageVersionHash !== '' ? { storageVersionHash: r.storageVersionHash } : {}),
      subresources: [],
    });
  }
  for (const c of children) {
    const slash = c.name.indexOf('/');
    const parent = parents.get(c.name.slice(0, slash));
    if (parent === undefined) continue;
    const kindGroup = typeof c.group === 'string' ? c.group : group;
    const kindVersion = typeof c.version === 'string' ? c.version : version;
    const sameKind = kindGroup === group && kindVersion === version && c.kind === parent.kind;
    parent.subresources.push({
      name: c.name.slice(slash + 1),
      ...(sameKind ? {} : { responseKind: { group: kindGroup, version: kindVersion, kind: typeof c.kind === 'string' ? c.kind : '' } }),
      verbs: strings(c.verbs),
    });
  }
  return [...parents.values()].map(({ subresources, ...r }) => (subresources.length > 0 ? { ...r, subresources } : r));
}

function field(obj: unknown, name: string): unknown {
  return typeof obj === 'object' && obj !== null ? (obj as Record<string, unknown>)[name] : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : [];
}

function optionalList<K extends 'shortNames' | 'categories'>(key: K, value: unknown): Partial<Record<K, string[]>> {
  const list = strings(value);
  return list.length > 0 ? ({ [key]: list } as Partial<Record<K, string[]>>) : {};
}

function gvk(value: unknown): GroupVersionKind | undefined {
  const kind = field(value, 'kind');
  if (typeof kind !== 'string' || kind === '') return undefined;
  const group = field(value, 'group');
  const version = field(value, 'version');
  return { group: typeof group === 'string' ? group : '', version: typeof version === 'string' ? version : '', kind };
}
