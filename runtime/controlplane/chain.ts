import type { AdmissionChain } from '../admission/types.js';
import { mergeAggregatedAPIs, type AggregationTimings } from '../aggregator/discovery-aggregation.js';
import { APIAggregator, builtinAPIServices, type APIAggregatorOptions } from '../aggregator/index.js';
import { APIExtensionsControllers, groupReservedNames } from '../apiextensions/controllers/index.js';
import { endpointServiceResolver, newCRDHandler } from '../apiextensions/index.js';
import { LoopbackRESTClient } from '../client/loopback/index.js';
import type { UserInfo } from '../apimachinery/request/types.js';
import { withFilters } from '../apimachinery/request/http.js';
import { withAuthorization } from '../endpoints/filters/authorization.js';
import { serverSchemeKinds } from '../endpoints/installer.js';
import { BOOTSTRAP_ROLES_HOOK, ensureBootstrapPolicy } from '../controllers/rbacbootstrap/index.js';
import type { APIGroupDefinition, GroupServer } from '../registry/types.js';
import { Config } from '../server/config.js';
import { notFoundHandler } from '../server/delegation.js';
import { DiscoveryManager, discoveryRoutes, newDiscoveryHandler } from '../server/discovery/index.js';
import type { GenericAPIServer } from '../server/genericapiserver.js';
import { OpenAPIService, openAPIRoutes } from '../server/openapi/index.js';
import { Serving } from '../server/serving.js';
import type { StorageFactory } from '../storage/index.js';
import type { PKI } from './certs.js';
import { groupServer } from './groups.js';
import { installAPIGroup } from './install.js';
import { APISERVER_USER } from './loopback.js';
import { PolicyInformers } from './rbac/policy-informers.js';
import { newControlPlaneSecurity } from './security.js';
import { SingletonControllers } from './leaderelection/singletons.js';
import { ClusterAuthenticationTrustController } from '../controllers/clusterauthenticationtrust/index.js';
import { NamespaceStorage } from './namespace/rest.js';
import { newServiceAllocators } from './service/ranges.js';
import { ServiceStorage } from './service/rest.js';
import { addStorageHealthChecks } from '../server/options/storage.js';
import type { CompletedServerRunOptions } from './options.js';
import type { ResourceRegistry } from '../registry/resources.js';
import type { ConnectionSource } from './workers/handoff.js';

export interface ChainOptions {
  readonly options: CompletedServerRunOptions;
  readonly pki: PKI;
  readonly factory: StorageFactory;
  readonly resources: ResourceRegistry;
  readonly admission: AdmissionChain;
  /** The groups served in process, each on the server it declares (none declared `aggregated`). */
  readonly groups: readonly APIGroupDefinition[];
  /** The aggregator's timings (availability check period, connect timeout, discovery and OpenAPI refresh); kube's defaults otherwise. */
  readonly aggregator?: Pick<APIAggregatorOptions, 'availabilityCheckPeriodMs' | 'discoveryCheckTimeoutMs' | 'connectTimeoutMs'> & AggregationTimings;
}

/**
 * The delegation chain: aggregator → kube-apiserver → apiextensions-apiserver → 404, each
 * handing on what it does not own, behind one filter chain and one secure port. Discovery and
 * OpenAPI are one shared model each, served by the head.
 */
