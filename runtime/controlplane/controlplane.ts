import { join } from 'node:path';
import { newAdmissionChain } from '../admission/types.js';
import { namespaceLifecycle } from '../admission/plugins/namespace-lifecycle.js';
import type { LoopbackRESTClient } from '../client/loopback/index.js';
import type { APIGroupDefinition } from '../registry/types.js';
import { storageConfigFor } from '../server/options/storage.js';
import { newStorageFactory } from '../storage/index.js';
import { assembleChain, type ChainOptions } from './chain.js';
import type { PKI } from './certs.js';
import { prepareDataDir } from './datadir.js';
import { groupAdmissionPlugins, groupServer, withBuiltinGroups } from './groups.js';
import { GarbageCollector } from '../controllers/garbagecollector/index.js';
import { writeAdminKubeconfig } from './kubeconfig.js';
import { systemContext, userContext } from './loopback.js';
import { runControllerManager } from './controller-manager.js';
import { runAPIServerSingletons } from './leaderelection/apiserver-singletons.js';
import { electionIdentity } from './leaderelection/identity.js';
import { newLeaderElectionMetrics } from './leaderelection/metrics.js';
import { authorizedNamespaceFinalizing, authorizedResources, authorizedStorage } from './authorized-resources.js';
import { CONTROLLER_NAMES, controllerUser, kubeControllerManagerUser } from '../authorization/rbac/bootstrap/controller-policy.js';
import { NamespaceController } from '../controllers/namespace/controller.js';
import { ensureSystemNamespaces } from '../controllers/namespace/system.js';
import { completeOptions, type ServerRunOptions } from './options.js';
import { defaultAdvertiseAddress, KubernetesServiceController } from '../controllers/kubernetesservice/controller.js';
import { APIServerLeases } from '../controllers/kubernetesservice/leases.js';
import { ServiceIPRepair } from '../controllers/servicerepair/repair.js';
import { ResourceRegistry } from '../registry/resources.js';
import type { ConnectionSource } from './workers/handoff.js';

export interface ControlPlane {
  /** https://<bind-address>:<port> */
  readonly url: string;
  readonly port: number;
  readonly kubeconfigPath: string;
  readonly caPEM: string;
  /** e.g. `sqlite /data/kube.db` or `etcd3 http://…` */
  readonly storageDescription: string;
  /**
   * A client whose requests go into the chain in process, as system:apiserver (kube's loopback
   * client config): what the control plane's own controllers use.
   */
  readonly loopback: LoopbackRESTClient;
  /** Drains in-flight requests, ends watches, stops controllers and closes storage. */
  stop(): Promise<void>;
}

/** The command's options, and what only an in-process caller (the command's entry, a test) gives. */
export interface ControlPlaneOptions extends ServerRunOptions {
  /**
   * The project's API groups (its generated index), served beside the built-in groups, which are
   * always served: a group named like a built-in one is that one. Groups declared `aggregated`
   * are left to their aggregated server.
   */
  readonly groups?: readonly APIGroupDefinition[];
  /** The aggregator's timings: availability check period, discovery check and connect timeouts. */
  readonly aggregator?: ChainOptions['aggregator'];
  /** prepareDataDir for these options, when the caller began it before loading this module (the command does). */
  readonly pki?: Promise<PKI>;
  /**
   * Connections handed over by another process instead of listening (a --workers worker: its
   * primary listens); they are taken only once ready (post-start hooks done, built-in APIServices
   * registered), not in kube's order (listen, then the hooks), as a load balancer takes a replica
   * into rotation once its /readyz passes.
   */
  readonly connections?: ConnectionSource;
}

/**
 * Starts the whole control plane in this process: storage, the three servers of the delegation
 * chain behind one secure port, the admin kubeconfig, and the controllers (system namespaces,
 * namespace deletion). Resolves once /readyz would pass.
 */
