import type { UserInfo } from '../apimachinery/request/types.js';
import { CONTROLLER_NAMES, controllerUser, kubeControllerManagerUser, type ControllerName } from '../authorization/rbac/bootstrap/controller-policy.js';
import { leaderelection, newSharedInformerFactoryCore, type RESTClient } from '../client/index.js';
import { ClusterRoleAggregationController } from '../controllers/clusterroleaggregation/index.js';
import { RootCACertPublisher } from '../controllers/rootcacertpublisher/index.js';
import { ServiceAccountsController } from '../controllers/serviceaccount/index.js';
import type { GenericAPIServer } from '../server/genericapiserver.js';
import { ElectedControllers, type ElectedTerm } from './leaderelection/elected.js';
import type { CompletedLeaderElectionOptions } from './leaderelection/options.js';

/** kube-controller-manager's leaderelection.NewLeaderHealthzAdaptor(time.Second * 20). */
const LEADER_HEALTHZ_TIMEOUT_MS = 20_000;

/** A controller as the control plane starts it: start returns at once, stop waits for its work to end. */
export interface StartableController {
  start(): void;
  stop(): Promise<void>;
}

export interface ControllerManagerOptions {
  /** A loopback client acting as `user`, whose requests are authorized. */
  readonly client: (user: UserInfo, name: string) => RESTClient;
  /** Resolves once the controllers may start: RBAC sees the bootstrap policy, the Lease's namespace exists. */
  readonly ready: Promise<void>;
  /**
   * The bundle that verifies the server's serving certificate, which root-ca-cert-publisher puts
   * into every namespace (kube's --root-ca-file, or the CA data of kube-controller-manager's kubeconfig).
   */
  readonly rootCA: string;
  /**
   * The controllers that work on the storages in process (the garbage collector, the namespace
   * controller): built anew for every term of leadership.
   */
  readonly inProcess: () => readonly StartableController[];
  readonly leaderElection: CompletedLeaderElectionOptions;
  /** This process's election identity (./leaderelection/identity.ts). */
  readonly identity: string;
  /** Where the Lease and the election's events are written. */
  readonly leaseClient: RESTClient;
  readonly metrics: leaderelection.LeaderMetric;
}

/**
 * kube-controller-manager inside the control plane: the garbage collector, the namespace
 * controller, service accounts, root-ca-cert-publisher and ClusterRole aggregation. The controllers
 * that work through the API act as their own service-account users
 * (--use-service-account-credentials), and their shared informers list and watch as
 * system:kube-controller-manager, so every request is authorized against the bootstrap policy.
 *
 * As kube's, they run only in the replica that holds the Lease (--leader-elect, default true:
 * kube-system/kube-controller-manager, kube's timings), and every term of leadership gets fresh
 * controllers and informers. They start once RBAC sees the bootstrap policy (`ready`) and
 * stop when shutdown begins, before the Lease is released.
 */
export function runControllerManager(server: GenericAPIServer, o: ControllerManagerOptions): { stop(): Promise<void> } {
  const le = o.leaderElection;
  let unelected: ElectedTerm | undefined;
  const elected = le.leaderElect
    ? new ElectedControllers({
        namespace: le.resourceNamespace,
        name: le.resourceName,
        identity: o.identity,
        client: o.leaseClient,
        leaseDurationMs: le.leaseDurationMs,
        renewDeadlineMs: le.renewDeadlineMs,
        retryPeriodMs: le.retryPeriodMs,
        component: 'kube-controller-manager',
        metrics: o.metrics,
        startTerm: () => startTerm(o),
      })
    : undefined;
  if (elected !== undefined) {
    // kube-controller-manager's health check of its election (20 s past an unrenewed lease), on
    // /livez: a wedged leader is what a restart cures.
    const check = new leaderelection.LeaderHealthzAdaptor(LEADER_HEALTHZ_TIMEOUT_MS);
    check.setLeaderElection(elected);
    server.addLivezChecks(check);
  }
  let stopped: Promise<void> | undefined;
  let stopping = false;
  const stop = () =>
    (stopped ??= (async () => {
      stopping = true;
      await elected?.stop();
      await unelected?.stop();
    })());
  server.addPostStartHook('start-kube-controller-manager-controllers', async () => {
    await o.ready;
    if (stopping) return;
    if (elected !== undefined) elected.start();
    else unelected = startTerm(o);
  });
  server.addPreShutdownHook('stop-kube-controller-manager-controllers', stop);
  return { stop };
}

/** Builds and starts one term's controllers, over a shared informer factory of their own. */
function startTerm(o: ControllerManagerOptions): ElectedTerm {
  const informers = { factory: newSharedInformerFactoryCore(), rest: o.client(kubeControllerManagerUser(), 'shared-informers') };
  const own = (name: ControllerName) => o.client(controllerUser(name), name);
  const controllers: StartableController[] = [
    ...o.inProcess(),
    new ClusterRoleAggregationController({ rest: own(CONTROLLER_NAMES.clusterRoleAggregation), informers }),
    new ServiceAccountsController({ rest: own(CONTROLLER_NAMES.serviceAccount), informers }),
    new RootCACertPublisher({ rest: own(CONTROLLER_NAMES.rootCACertPublisher), informers, rootCA: o.rootCA }),
  ];
  for (const c of controllers) c.start();
  informers.factory.start();
  return {
    stop: async () => {
      await Promise.all(controllers.map((c) => c.stop()));
      await informers.factory.shutdown();
    },
  };
}