export async function assembleChain(c: ChainOptions) {
  const o = c.options;
  let externalAddress = '';
  const security = await newControlPlaneSecurity(o, c.pki, c.resources, () => externalAddress);
  const config = new Config({
    authenticator: security.authenticator,
    authorizer: security.authorizer,
    requestTimeoutMs: o.requestTimeoutSeconds * 1000,
    maxRequestsInFlight: o.maxRequestsInflight,
    maxMutatingRequestsInFlight: o.maxMutatingRequestsInflight,
    shutdownDelayDurationMs: o.shutdownDelayDurationMs,
    shutdownSendRetryAfter: o.shutdownSendRetryAfter,
    shutdownWatchTerminationGracePeriodMs: o.shutdownWatchTerminationGracePeriodMs,
  }).complete();
  const apiextensions = config.new({ name: 'apiextensions-apiserver', delegate: notFoundHandler() });
  const kubeAPIServer = config.new({ name: 'kube-apiserver', delegate: apiextensions });
  const aggregator = config.new({ name: 'kube-aggregator', delegate: kubeAPIServer });

  const discovery = new DiscoveryManager();
  const openapi = new OpenAPIService();
  const serviceAllocators = await newServiceAllocators(c.factory, { ipRanges: o.serviceClusterIPRanges, nodePorts: o.serviceNodePortRange });
  const servers: Record<'aggregator' | 'apiextensions' | 'core', GenericAPIServer> = { aggregator, apiextensions, core: kubeAPIServer };
  // Each server of the chain decodes with one scheme holding all of its groups (kube-apiserver's legacyscheme).
  const schemeKindsOf = (server: 'aggregator' | 'apiextensions' | 'core') => serverSchemeKinds(c.groups.filter((g) => chainServer(g) === server));
  const schemes = { aggregator: schemeKindsOf('aggregator'), apiextensions: schemeKindsOf('apiextensions'), core: schemeKindsOf('core') };
  for (const group of c.groups) {
    const server = chainServer(group);
    await installAPIGroup(servers[server], group, { ...c, discovery, openapi, restContext: { serviceAllocators, auth: security.rest }, schemeKinds: schemes[server] });
  }
  // The control plane's own controllers work on the core group's Namespace and Service storages,
  // as the core group declares them (apis/core/group.ts).
  const namespaces = c.resources.get({ group: '', resource: 'namespaces' })?.override;
  if (!(namespaces instanceof NamespaceStorage)) throw new Error('the core group must serve namespaces from NamespaceStorage');
  const services = c.resources.get({ group: '', resource: 'services' })?.override;
  if (!(services instanceof ServiceStorage)) throw new Error('the core group must serve services from ServiceStorage');
  // The control plane's own client: requests go into the head's handler, behind the filters.
  const loopback = new LoopbackRESTClient({ handler: aggregator.handler, user: APISERVER_USER, userAgent: 'kube-apiserver/loopback' });
  // A controller of kube-controller-manager's acts as its own user, and its requests are authorized
  // as any client's (the loopback's own user is system:masters, for which the filter is moot).
  const authorized = withFilters([withAuthorization(security.authorizer, config.logger)], aggregator.handler);
  const controllerClient = (user: UserInfo, name: string) => new LoopbackRESTClient({ handler: authorized, user, userAgent: `kube-controller-manager/${name}` });
  const rbac = serveRBAC(kubeAPIServer, { policy: new PolicyInformers(security.policy, loopback), loopback });
  // kube-apiserver's own publisher of what aggregated servers must trust (its CAs, front-proxy headers).
  const authenticationTrust = new ClusterAuthenticationTrustController({
    rest: loopback,
    content: () => ({
      ...security.trustedCAs(),
      requestHeaderAllowedNames: o.requestheaderAllowedNames,
      requestHeaderUsernameHeaders: o.requestheaderUsernameHeaders,
      requestHeaderGroupHeaders: o.requestheaderGroupHeaders,
      requestHeaderExtraHeaderPrefixes: o.requestheaderExtraHeadersPrefix,
    }),
  });
  security.certificates.addCAListener(authenticationTrust);
  kubeAPIServer.addPostStartHook('start-cluster-authentication-info-controller', async () => authenticationTrust.start());
  kubeAPIServer.addPreShutdownHook('stop-cluster-authentication-info-controller', async () => authenticationTrust.stop());
  // The servers' controllers that must run in one replica at a time, run by the control plane
  // under their Lease; without leader election each process runs them itself.
  const singletons = o.leaderElection.leaderElect ? new SingletonControllers() : undefined;
  const customResources = serveCustomResources(apiextensions, c, { loopback, discovery, openapi, requestTimeoutSeconds: o.requestTimeoutSeconds, singletons });

  for (const r of discoveryRoutes(discovery, { notFound: aggregator.delegate })) mount(aggregator, r);
  for (const r of openAPIRoutes(openapi)) mount(aggregator, r);
  for (const r of security.openIDRoutes) mount(aggregator, r);
  const apiAggregator = serveAPIServices(aggregator, c, { loopback, discovery, singletons });
  const aggregatedAPIs = mergeAggregatedAPIs(aggregator, {
    apiServices: apiAggregator.registry,
    discovery,
    openapi,
    discoveryResyncPeriodMs: c.aggregator?.discoveryResyncPeriodMs,
    openAPIResyncPeriodMs: c.aggregator?.openAPIResyncPeriodMs,
  });
  addStorageHealthChecks(aggregator, o.storageBackend, c.factory);
  config.metrics.registerStorageObjectCounts(() => c.resources.objectCounts());

  const serving = new Serving(aggregator, { tls: security.certificates.tls() });
  // Before the port is bound, as kube starts its certificate controllers: no handshake sees stale files.
  security.certificates.start(serving);
  return {
    namespaces,
    services,
    serviceAllocators,
    discovery,
    openapi,
    servers,
    loopback,
    /** The authorizer of every request (--authorization-mode behind system:masters). */
    authorizer: security.authorizer,
    /** A loopback client acting as `user`, whose requests are authorized: what a controller with its own identity uses. */
    controllerClient,
    /** Resolves once RBAC sees the bootstrap policy: controllers acting as their own users start after it. */
    rbacReady: rbac.ready,
    /** The APIServices the aggregator handles and how to reach their servers. */
    apiServices: apiAggregator.registry,
    /** The metrics the head serves on /metrics. */
    metrics: config.metrics,
    /** The servers' singleton controllers, for the control plane to run under their Lease; undefined with --leader-elect=false (each process runs its own). */
    singletons,
    listen: async () => {
      const address = await serving.listen({ host: o.bindAddress, port: o.securePort });
      externalAddress = externalAddressOf(o.bindAddress, address.port);
      return address;
    },
    /**
     * Serves the connections `source` hands over instead of listening (a --workers worker, whose
     * primary listens). Their delivery ends when Serving would close its listener: when new
     * requests are refused, or with --shutdown-send-retry-after once in-flight ones are drained.
     */
    serve: async (source: ConnectionSource) => {
      await serving.fastify.ready();
      const signals = aggregator.config.lifecycleSignals;
      const stopped = aggregator.config.shutdownSendRetryAfter ? signals.inFlightRequestsDrained.wait() : signals.notAcceptingNewRequest.wait();
      source.start((socket) => serving.httpServer.emit('connection', socket), stopped);
      externalAddress = externalAddressOf(o.bindAddress, source.port);
      return { port: source.port };
    },
    /** Runs the post-start hooks before listen: see Serving.startPostStartHooks. */
    startPostStartHooks: () => serving.startPostStartHooks(),
    postStartHooksDone: () => serving.postStartHooksDone(),
    /** Every built-in group version has its APIService, seen Available (readyz autoregister-completion). */
    autoregistrationComplete: (signal?: AbortSignal) => apiAggregator.autoregistrationComplete(signal),
    shutdown: async () => {
      await serving.shutdown();
      await security.certificates.stop();
      await aggregatedAPIs.stop();
      await apiAggregator.stop();
      await customResources.stop();
      await authenticationTrust.stop();
      await rbac.stop();
    },
  };
}

