import type { APIGroupDeclaration } from '../../runtime/registry/types.js';
import { NamespaceStorage } from '../../runtime/controlplane/namespace/rest.js';
import { ServiceStorage } from '../../runtime/controlplane/service/rest.js';
import { serviceAccountStorage } from '../../runtime/controlplane/serviceaccount/rest.js';

/**
 * What the core group declares beyond its types (kube's legacy RESTStorageProvider): Namespace
 * deletion goes through Terminating and the namespace's finalizers, and Services allocate
 * cluster IPs and node ports from the control plane's allocators, and ServiceAccounts issue tokens
 * (`serviceaccounts/<name>/token`) when the server has a token issuer.
 */
export const group = {
  server: 'kube-apiserver',
  rest: {
    Namespace: ({ storages, storage }) => new NamespaceStorage(storages, storage),
    Service: ({ storages, serviceAllocators }) => {
      if (serviceAllocators === undefined) throw new Error("Service storage needs the control plane's cluster IP and node port allocators");
      return new ServiceStorage(storages, serviceAllocators);
    },
    ServiceAccount: (ctx) => serviceAccountStorage(ctx),
  },
  // Events live --event-ttl after each create and update (kube's event storage TTLFunc), so they do not pile up.
  ttl: {
    Event: ({ eventTTLSeconds }) => (eventTTLSeconds > 0 ? () => eventTTLSeconds : undefined),
  },
  // Events are many, short-lived and rarely watched as a whole: kube serves them without a watch
  // cache (DefaultWatchCacheSizes, events#0), from storage, unless --watch-cache-sizes names them.
  watchCache: { Event: false },
} satisfies APIGroupDeclaration;
