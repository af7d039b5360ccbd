import type { GroupVersionKind, ListMeta, ObjectMeta, TypeMeta } from '../../meta/v1/types.js';

/**
 * Every API group a server offers (built-in, custom resources, aggregated servers) with their versions and resources, in priority order.
 * Served at /api (the core group alone) and /apis (every named group).
 */
export interface APIGroupDiscoveryList extends TypeMeta {
  /** Standard list metadata; resourceVersion is never set, as several servers contribute to the document. */
  metadata?: ListMeta;
  /** The groups, highest priority first. */
  items?: APIGroupDiscovery[];
}

/** The resources a group serves in each of its versions. */
export interface APIGroupDiscovery extends TypeMeta {
  /** Only name is set: the group's name, empty for the core group. */
  metadata?: ObjectMeta;
  /**
   * The versions the group serves, preferred first.
   *
   * @listType map
   * @listMapKey version
   */
  versions?: APIVersionDiscovery[];
}

/** Whether a group version's discovery information is up to date. */
export type DiscoveryFreshness = 'Current' | 'Stale';

/** The resources served in one version of a group. */
export interface APIVersionDiscovery {
  /** The version's name. */
  version: string;
  /**
   * The resources of this group version.
   *
   * @listType map
   * @listMapKey resource
   */
  resources?: APIResourceDiscovery[];
  /** `Current` when recently refreshed; `Stale` when the server behind it could not be reached and the entry may be badly out of date. */
  freshness?: DiscoveryFreshness;
}

/** The scope of a resource. */
export type ResourceScope = 'Cluster' | 'Namespaced';

/** One resource of a group version. */
export interface APIResourceDiscovery {
  /** The plural resource name used in URL paths, unique within the group across versions. */
  resource: string;
  /** The group, version and kind the resource normally returns; empty when the parent resource supports no operations. */
  responseKind?: GroupVersionKind;
  /** Whether the resource is cluster-scoped or namespaced. */
  scope: ResourceScope;
  /** The singular name, which kubectl accepts in place of the plural. */
  singularResource: string;
  /**
   * The supported verbs, such as get, list, watch, create, update, patch, delete, deletecollection and proxy.
   *
   * @listType set
   */
  verbs: string[];
  /**
   * Suggested short names.
   *
   * @listType set
   */
  shortNames?: string[];
  /**
   * Groupings the resource belongs to, such as `all`, so clients can act on several types at once.
   *
   * @listType set
   */
  categories?: string[];
  /**
   * The subresources, reached at `<resource>/<name>/<subresource>`.
   *
   * @listType map
   * @listMapKey subresource
   */
  subresources?: APISubresourceDiscovery[];
}

/** One subresource of a resource. */
export interface APISubresourceDiscovery {
  /** The subresource's name, as used in URL paths. */
  subresource: string;
  /** The group, version and kind the subresource normally returns; empty for subresources that return no ordinary object. */
  responseKind?: GroupVersionKind;
  /**
   * The kinds the subresource accepts; not necessarily exhaustive.
   *
   * @listType map
   * @listMapKey group
   * @listMapKey version
   * @listMapKey kind
   */
  acceptedTypes?: GroupVersionKind[];
  /**
   * The supported verbs; subresources may define verbs of their own.
   *
   * @listType set
   */
  verbs: string[];
}
