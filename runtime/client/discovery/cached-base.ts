import type { APIGroupList, APIResourceList } from '../../../apis/meta/v1/discovery.js';
import { serverGroupsAndResources, serverPreferredNamespacedResources, serverPreferredResources } from './helpers.js';
import { isCachedDiscovery, type CachedDiscoveryInterface, type DiscoveryInterface, type GroupsAndResources, type OpenAPIV3Client, type VersionInfo } from './types.js';

/**
 * What the memory and disk caches answer alike (client-go's memCacheClient and
 * CachedDiscoveryClient): the derived questions go through the discovery helpers over the
 * cache's own serverGroups and serverResourcesForGroupVersion, so they are answered from the
 * cache; `/version` and the OpenAPI root are never cached and go to the delegate.
 */
export abstract class CachedDiscoveryBase implements CachedDiscoveryInterface {
  constructor(readonly delegate: DiscoveryInterface) {}

  abstract serverGroups(): Promise<APIGroupList>;
  abstract serverResourcesForGroupVersion(groupVersion: string): Promise<APIResourceList>;
  abstract fresh(): boolean;
  /** Forgets this cache; implementations end with invalidateDelegate(). */
  abstract invalidate(): void;

  serverGroupsAndResources(): Promise<GroupsAndResources> {
    return serverGroupsAndResources(this);
  }

  serverPreferredResources(): Promise<APIResourceList[]> {
    return serverPreferredResources(this);
  }

  serverPreferredNamespacedResources(): Promise<APIResourceList[]> {
    return serverPreferredNamespacedResources(this);
  }

  serverVersion(): Promise<VersionInfo> {
    return this.delegate.serverVersion();
  }

  openAPIV3(): OpenAPIV3Client {
    return this.delegate.openAPIV3();
  }

  /** A cache in front of another cache forgets both (a disk cache over a memory cache). */
  protected invalidateDelegate(): void {
    if (isCachedDiscovery(this.delegate)) this.delegate.invalidate();
  }
}
