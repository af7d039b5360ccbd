import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { namespaceLifecycle } from '../admission/plugins/namespace-lifecycle.js';
import { newAdmissionChain } from '../admission/types.js';
import { groupAdmissionPlugins } from '../controlplane/groups.js';
import { installAPIGroup } from '../controlplane/install.js';
import { serverSchemeKinds } from '../endpoints/installer.js';
import { systemContext } from '../controlplane/loopback.js';
import { ResourceRegistry } from '../registry/resources.js';
import { addStorageHealthChecks, storageConfigFor } from '../server/options/storage.js';
import type { APIGroupDefinition } from '../registry/types.js';
import { Config } from '../server/config.js';
import { DiscoveryManager, discoveryRoutes } from '../server/discovery/index.js';
import type { GenericAPIServer } from '../server/genericapiserver.js';
import type { Handler } from '../apimachinery/request/http.js';
import { OpenAPIService, openAPIRoutes } from '../server/openapi/index.js';
import { Serving } from '../server/serving.js';
import { DynamicCertKeyPairContent, DynamicServingCertificateController, StaticCertKeyContent } from '../server/dynamiccertificates/index.js';
import { newStorageFactory } from '../storage/index.js';
import { auditLogSink } from './audit-log.js';
import { delegatedAuthentication } from './authentication.js';
import { delegatedAuthorizer } from './authorization.js';
import { DelegationClients } from './delegated-clients.js';
import { ensureServingCertificate } from './certs.js';
import { namespaceLookupOverKubeconfig } from './namespaces.js';
import { completeAggregatedOptions, type AggregatedServerOptions } from './options.js';

export interface AggregatedServer {
  /** https://<bind-address>:<port> */
  readonly url: string;
  readonly port: number;
  /** The groups served. */
  readonly groups: readonly string[];
  /** The CA of a made serving certificate (the APIService's caBundle); undefined with --tls-cert-file. */
  readonly servingCA: { readonly certPEM: string; readonly file: string } | undefined;
  /** e.g. `sqlite /data/aggregated.db` or `etcd3 http://… prefix /registry/<group>` */
  readonly storageDescription: string;
  /** Whether namespaces are checked against a control plane (--kubeconfig). */
  readonly namespaceLifecycle: boolean;
  /** Whether requests are authorized by a control plane's SubjectAccessReviews (an authorization kubeconfig). */
  readonly delegatedAuthorization: boolean;
  /** Drains in-flight requests, ends watches, flushes the audit log and closes storage. */
  stop(): Promise<void>;
}

/** The server's name in logs and errors. */
export const AGGREGATED_SERVER_NAME = 'kube-ts-aggregated-apiserver';

/**
 * Starts a standalone aggregated API server in this process (sample-apiserver's server): one
 * GenericAPIServer serving the chosen ones of `groups` (the project's generated index; --groups,
 * by default all but the control plane's own) with the same install path as the control plane
 * (generic store or the group's REST overrides, strategies, the groups' admission plugins,
 * discovery, OpenAPI), on its own storage, behind its own certificate, authenticating the
 * aggregator's front proxy. Resolves once /readyz would pass.
 */
export async function startAggregatedServer(groups: readonly APIGroupDefinition[], options: AggregatedServerOptions): Promise<AggregatedServer> {
  const o = completeAggregatedOptions(options, groups);
  mkdirSync(o.dataDir, { recursive: true, mode: 0o700 });
  const certificate = await ensureServingCertificate(o);
  const clients = new DelegationClients();
  const authentication = await delegatedAuthentication(o, clients);
  const authorizer = delegatedAuthorizer(o.delegation, clients);
  const audit = o.auditLogPath === undefined ? undefined : auditLogSink(o.auditLogPath);
  const { storageConfig, storageDescription } = storageConfigFor(o, join(o.dataDir, 'aggregated.db'));
  const factory = newStorageFactory(storageConfig);

  const config = new Config({
    authenticator: authentication.authenticator,
    authorizer,
    requestTimeoutMs: o.requestTimeoutSeconds * 1000,
    ...(audit === undefined ? {} : { auditSink: audit }),
  }).complete();
  const server = config.new({ name: AGGREGATED_SERVER_NAME });

  const resources = new ResourceRegistry(systemContext);
  const lookup = o.kubeconfig === undefined ? resources.lookup() : namespaceLookupOverKubeconfig(o.kubeconfig, resources.lookup());
  // The groups' plugins see this server's own objects, and namespaces through the control plane.
  const admission = newAdmissionChain([...(o.kubeconfig === undefined ? [] : [namespaceLifecycle(lookup)]), ...groupAdmissionPlugins(o.groups, { lookup })]);
  const discovery = new DiscoveryManager();
  const openapi = new OpenAPIService();
  // One scheme for all the groups it serves, as an aggregated server's own scheme holds them.
  const schemeKinds = serverSchemeKinds(o.groups);
  for (const group of o.groups) await installAPIGroup(server, group, { factory, resources, admission, discovery, openapi, schemeKinds });
  // No core group here: /api is not served (404), as in a generic apiserver without legacy APIs.
  for (const r of discoveryRoutes(discovery, { notFound: server.delegate })) if (r.path.startsWith('/apis')) mount(server, r);
  for (const r of openAPIRoutes(openapi)) mount(server, r);
  addStorageHealthChecks(server, o.storageBackend, factory);
  config.metrics.registerStorageObjectCounts(() => resources.objectCounts());

  // kube's dynamic serving certificates: a given pair and the client CAs are followed while the server runs.
  const servingContent =
    o.tlsCertFile !== undefined && o.tlsPrivateKeyFile !== undefined
      ? new DynamicCertKeyPairContent('serving-cert', o.tlsCertFile, o.tlsPrivateKeyFile)
      : new StaticCertKeyContent('serving-cert', certificate.certPEM, certificate.keyPEM);
  const tls = new DynamicServingCertificateController({ serving: servingContent, clientCA: authentication.clientCA });
  const serving = new Serving(server, { tls: tls.tls() });
  tls.start(serving);
  if (servingContent instanceof DynamicCertKeyPairContent) servingContent.start();
  const stopCertificates = async (): Promise<void> => {
    tls.stop();
    if (servingContent instanceof DynamicCertKeyPairContent) await servingContent.stop();
  };
  let address;
  try {
    address = await serving.listen({ host: o.bindAddress, port: o.securePort });
    await serving.postStartHooksDone();
  } catch (err) {
    await serving.shutdown({ drainTimeoutMs: 0 }).catch(() => undefined);
    await stopCertificates();
    await authentication.stop();
    await factory.close();
    await audit?.close();
    throw err;
  }
  const host = o.bindAddress === '0.0.0.0' ? '127.0.0.1' : o.bindAddress === '::' ? '::1' : o.bindAddress;
  const url = `https://${host.includes(':') ? `[${host}]` : host}:${address.port}`;

  let stopped: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    groups: o.groups.map((g) => g.name),
    servingCA: certificate.ca,
    storageDescription,
    namespaceLifecycle: o.kubeconfig !== undefined,
    delegatedAuthorization: o.delegation.authorizationKubeconfig !== undefined,
    stop: () =>
      (stopped ??= (async () => {
        await serving.shutdown({ drainTimeoutMs: 2 * o.requestTimeoutSeconds * 1000 });
        await stopCertificates();
        await authentication.stop();
        await factory.close();
        await audit?.close();
      })()),
  };
}

function mount(server: GenericAPIServer, r: { path: string; prefix: boolean; handler: Handler }): void {
  if (r.prefix) server.mux.handlePrefix(r.path, r.handler);
  else server.mux.handle(r.path, r.handler);
}
