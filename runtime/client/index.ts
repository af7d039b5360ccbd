export * from './types.js';
export * from './verbs.js';
export * from './cache.js';
export { ResourceClient, groupVersionPath, resourcePath } from './resource-client.js';
export { ClusterLister, NamespacedLister, NamespaceLister, ListerNotFoundError, metaNamespaceKey } from './lister.js';
// REST client over HTTP(S) and kubeconfig / in-cluster configuration (client-go's rest and clientcmd).
export { HTTPRESTClient, restClientForConfig, RESTConfigError, TransportError, DecodeError, warningLogger, noWarnings } from './rest/index.js';
export type { RESTConfig, RESTClientOptions, TLSClientConfig, Warning, WarningHandler } from './rest/index.js';
export { restClientFromKubeconfig, loadClientConfig, inClusterConfig, isInCluster, KubeconfigError, NotInClusterError } from './kubeconfig/index.js';
export type { ClientConfig, KubeconfigClient, KubeconfigOptions } from './kubeconfig/index.js';
