// Discovery (client-go's discovery, discovery/cached/memory and discovery/cached/disk).
export { DiscoveryClient, type DiscoveryClientOptions, type DiscoveryRequest } from './client.js';
export { ACCEPT_AGGREGATED, isAggregatedDocument, splitGroupsAndResources } from './aggregated.js';
export { ErrGroupDiscoveryFailed, StaleGroupVersionError, isGroupDiscoveryFailedError } from './errors.js';
export { serverGroupsAndResources, serverPreferredResources, serverPreferredNamespacedResources, filteredBy, fetchGroupVersionResources } from './helpers.js';
export { MemCacheClient, CacheNotFoundError, EmptyResponseError } from './memory.js';
export { CachedDiscoveryClient, discoveryCacheDir, newCachedDiscoveryClient, KUBECTL_DISCOVERY_TTL_MS, DEFAULT_DISCOVERY_TTL_MS, type CachedDiscoveryOptions } from './disk.js';
export { openAPIV3Client } from './openapi.js';
export { isAggregatedDiscovery, isCachedDiscovery } from './types.js';
export type {
  DiscoveryInterface,
  AggregatedDiscoveryInterface,
  CachedDiscoveryInterface,
  GroupsAndResources,
  GroupsAndMaybeResources,
  VersionInfo,
  OpenAPIV3Client,
  OpenAPIV3GroupVersion,
} from './types.js';