/**
 * RBAC in the control plane: the `rbac/bootstrap-roles` post-start hook (kube's) starts the
 * informers the authorizer reads, creates or reconciles the bootstrap policy, and waits for the
 * informers, so /readyz passes only once RBAC sees the policy. `ready` resolves then: controllers
 * acting as their own users start after it.
 */
function serveRBAC(server: GenericAPIServer, o: { policy: PolicyInformers; loopback: LoopbackRESTClient }): { ready: Promise<void>; stop(): Promise<void> } {
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  server.addPostStartHook(BOOTSTRAP_ROLES_HOOK, async ({ signal }) => {
    o.policy.start();
    await ensureBootstrapPolicy(o.loopback, signal);
    if (!(await o.policy.caughtUp(signal))) throw new Error('stopped before the RBAC informers synced');
    markReady();
  });
  return { ready, stop: () => o.policy.stop() };
}

/**
 * apiextensions-apiserver's own part: the custom resources of CRDs under `/apis/` (the CRD
 * group itself is installed like any group from apis/, and its longer prefix wins), served from
 * the CRD informer its controllers share (naming, establishing, finalizer, discovery, OpenAPI),
 * all over the loopback client; unmatched requests go on to 404. Its post-start hooks start
 * the informer and the controllers; /readyz waits for `crd-informer-synced` (the informer has
 * synced and discovery and OpenAPI describe every CRD). Controllers stop when shutdown begins.
 */
