import type { APIGroupDiscovery, APIGroupDiscoveryList, APIResourceDiscovery, APISubresourceDiscovery } from '../../../apis/apidiscovery/v2/types.js';
import type { APIGroup, APIGroupList, APIResource, APIResourceList, GroupVersionForDiscovery } from '../../../apis/meta/v1/discovery.js';
import { StaleGroupVersionError } from './errors.js';
import { groupVersionString } from '../restmapper/schema.js';

/** The Accept header kubectl 1.32 sends to /api and /apis: aggregated v2, then v2beta1, then the legacy documents. */
export const ACCEPT_AGGREGATED = [
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
  'application/json',
].join(',');

/** Whether a decoded /api or /apis answer is an aggregated document (v2 or v2beta1 have one shape). */
export function isAggregatedDocument(body: unknown): body is APIGroupDiscoveryList {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as { kind?: unknown; apiVersion?: unknown };
  return b.kind === 'APIGroupDiscoveryList' && (b.apiVersion === 'apidiscovery.k8s.io/v2' || b.apiVersion === 'apidiscovery.k8s.io/v2beta1');
}

/**
 * An aggregated document as the legacy documents would have said it (discovery's
 * SplitGroupsAndResources): the groups, each served version's resource list with subresources
 * as `resource/subresource` entries, and the Stale versions as failures (left out of the groups).
 * A resource or subresource without a response kind is left out, as client-go leaves it.
 */
export function splitGroupsAndResources(doc: APIGroupDiscoveryList): { groups: APIGroupList; resources: Map<string, APIResourceList>; failed: Map<string, Error> } {
  const groups: APIGroup[] = [];
  const resources = new Map<string, APIResourceList>();
  const failed = new Map<string, Error>();
  for (const g of doc.items ?? []) groups.push(convertGroup(g, resources, failed));
  return { groups: { kind: 'APIGroupList', apiVersion: 'v1', groups }, resources, failed };
}

function convertGroup(g: APIGroupDiscovery, resources: Map<string, APIResourceList>, failed: Map<string, Error>): APIGroup {
  const name = g.metadata?.name ?? '';
  const versions: GroupVersionForDiscovery[] = [];
  for (const v of g.versions ?? []) {
    const gv = groupVersionString({ group: name, version: v.version });
    if (v.freshness === 'Stale') {
      failed.set(gv, new StaleGroupVersionError(gv));
      continue;
    }
    versions.push({ groupVersion: gv, version: v.version });
    const list: APIResource[] = [];
    for (const r of v.resources ?? []) {
      const parent = convertResource(r);
      if (parent.kind !== '') list.push(parent);
      for (const s of r.subresources ?? []) {
        const sub = convertSubresource(parent, s);
        if (sub !== undefined) list.push(sub);
      }
    }
    resources.set(gv, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gv, resources: list });
  }
  const group: APIGroup = { name, versions };
  if (versions[0] !== undefined) group.preferredVersion = versions[0];
  return group;
}

/** The legacy entry of a resource; kind '' when the document gave no response kind. */
function convertResource(r: APIResourceDiscovery): APIResource {
  const out: APIResource = { name: r.resource, singularName: r.singularResource, namespaced: r.scope === 'Namespaced', kind: '', verbs: r.verbs };
  if (r.shortNames !== undefined) out.shortNames = r.shortNames;
  if (r.categories !== undefined) out.categories = r.categories;
  const k = r.responseKind;
  if (k !== undefined && (k.group !== '' || k.version !== '' || k.kind !== '')) {
    out.group = k.group;
    out.version = k.version;
    out.kind = k.kind;
  }
  return out;
}

function convertSubresource(parent: APIResource, s: APISubresourceDiscovery): APIResource | undefined {
  const k = s.responseKind;
  if (k === undefined || (k.group === '' && k.version === '' && k.kind === '')) return undefined;
  return { name: `${parent.name}/${s.subresource}`, singularName: parent.singularName, namespaced: parent.namespaced, group: k.group, version: k.version, kind: k.kind, verbs: s.verbs };
}
