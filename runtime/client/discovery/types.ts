import type { APIGroup, APIGroupList, APIResourceList } from '../../../apis/meta/v1/discovery.js';
import type { VersionInfo } from '../../apimachinery/version.js';

export type { VersionInfo };

/**
 * What a discovery client answers (client-go's discovery.DiscoveryInterface). Group versions
 * are keyed by their string form: `v1` for the core group, `group/version` otherwise.
 */
export interface DiscoveryInterface {
  /** Every group with its versions: the core group first (when served), then /apis in the server's order. */
  serverGroups(): Promise<APIGroupList>;
  /** The resources (and `resource/subresource` entries) of one group version. */
  serverResourcesForGroupVersion(groupVersion: string): Promise<APIResourceList>;
  /**
   * Groups and the resources of each served version. When some group versions fail, rejects
   * with ErrGroupDiscoveryFailed, which carries what was found (`partial`).
   */
  serverGroupsAndResources(): Promise<GroupsAndResources>;
  /** One list per group version holding the resources best served there (preferred version first). */
  serverPreferredResources(): Promise<APIResourceList[]>;
  /** serverPreferredResources, namespaced resources only. */
  serverPreferredNamespacedResources(): Promise<APIResourceList[]>;
  serverVersion(): Promise<VersionInfo>;
  /** The OpenAPI v3 documents the server publishes, one per group version. */
  openAPIV3(): OpenAPIV3Client;
}

export interface GroupsAndResources {
  readonly groups: APIGroup[];
  readonly resources: APIResourceList[];
}

/**
 * A client that can hand over the resources with the groups in one answer (aggregated
 * discovery). `resources` is undefined when the server answered with the legacy documents;
 * `failed` names the group versions the server reported stale.
 */
export interface AggregatedDiscoveryInterface extends DiscoveryInterface {
  groupsAndMaybeResources(): Promise<GroupsAndMaybeResources>;
}

export interface GroupsAndMaybeResources {
  readonly groups: APIGroupList;
  readonly resources: Map<string, APIResourceList> | undefined;
  readonly failed: Map<string, Error>;
}

/** A discovery client that answers from a cache (discovery.CachedDiscoveryInterface). */
export interface CachedDiscoveryInterface extends DiscoveryInterface {
  /**
   * True when every answer since the last invalidate() came from the server (or from files this
   * client wrote): a miss in it is real, so a REST mapper does not need to ask again.
   */
  fresh(): boolean;
  /** Forgets the cache: the next questions go to the server. */
  invalidate(): void;
}

export function isAggregatedDiscovery(d: DiscoveryInterface): d is AggregatedDiscoveryInterface {
  return typeof (d as Partial<AggregatedDiscoveryInterface>).groupsAndMaybeResources === 'function';
}

export function isCachedDiscovery(d: DiscoveryInterface): d is CachedDiscoveryInterface {
  const c = d as Partial<CachedDiscoveryInterface>;
  return typeof c.fresh === 'function' && typeof c.invalidate === 'function';
}

/** One group version's OpenAPI v3 document (openapi.GroupVersion). */
export interface OpenAPIV3GroupVersion {
  /** The path with its content hash (`/openapi/v3/apis/apps/v1?hash=…`), as the server lists it. */
  readonly serverRelativeURL: string;
  /** The document, fetched as JSON. */
  schema(): Promise<unknown>;
}

/** The OpenAPI v3 root (openapi.Client): `api/v1`, `apis/<group>/<version>`… */
export interface OpenAPIV3Client {
  paths(): Promise<Map<string, OpenAPIV3GroupVersion>>;
}