export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const o = completeOptions(options);
  const pki = await (options.pki ?? prepareDataDir(o));

  const { storageConfig, storageDescription } = storageConfigFor(o, join(o.dataDir, 'kube.db'));
  const factory = newStorageFactory(storageConfig);

  const resources = new ResourceRegistry(systemContext);
  const groups = withBuiltinGroups(options.groups ?? []).filter((g) => groupServer(g) !== 'aggregated');
  const lookup = resources.lookup();
  const admission = newAdmissionChain([namespaceLifecycle(lookup), ...groupAdmissionPlugins(groups, { lookup })]);
  const chain = await assembleChain({ options: o, pki, factory, resources, admission, groups, ...(options.aggregator !== undefined ? { aggregator: options.aggregator } : {}) });

  // The bootstrap controller (system namespaces, kept present) runs as a post-start hook of
  // kube-apiserver: /readyz passes once the namespaces exist.
  const namespaces = chain.namespaces;
  // kube-controller-manager's controllers act as their own users, inside their roles
  // (bootstrap policy system:controller:<name>): their storage calls are authorized.
  const namespaceUser = controllerUser(CONTROLLER_NAMES.namespace);
  const newNamespaceController = () =>
    new NamespaceController({
      namespaces: authorizedNamespaceFinalizing(namespaces, chain.authorizer, namespaceUser),
      resources: () =>
        resources
          .deletable()
          .filter((r) => r.namespaced)
          .map((r) => ({ group: r.group, resource: r.resource, storage: authorizedStorage(r, r.rest.main, chain.authorizer) })),
      // An unavailable aggregated API is a discovery failure: kube's controller cannot see its content.
      discoveryFailures: () =>
        chain.apiServices
          .list()
          .filter((a) => !a.local && !a.available)
          .map((a) => `${a.group}/${a.version}: stale GroupVersion discovery: ${a.group}/${a.version}`),
      context: (namespace, parent) => userContext(namespaceUser, namespace, parent),
    });
  let systemNamespacesTimer: NodeJS.Timeout | undefined;
  let systemNamespacesExist: () => void = () => {};
  const systemNamespaces = new Promise<void>((resolve) => (systemNamespacesExist = resolve));
  chain.servers.core.addPostStartHook('bootstrap-controller', async ({ signal }) => {
    await ensureSystemNamespaces(namespaces.storages.main, systemContext('', { signal }));
    systemNamespacesExist();
    systemNamespacesTimer = setInterval(() => {
      ensureSystemNamespaces(namespaces.storages.main, systemContext('', { signal })).catch(() => {});
    }, 60_000);
    systemNamespacesTimer.unref();
  });
  // kube-controller-manager's garbage collector, over the REST storages of every served
  // resource (CRDs' as they come and go): propagationPolicy deletes finish here.
  const gcUser = controllerUser(CONTROLLER_NAMES.garbageCollector);
  const newGarbageCollector = () =>
    new GarbageCollector({
      resources: authorizedResources({ all: () => resources.deletable() }, chain.authorizer),
      context: (namespace, parent) => userContext(gcUser, namespace, parent),
    });
  const identity = electionIdentity(o.dataDir, o.leaderElection.identitySuffix);
  // One set of leader_election_* metrics for both elections, labelled by their Lease's name.
  const electionMetrics = newLeaderElectionMetrics(chain.metrics.registry);
  // kube-controller-manager's controllers, in the replica that holds its Lease; every term of
  // leadership gets a fresh garbage collector and namespace controller.
  const controllerManager = runControllerManager(chain.servers.core, {
    client: chain.controllerClient,
    // The Lease lives in kube-system: campaigning before it exists would only fail and retry.
    ready: Promise.all([chain.rbacReady, systemNamespaces]).then(() => undefined),
    rootCA: pki.caCertPEM,
    inProcess: () => [newNamespaceController(), newGarbageCollector()],
    leaderElection: o.leaderElection,
    identity,
    // As kube: the Lease and its events are written as system:kube-controller-manager, whose
    // bootstrap role may create Leases and get and update the one named kube-controller-manager
    // (another --leader-elect-resource-name needs a binding of its own, as in kube).
    leaseClient: chain.controllerClient(kubeControllerManagerUser(), 'leader-election'),
    metrics: electionMetrics,
  });
  const apiserverSingletons = runAPIServerSingletons(chain, { leaderElection: o.leaderElection, identity, metrics: electionMetrics, ready: systemNamespaces });

  // Cluster IPs and node ports: the ranges are repaired from the stored Services before the
  // `kubernetes` Service (first IP of the primary range, port 443 to the secure port) is created and kept.
  const serviceIPRepair = new ServiceIPRepair({ services: chain.services, allocators: chain.serviceAllocators, context: systemContext });
  chain.servers.core.addPostStartHook('start-service-ip-repair-controllers', async () => serviceIPRepair.start());
  chain.servers.core.addPreShutdownHook('stop-service-ip-repair-controllers', async () => serviceIPRepair.stop());
  let kubernetesService: KubernetesServiceController | undefined;
  let bound: (port: number) => void = () => {};
  const boundPort = new Promise<number>((resolve) => (bound = resolve));
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const startKubernetesService = async (signal: AbortSignal): Promise<void> => {
    // As kube's controller (it polls /readyz before its first reconcile), it starts once the
    // server is ready, so its first writes do not compete with starting up.
    await ready;
    await ensureSystemNamespaces(namespaces.storages.main, systemContext('', { signal }));
    if (signal.aborted) return;
    kubernetesService = new KubernetesServiceController({
      rest: chain.loopback,
      endpoints: resources.all().some((r) => r.group === '' && r.resource === 'endpoints'),
      leases: new APIServerLeases(await factory.forResource({ resourcePrefix: '/masterleases/', watchCache: false })),
      serviceIP: chain.serviceAllocators.ipRanges.byFamily.get(chain.serviceAllocators.ipRanges.primary)?.ipAt(0) ?? '',
      publicIP: o.advertiseAddress ?? defaultAdvertiseAddress(o.bindAddress),
      securePort: await boundPort,
    });
    await kubernetesService.start();
  };
  // Like kube's, the controller runs beside the server: readiness does not wait for the Service.
  chain.servers.core.addPostStartHook('start-kubernetes-service-controller', async ({ signal }) => {
    startKubernetesService(signal).catch(() => {});
  });
  chain.servers.core.addPreShutdownHook('stop-kubernetes-service-controller', async () => kubernetesService?.stop());

  // /readyz also waits for the built-in APIServices (autoregister-completion), which are written after the hooks.
  const readyToServe = async (): Promise<void> => {
    await chain.postStartHooksDone();
    await chain.autoregistrationComplete();
  };
  let port: number;
  if (options.connections !== undefined) {
    // Nothing the hooks run needs the port: the Service controller above waits for `ready`.
    void chain.startPostStartHooks();
    await readyToServe();
    ({ port } = await chain.serve(options.connections));
    bound(port);
  } else {
    ({ port } = await chain.listen());
    bound(port);
    await readyToServe();
  }
  // After the caller has seen the server ready (its ready line is printed in a microtask).
  setImmediate(markReady);
  const host = o.bindAddress.includes(':') ? `[${o.bindAddress}]` : o.bindAddress === '0.0.0.0' ? '127.0.0.1' : o.bindAddress;
  const url = `https://${host}:${port}`;
  const kubeconfigPath = join(o.dataDir, 'admin.kubeconfig');
  writeAdminKubeconfig(kubeconfigPath, { server: url, caCertPEM: pki.caCertPEM, clientCertPEM: pki.adminCertPEM, clientKeyPEM: pki.adminKeyPEM });

  let stopped: Promise<void> | undefined;
  return {
    url,
    port,
    kubeconfigPath,
    caPEM: pki.caCertPEM,
    storageDescription,
    loopback: chain.loopback,
    stop: () =>
      (stopped ??= (async () => {
        clearInterval(systemNamespacesTimer);
        await kubernetesService?.stop();
        serviceIPRepair.stop();
        await chain.shutdown();
        await controllerManager.stop();
        await apiserverSingletons?.stop();
        await factory.close();
      })()),
  };
}
