import type { ConfigMap } from '../../../apis/core/v1/configmap.js';
import { CoreV1Client } from '../../../generated/clientset/core/v1/index.js';
import { newSharedIndexInformer, type SharedIndexInformerImpl } from '../../client/index.js';
import type { RESTClient } from '../../client/types.js';

/**
 * An informer of one ConfigMap (kube's NewFilteredConfigMapInformer with a metadata.name field
 * selector): what the trust controller and the readers of its ConfigMap watch, so that neither
 * caches the other ConfigMaps of the namespace.
 */
export function newSingleConfigMapInformer(rest: RESTClient, namespace: string, name: string): SharedIndexInformerImpl<ConfigMap> {
  const client = new CoreV1Client(rest).configmaps(namespace);
  const fieldSelector = `metadata.name=${name}`;
  return newSharedIndexInformer<ConfigMap>({
    name: `configmaps ${namespace}/${name}`,
    listWatch: {
      list: (options) => client.list({ ...options, fieldSelector }),
      watch: (options) => client.watch({ ...options, fieldSelector }),
    },
  });
}