function serveCustomResources(
  apiextensions: GenericAPIServer,
  c: ChainOptions,
  o: { loopback: LoopbackRESTClient; discovery: DiscoveryManager; openapi: OpenAPIService; requestTimeoutSeconds: number; singletons: SingletonControllers | undefined },
): { stop(): Promise<void> } {
  const builtinGroupVersions = new Set(c.groups.flatMap((g) => g.versions.map((v) => `${g.name}/${v.name}`)));
  const controllers = new APIExtensionsControllers({
    rest: o.loopback,
    discovery: o.discovery.forSource('crd'),
    openapi: o.openapi,
    reservedNames: groupReservedNames(c.groups),
    isBuiltinGroupVersion: (group, version) => builtinGroupVersions.has(`${group}/${version}`),
    ...(o.singletons !== undefined ? { singletons: o.singletons } : {}),
  });
  const crdHandler = newCRDHandler({
    source: controllers.source,
    factory: c.factory,
    admission: c.admission,
    resources: c.resources,
    delegate: apiextensions.delegate,
    serviceResolver: endpointServiceResolver(c.resources.lookup()),
    drainTimeoutMs: 2 * o.requestTimeoutSeconds * 1000,
  });
  apiextensions.mux.handlePrefix('/apis/', crdHandler.handler, { listed: false });
  apiextensions.addPostStartHook('start-apiextensions-informers', async () => controllers.startInformers());
  apiextensions.addPostStartHook('start-apiextensions-controllers', async () => controllers.start());
  apiextensions.addPostStartHook('crd-informer-synced', async ({ signal }) => {
    if (!(await controllers.synced(signal))) throw new Error('stopped before the CRD informer synced');
  });
  apiextensions.addPreShutdownHook('stop-apiextensions-controllers', () => controllers.stop());
  return {
    stop: async () => {
      await controllers.stop();
      await crdHandler.stop();
    },
  };
}

/**
 * kube-aggregator's own part: a proxy handler per APIService (local ones hand on to discovery
 * and the servers behind, service-backed ones are proxied with the front-proxy client
 * certificate), the availability controllers, and local APIServices kept for every group
 * version the servers behind it serve and for every CRD's.
 */
function serveAPIServices(
  aggregator: GenericAPIServer,
  c: ChainOptions,
  o: { loopback: LoopbackRESTClient; discovery: DiscoveryManager; singletons: SingletonControllers | undefined },
): APIAggregator {
  const delegated = c.groups.filter((g) => chainServer(g) !== 'aggregator');
  const builtinGroupVersions = new Set(c.groups.flatMap((g) => g.versions.map((v) => `${g.name}/${v.name}`)));
  return new APIAggregator({
    server: aggregator,
    rest: o.loopback,
    localDelegate: newDiscoveryHandler(o.discovery, { notFound: aggregator.delegate }),
    proxyClientCertificate: { certPEM: c.pki.frontProxyClientCertPEM, keyPEM: c.pki.frontProxyClientKeyPEM },
    builtinAPIServices: builtinAPIServices(delegated),
    isBuiltinGroupVersion: (group, version) => builtinGroupVersions.has(`${group}/${version}`),
    ...aggregatorTimings(c.aggregator),
    ...(o.singletons !== undefined ? { singletons: o.singletons } : {}),
  });
}

/** The member of the chain a group declares it is served by. */
function chainServer(group: APIGroupDefinition): 'aggregator' | 'apiextensions' | 'core' {
  const server: GroupServer = groupServer(group);
  if (server === 'aggregated') throw new Error(`group ${group.name} is served by an aggregated API server, not in process`);
  return server === 'kube-aggregator' ? 'aggregator' : server === 'apiextensions-apiserver' ? 'apiextensions' : 'core';
}

function aggregatorTimings(t: ChainOptions['aggregator']): Pick<APIAggregatorOptions, 'availabilityCheckPeriodMs' | 'discoveryCheckTimeoutMs' | 'connectTimeoutMs'> {
  const { discoveryResyncPeriodMs: _discovery, openAPIResyncPeriodMs: _openapi, ...rest } = t ?? {};
  return rest;
}

function mount(server: GenericAPIServer, r: { path: string; prefix: boolean; handler: import('../apimachinery/request/http.js').Handler }): void {
  if (r.prefix) server.mux.handlePrefix(r.path, r.handler);
  else server.mux.handle(r.path, r.handler);
}

/** host:port clients reach the secure port at (a wildcard bind address is reached on loopback). */
function externalAddressOf(bindAddress: string, port: number): string {
  const host = bindAddress === '0.0.0.0' || bindAddress === '::' ? '127.0.0.1' : bindAddress;
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
