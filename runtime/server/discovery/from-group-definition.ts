import type { APIGroupDefinition, APIVersionDefinition, CreateSubresource } from '../../registry/types.js';
import type { ResourceDefinition } from '../../apimachinery/definition/resource.js';
import { builtinGroupVersionPriority } from './priorities.js';
import { storageVersionHash } from './storage-version-hash.js';
import type { GroupVersionDescription, ResourceDescription, SubresourceDescription } from './types.js';

export interface GroupDefinitionDiscoveryOptions {
  /** Default: kube's (builtinGroupVersionPriority). */
  readonly groupPriorityMinimum?: number;
  /** By Kind: the subresources REST overrides contribute (RESTStorageOverride.subresources), listed with verb create and their own kind. */
  readonly subresources?: ReadonlyMap<string, Readonly<Record<string, CreateSubresource>>>;
}

const SUBRESOURCE_VERBS: readonly string[] = ['get', 'patch', 'update'];

/**
 * Discovery descriptions of a built-in group: one per served version, in the definition's
 * priority order (first = preferred). Verbs sorted as kube-apiserver prints built-ins, resources
 * by name, subresources by name, storageVersionHash of the group's storage version.
 */
export function discoveryFromGroupDefinition(def: APIGroupDefinition, options: GroupDefinitionDiscoveryOptions = {}): GroupVersionDescription[] {
  return def.versions.map((version, i) => {
    const priority = builtinGroupVersionPriority(def.name, version.name, i);
    return {
      group: def.name,
      version: version.name,
      groupPriorityMinimum: options.groupPriorityMinimum ?? priority.groupPriorityMinimum,
      versionPriority: priority.versionPriority,
      resources: versionResources(def, version, options.subresources),
    };
  });
}

type Subresources = GroupDefinitionDiscoveryOptions['subresources'];

function versionResources(def: APIGroupDefinition, version: APIVersionDefinition, extra: Subresources): ResourceDescription[] {
  return [...version.resources].sort((a, b) => (a.plural < b.plural ? -1 : a.plural > b.plural ? 1 : 0)).map((r) => resourceDescription(def, r, extra));
}

function resourceDescription(def: APIGroupDefinition, r: ResourceDefinition, extra: Subresources): ResourceDescription {
  return {
    name: r.plural,
    singularName: r.singular,
    namespaced: r.namespaced,
    kind: r.kind,
    verbs: [...r.verbs].sort(),
    shortNames: r.shortNames,
    categories: r.categories,
    storageVersionHash: storedVersionHash(def, r.kind),
    subresources: subresources(r, extra?.get(r.kind) ?? {}),
  };
}

/** kube hashes the kind the storage encodes: a kind stored as another resource's objects shares that resource's hash. */
function storedVersionHash(def: APIGroupDefinition, kind: string): string {
  const storedAs = def.declaration?.storedAs;
  const cohabiting = storedAs !== undefined && Object.hasOwn(storedAs, kind) ? storedAs[kind] : undefined;
  return cohabiting === undefined ? storageVersionHash(def.name, def.storageVersion, kind) : storageVersionHash(cohabiting.group, cohabiting.version, cohabiting.kind);
}

const CREATE_VERBS: readonly string[] = ['create'];

function subresources(r: ResourceDefinition, extra: Readonly<Record<string, CreateSubresource>>): SubresourceDescription[] {
  const out: SubresourceDescription[] = [];
  if (r.subresources.scale !== undefined) {
    out.push({ name: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: SUBRESOURCE_VERBS });
  }
  if (r.subresources.status) out.push({ name: 'status', verbs: SUBRESOURCE_VERBS });
  for (const [name, sub] of Object.entries(extra)) out.push({ name, responseKind: { group: sub.group, version: sub.version, kind: sub.kind }, verbs: CREATE_VERBS });
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
