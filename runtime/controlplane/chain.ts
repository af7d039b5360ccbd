import type { AdmissionChain } from '../admission/types.js';
import type { APIGroupDefinition } from '../registry/types.js';
import { Config } from '../server/config.js';
import { notFoundHandler } from '../server/delegation.js';
import { DiscoveryManager, discoveryRoutes } from '../server/discovery/index.js';
import type { GenericAPIServer } from '../server/genericapiserver.js';
import { OpenAPIService, openAPIRoutes } from '../server/openapi/index.js';
import { Serving } from '../server/serving.js';
import type { StorageFactory } from '../storage/index.js';
import type { PKI } from './certs.js';
import { installAPIGroup } from './install.js';
import { NamespaceStorage } from './namespace/rest.js';
import type { CompletedServerRunOptions } from './options.js';
import type { ResourceRegistry } from './resources.js';

export interface ChainOptions {
  readonly options: CompletedServerRunOptions;
  readonly pki: PKI;
  readonly factory: StorageFactory;
  readonly resources: ResourceRegistry;
  readonly admission: AdmissionChain;
  readonly groups: readonly APIGroupDefinition[];
}

/** Which server of the chain owns a group from apis/: kube-apiserver unless named here. */
const OWNER: Readonly<Record<string, 'aggregator' | 'apiextensions'>> = {
  'apiregistration.k8s.io': 'aggregator',
  'apiextensions.k8s.io': 'apiextensions',
};

/**
 * The delegation chain: aggregator → kube-apiserver → apiextensions-apiserver → 404, each
 * handing on what it does not own, behind one filter chain and one secure port. Discovery and
 * OpenAPI are one shared model each, served by the head.
 */
export async function assembleChain(c: ChainOptions) {
  const o = c.options;
  const config = new Config({
    requestTimeoutMs: o.requestTimeoutSeconds * 1000,
    maxRequestsInFlight: o.maxRequestsInflight,
    maxMutatingRequestsInFlight: o.maxMutatingRequestsInflight,
  }).complete();
  const apiextensions = config.new({ name: 'apiextensions-apiserver', delegate: notFoundHandler() });
  const kubeAPIServer = config.new({ name: 'kube-apiserver', delegate: apiextensions });
  const aggregator = config.new({ name: 'kube-aggregator', delegate: kubeAPIServer });

  const discovery = new DiscoveryManager();
  const openapi = new OpenAPIService();
  let namespaces: NamespaceStorage | undefined;
  const servers: Record<'aggregator' | 'apiextensions' | 'core', GenericAPIServer> = { aggregator, apiextensions, core: kubeAPIServer };
  for (const group of c.groups) {
    await installAPIGroup(servers[OWNER[group.name] ?? 'core'], group, {
      ...c,
      discovery,
      openapi,
      decorate: (g, kind, storages, storage) => {
        if (g !== '' || kind !== 'Namespace') return storages;
        namespaces = new NamespaceStorage(storages, storage);
        return namespaces.storages;
      },
    });
  }
  if (namespaces === undefined) throw new Error('the core group must define Namespace');

  for (const r of discoveryRoutes(discovery, { notFound: aggregator.delegate })) mount(aggregator, r);
  for (const r of openAPIRoutes(openapi)) mount(aggregator, r);
  // kube names its storage check `etcd`; on the embedded store that name would mislead.
  aggregator.addReadyzChecks({ name: o.storageBackend === 'etcd3' ? 'etcd' : 'storage', check: () => c.factory.readinessCheck() });
  config.metrics.registerStorageObjectCounts(() => c.resources.objectCounts());

  const serving = new Serving(aggregator, { tls: { cert: c.pki.servingCertPEM, key: c.pki.servingKeyPEM, clientCA: c.pki.caCertPEM } });
  return {
    namespaces,
    discovery,
    openapi,
    servers,
    listen: () => serving.listen({ host: o.bindAddress, port: o.securePort }),
    postStartHooksDone: () => serving.postStartHooksDone(),
    shutdown: () => serving.shutdown(),
  };
}

function mount(server: GenericAPIServer, r: { path: string; prefix: boolean; handler: import('../server/http.js').Handler }): void {
  if (r.prefix) server.mux.handlePrefix(r.path, r.handler);
  else server.mux.handle(r.path, r.handler);
}
