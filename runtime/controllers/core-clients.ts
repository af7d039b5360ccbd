import { CoreV1Client } from '../../generated/clientset/core/v1/index.js';
import type { RESTClient, SharedInformerFactoryCore } from '../client/index.js';

/** What a kube-controller-manager controller over core/v1 is given: its own client, and maybe the shared informers. */
export interface CoreV1ControllerClients {
  /** Where the controller's writes go: its own identity. */
  readonly rest: RESTClient;
  /** Shared informers and the client they list and watch with; absent: the controller's own, over `rest`. */
  readonly informers?: { readonly factory: SharedInformerFactoryCore; readonly rest: RESTClient };
}

/**
 * The controller's writing client, and the clientset its informers list and watch through: the
 * shared informers' identity (system:kube-controller-manager) when it takes them from the shared
 * factory, its own otherwise, so every list and watch is authorized as kube authorizes it.
 */
export function coreV1Clients(o: CoreV1ControllerClients): { client: CoreV1Client; listWatch: { coreV1: () => CoreV1Client } } {
  const listWatchClient = new CoreV1Client(o.informers?.rest ?? o.rest);
  return { client: new CoreV1Client(o.rest), listWatch: { coreV1: () => listWatchClient } };
}
