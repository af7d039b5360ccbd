// kubeconfig loading and the in-cluster convention (client-go's tools/clientcmd and rest.InClusterConfig).
export { clientConfigFor, type ClientConfig } from './client-config.js';
export { inClusterConfig, isInCluster, NotInClusterError, type InClusterOptions } from './in-cluster.js';
export { kubeconfigFiles, loadKubeconfig, mergeKubeconfigs, type LoadingRules } from './load.js';
export { parseKubeconfig } from './parse.js';
export { KubeconfigError, type AuthInfo, type Cluster, type Context, type Kubeconfig, type Origin } from './types.js';
export { loadClientConfig, restClientFromKubeconfig, type KubeconfigClient, type KubeconfigOptions } from './client.js';
