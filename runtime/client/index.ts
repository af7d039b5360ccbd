export * from './types.js';
export * from './verbs.js';
export * from './cache.js';
export { ResourceClient, groupVersionPath, resourcePath } from './resource-client.js';
export { ClusterLister, NamespacedLister, NamespaceLister, ListerNotFoundError, metaNamespaceKey } from './lister.js';
