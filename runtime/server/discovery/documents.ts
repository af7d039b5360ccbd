import type { APIGroupDiscovery, APIGroupDiscoveryList, APIResourceDiscovery, APISubresourceDiscovery, APIVersionDiscovery, DiscoveryFreshness } from '../../../apis/apidiscovery/v2/types.js';
import type { APIGroup, APIGroupList, APIResource, APIResourceList, APIVersions, GroupVersionForDiscovery } from '../../../apis/meta/v1/discovery.js';
import type { ResourceDescription } from './types.js';

/**
 * Pure builders of the discovery documents from the resolved (merged, sorted) model. Key order
 * follows the Go structs so the bytes look like kube-apiserver's; omission rules are those of
 * meta/v1 and apidiscovery/v2 (`singularName`, `kind`, `verbs` always present; responseKind
 * always set, as client-go 0.26.0–0.26.3 panics on null).
 */

export interface ResolvedVersion {
  readonly version: string;
  readonly freshness: DiscoveryFreshness;
  readonly resources: readonly ResourceDescription[];
}

/** A group with its versions in preference order (first = preferred). */
export interface ResolvedGroup {
  readonly name: string;
  readonly versions: readonly ResolvedVersion[];
}

export type AggregatedDiscoveryVersion = 'v2' | 'v2beta1';

export function apiVersions(core: ResolvedGroup | undefined, serverAddress: string): APIVersions {
  return {
    kind: 'APIVersions',
    versions: core?.versions.map((v) => v.version) ?? [],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

export function apiGroupList(groups: readonly ResolvedGroup[]): APIGroupList {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map(groupBody) };
}

export function apiGroup(group: ResolvedGroup): APIGroup {
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupBody(group) };
}

function groupBody(group: ResolvedGroup): APIGroup {
  const versions = group.versions.map((v): GroupVersionForDiscovery => ({ groupVersion: groupVersionString(group.name, v.version), version: v.version }));
  const body: APIGroup = { name: group.name, versions };
  if (versions[0] !== undefined) body.preferredVersion = versions[0];
  return body;
}

export function apiResourceList(group: string, version: string, resources: readonly ResourceDescription[]): APIResourceList {
  const out: APIResource[] = [];
  for (const r of resources) {
    const resource: APIResource = { name: r.name, singularName: r.singularName, namespaced: r.namespaced, kind: r.kind, verbs: [...r.verbs] };
    if (r.shortNames !== undefined && r.shortNames.length > 0) resource.shortNames = [...r.shortNames];
    if (r.categories !== undefined && r.categories.length > 0) resource.categories = [...r.categories];
    if (r.storageVersionHash) resource.storageVersionHash = r.storageVersionHash;
    out.push(resource);
    for (const sub of r.subresources ?? []) {
      const entry: APIResource = { name: `${r.name}/${sub.name}`, singularName: '', namespaced: r.namespaced, kind: sub.responseKind?.kind ?? r.kind, verbs: [...sub.verbs] };
      const kind = sub.responseKind;
      if (kind !== undefined && (kind.group !== group || kind.version !== version)) {
        // Go struct order: name, singularName, namespaced, group, version, kind, verbs.
        out.push({ name: entry.name, singularName: '', namespaced: r.namespaced, group: kind.group, version: kind.version, kind: kind.kind, verbs: entry.verbs });
        continue;
      }
      out.push(entry);
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersionString(group, version), resources: out };
}

export function aggregatedDiscoveryList(groups: readonly ResolvedGroup[], version: AggregatedDiscoveryVersion): APIGroupDiscoveryList {
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items: groups.map(groupDiscovery) };
}

function groupDiscovery(group: ResolvedGroup): APIGroupDiscovery {
  // metav1.ObjectMeta: name is omitempty, creationTimestamp is not.
  const metadata = (group.name === '' ? { creationTimestamp: null } : { name: group.name, creationTimestamp: null }) as unknown as APIGroupDiscovery['metadata'];
  return { metadata, versions: group.versions.map((v) => versionDiscovery(group.name, v)) };
}

function versionDiscovery(group: string, v: ResolvedVersion): APIVersionDiscovery {
  const out: APIVersionDiscovery = { version: v.version };
  if (v.resources.length > 0) out.resources = v.resources.map((r) => resourceDiscovery(group, v.version, r));
  out.freshness = v.freshness;
  return out;
}

function resourceDiscovery(group: string, version: string, r: ResourceDescription): APIResourceDiscovery {
  const out: APIResourceDiscovery = {
    resource: r.name,
    responseKind: { group, version, kind: r.kind },
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singularName,
    verbs: [...r.verbs],
  };
  if (r.shortNames !== undefined && r.shortNames.length > 0) out.shortNames = [...r.shortNames];
  if (r.categories !== undefined && r.categories.length > 0) out.categories = [...r.categories];
  if (r.subresources !== undefined && r.subresources.length > 0) {
    out.subresources = r.subresources.map((s): APISubresourceDiscovery => ({ subresource: s.name, responseKind: s.responseKind ?? { group, version, kind: r.kind }, verbs: [...s.verbs] }));
  }
  return out;
}

export function groupVersionString(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}
