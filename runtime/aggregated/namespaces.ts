import { CoreV1Client } from '../../generated/clientset/core/v1/index.js';
import type { ObjectLookup } from '../admission/types.js';
import { isNotFound, newInternalError } from '../apimachinery/errors/index.js';
import { restClientFromKubeconfig } from '../client/index.js';
import type { StoredObject } from '../apimachinery/object.js';

const NAMESPACES = { group: '', resource: 'namespaces' } as const;

/**
 * Lookups for admission in a standalone server: Namespaces are the control plane's, read with a
 * live GET over its kubeconfig (kube's NamespaceLifecycle reads an informer and falls back to
 * such a GET; a GET per namespaced write keeps the plugin's "consistent read" contract without
 * a second cache); every other resource is this server's own. A failed lookup is a 500
 * InternalError naming the cause, as kube's plugin answers when it cannot reach the namespace.
 */
export function namespaceLookupOverKubeconfig(kubeconfigPath: string, local: ObjectLookup): ObjectLookup {
  const { rest } = restClientFromKubeconfig({ path: kubeconfigPath, options: { userAgent: 'kube-ts-aggregated/namespace-lifecycle', timeoutMs: 10_000, maxRetries: 2 } });
  const namespaces = new CoreV1Client(rest).namespaces();
  const isNamespaces = (gr: { group: string; resource: string }): boolean => gr.group === NAMESPACES.group && gr.resource === NAMESPACES.resource;
  const getNamespace = async (name: string, ctx: { readonly signal: AbortSignal }): Promise<StoredObject | undefined> => {
    try {
      return (await namespaces.get(name, { signal: ctx.signal })) as unknown as StoredObject;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw newInternalError(new Error(`looking up namespace ${JSON.stringify(name)} in the control plane: ${(err as Error).message}`));
    }
  };
  return {
    get: (gr, namespace, name, ctx) => (isNamespaces(gr) ? getNamespace(name, ctx) : local.get(gr, namespace, name, ctx)),
    // No namespace informer here: the cached read of a namespace is the live one.
    getCached: (gr, namespace, name, ctx) => (isNamespaces(gr) ? getNamespace(name, ctx) : local.getCached(gr, namespace, name, ctx)),
    async list(gr, namespace, ctx) {
      if (!isNamespaces(gr)) return local.list(gr, namespace, ctx);
      try {
        return (await namespaces.list({ signal: ctx.signal })).items as unknown as StoredObject[];
      } catch (err) {
        throw newInternalError(new Error(`listing namespaces of the control plane: ${(err as Error).message}`));
      }
    },
  };
}
