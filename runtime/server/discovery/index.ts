// Discovery: the model shared by the servers of the chain and the handlers serving it.
export type {
  DiscoveryRegistry,
  DiscoverySource,
  GroupVersionDescription,
  GroupVersionOptions,
  GroupVersionPriorities,
  GroupVersionPriority,
  ResourceDescription,
  SubresourceDescription,
} from './types.js';
export { DISCOVERY_SOURCE_PRECEDENCE } from './types.js';
export { DiscoveryManager } from './manager.js';
export { DiscoverySnapshot, type EncodedDocument } from './snapshot.js';
export type { AggregatedDiscoveryVersion, ResolvedGroup, ResolvedVersion } from './documents.js';
export { discoveryFromGroupDefinition, type GroupDefinitionDiscoveryOptions } from './from-group-definition.js';
export { KUBE_API_VERSION_PRIORITIES, DEFAULT_GROUP_PRIORITY_MINIMUM, PREFERRED_VERSION_PRIORITY, AGGREGATOR_GROUP_PRIORITY_MINIMUM, builtinGroupVersionPriority } from './priorities.js';
export { storageVersionHash } from './storage-version-hash.js';
export { compareVersionsForDiscovery } from './version-order.js';
export { negotiateDiscovery, aggregatedContentType, type DiscoveryFormat } from './negotiation.js';
export { newDiscoveryHandler, discoveryRoutes, type DiscoveryHandlerOptions, type DiscoveryRoute } from './handlers.js';
