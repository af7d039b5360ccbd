import { restClientForConfig, type HTTPRESTClient } from '../rest/client.js';
import type { RESTClientOptions } from '../rest/config.js';
import { clientConfigFor, type ClientConfig } from './client-config.js';
import { inClusterConfig, isInCluster, type InClusterOptions } from './in-cluster.js';
import { kubeconfigFiles, loadKubeconfig, type LoadingRules } from './load.js';
import { KubeconfigError } from './types.js';

export interface KubeconfigOptions extends LoadingRules {
  /** The context to use instead of current-context. */
  readonly context?: string;
  /** Where the in-cluster fallback looks (tests). */
  readonly inCluster?: InClusterOptions;
}

/**
 * The client configuration as kubectl finds it: the explicit path, else the KUBECONFIG list,
 * else ~/.kube/config; when none of those files exists (and no path was given), the in-cluster
 * service account, as clientcmd's deferred loader falls back to it.
 */
export function loadClientConfig(o: KubeconfigOptions = {}): ClientConfig {
  const kc = loadKubeconfig(o);
  const empty = kc === undefined || (kc.contexts.size === 0 && kc.clusters.size === 0);
  const explicit = o.path !== undefined && o.path !== '';
  if (empty && !explicit && (o.context ?? '') === '' && isInCluster({ ...o.inCluster, env: o.inCluster?.env ?? o.env })) {
    return inClusterConfig({ ...o.inCluster, env: o.inCluster?.env ?? o.env });
  }
  if (kc === undefined) {
    const { files } = kubeconfigFiles(o);
    throw new KubeconfigError(files.join(':'), '', 'no kubeconfig found (and not running in a cluster)');
  }
  return clientConfigFor(kc, o.context);
}

/** An HTTP client, with the namespace and context it was configured with. */
export interface KubeconfigClient {
  readonly rest: HTTPRESTClient;
  readonly namespace: string;
  readonly context: string;
}

/**
 * The REST client of a kubeconfig context (or of the pod it runs in):
 * `const { rest, namespace } = restClientFromKubeconfig(); new Clientset(rest)`.
 */
export function restClientFromKubeconfig(o: KubeconfigOptions & { readonly options?: RESTClientOptions } = {}): KubeconfigClient {
  const cc = loadClientConfig(o);
  return { rest: restClientForConfig({ ...o.options, ...cc.rest }), namespace: cc.namespace, context: cc.context };
}
