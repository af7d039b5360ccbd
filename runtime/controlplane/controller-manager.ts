import type { UserInfo } from '../apimachinery/request/types.js';
import { CONTROLLER_NAMES, controllerUser, kubeControllerManagerUser, type ControllerName } from '../authorization/rbac/bootstrap/controller-policy.js';
import { newSharedInformerFactoryCore, type RESTClient } from '../client/index.js';
import { ClusterRoleAggregationController } from '../controllers/clusterroleaggregation/index.js';
import { RootCACertPublisher } from '../controllers/rootcacertpublisher/index.js';
import { ServiceAccountsController } from '../controllers/serviceaccount/index.js';
import type { GenericAPIServer } from '../server/genericapiserver.js';

/**
 * The controllers of kube-controller-manager that work through the API (the garbage collector and
 * the namespace controller, which read the storages in process, are started by the control plane
 * itself): each acts as its own service-account user (--use-service-account-credentials), and
 * their shared informers list and watch as system:kube-controller-manager, so every request is
 * authorized against the bootstrap policy. They start once RBAC sees that policy (`rbacReady`)
 * and stop when shutdown begins. `rootCA` is the bundle that verifies the server's serving
 * certificate, which root-ca-cert-publisher puts into every namespace (kube's --root-ca-file, or
 * the CA data of kube-controller-manager's kubeconfig).
 */
export function runControllerManager(server: GenericAPIServer, o: { client: (user: UserInfo, name: string) => RESTClient; rbacReady: Promise<void>; rootCA: string }): { stop(): Promise<void> } {
  const informers = { factory: newSharedInformerFactoryCore(), rest: o.client(kubeControllerManagerUser(), 'shared-informers') };
  const own = (name: ControllerName) => o.client(controllerUser(name), name);
  const controllers = [
    new ClusterRoleAggregationController({ rest: own(CONTROLLER_NAMES.clusterRoleAggregation), informers }),
    new ServiceAccountsController({ rest: own(CONTROLLER_NAMES.serviceAccount), informers }),
    new RootCACertPublisher({ rest: own(CONTROLLER_NAMES.rootCACertPublisher), informers, rootCA: o.rootCA }),
  ];
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      await Promise.all(controllers.map((c) => c.stop()));
      await informers.factory.shutdown();
    })());
  server.addPostStartHook('start-kube-controller-manager-controllers', async () => {
    await o.rbacReady;
    for (const c of controllers) c.start();
    informers.factory.start();
  });
  server.addPreShutdownHook('stop-kube-controller-manager-controllers', stop);
  return { stop };
}
