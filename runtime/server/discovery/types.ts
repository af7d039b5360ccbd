import type { DiscoveryFreshness } from '../../../apis/apidiscovery/v2/types.js';
import type { GroupVersionKind } from '../../../apis/meta/v1/types.js';

/**
 * The neutral description of what a group version serves, from which every discovery document
 * is derived. Built-in groups (discoveryFromGroupDefinition), CRDs and remote aggregated servers
 * all describe themselves with it.
 */
export interface ResourceDescription {
  /** The plural resource name used in URL paths. */
  readonly name: string;
  readonly singularName: string;
  readonly namespaced: boolean;
  readonly kind: string;
  /** In the order the documents print them (kube-apiserver sorts built-in verbs; CRDs keep their own order). */
  readonly verbs: readonly string[];
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  /** Omitted from the documents when absent or empty. */
  readonly storageVersionHash?: string;
  /** In the order the documents print them. */
  readonly subresources?: readonly SubresourceDescription[];
}

export interface SubresourceDescription {
  /** The subresource's path segment: `status`, `scale`. */
  readonly name: string;
  /**
   * What the subresource returns. Absent means the parent's kind in the same group version;
   * a kind from elsewhere (autoscaling/v1 Scale) shows as group/version in the legacy document.
   */
  readonly responseKind?: GroupVersionKind;
  readonly verbs: readonly string[];
}

/** Where a group version's description came from; when two sources describe one group version the first of this order wins. */
export type DiscoverySource = 'aggregator' | 'builtin' | 'crd';

export const DISCOVERY_SOURCE_PRECEDENCE: readonly DiscoverySource[] = ['aggregator', 'builtin', 'crd'];

/** Where a group version sorts (an APIService's spec.groupPriorityMinimum and spec.versionPriority). */
export interface GroupVersionPriority {
  /** Orders groups: the highest of a group's versions counts, higher first, ties by name. */
  readonly groupPriorityMinimum: number;
  /** Orders versions within a group, higher first, ties by kube-aware version order. */
  readonly versionPriority: number;
}

/**
 * Priorities that override what the sources gave, keyed `<group>/<version>` (`/v1` for the core
 * group): the aggregator's view of every APIService, local ones included.
 */
export type GroupVersionPriorities = ReadonlyMap<string, GroupVersionPriority>;

export interface GroupVersionOptions extends GroupVersionPriority {
  /** `Stale` when the server behind the group version could not be reached. Default `Current`. */
  readonly freshness?: DiscoveryFreshness;
}

/** One group version as a caller hands it to the manager. */
export interface GroupVersionDescription extends GroupVersionOptions {
  readonly group: string;
  readonly version: string;
  readonly resources: readonly ResourceDescription[];
}

/**
 * What one server of the chain may change in discovery while serving. Every change is visible
 * to the next request, with new ETags.
 */
export interface DiscoveryRegistry {
  /** Adds or replaces one group version; an identical description changes nothing (ETags stay). */
  setGroupVersion(group: string, version: string, resources: readonly ResourceDescription[], options: GroupVersionOptions): void;
  /** Removes one group version; the group disappears with its last version. Absent: no-op. */
  removeGroupVersion(group: string, version: string): void;
  /** Removes every version of a group. Absent: no-op. */
  removeGroup(group: string): void;
  /** Replaces everything this source registered with the given group versions. */
  setGroupVersions(groupVersions: readonly GroupVersionDescription[]): void;
}
