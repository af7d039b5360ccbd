import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../../../apis/rbac/v1/types.js';
import { RbacV1Client } from '../../../generated/clientset/rbac/v1/index.js';
import { newClusterRoleInformer } from '../../../generated/informers/rbac/v1/clusterrole.js';
import { newClusterRoleBindingInformer } from '../../../generated/informers/rbac/v1/clusterrolebinding.js';
import { newRoleInformer } from '../../../generated/informers/rbac/v1/role.js';
import { newRoleBindingInformer } from '../../../generated/informers/rbac/v1/rolebinding.js';
import type { PolicyStore } from '../../authorization/rbac/index.js';
import { isDeletedFinalStateUnknown, newSharedInformerFactoryCore, type DeepReadonly, type RESTClient, type SharedIndexInformer, type SharedInformerFactoryCore } from '../../client/index.js';

/**
 * The RBAC authorizer's view of roles and bindings: four shared informers over the API server's
 * own loopback client (kube's RBAC authorizer reads the same informers), each event applied to
 * the PolicyStore the authorizer indexes. Until the informers have synced the store is empty,
 * and only the privileged group (system:masters, the loopback's) is allowed: /readyz waits for
 * synced() through the `rbac/bootstrap-roles` hook, as kube's does.
 */
export class PolicyInformers {
  private readonly factory: SharedInformerFactoryCore;

  /** `store` is the one the RBAC authorizer reads: it exists before the server (and its loopback client) does. */
  constructor(
    readonly store: PolicyStore,
    rest: RESTClient,
  ) {
    this.factory = newSharedInformerFactoryCore();
    const client = new RbacV1Client(rest);
    const clientset = { rbacV1: () => client };
    feed<ClusterRole>(newClusterRoleInformer(this.factory, clientset).informer(), {
      upsert: (o) => store.upsertClusterRole(o),
      remove: (o) => store.removeClusterRole(name(o)),
    });
    feed<Role>(newRoleInformer(this.factory, clientset).informer(), {
      upsert: (o) => store.upsertRole(o),
      remove: (o) => store.removeRole(namespace(o), name(o)),
    });
    feed<ClusterRoleBinding>(newClusterRoleBindingInformer(this.factory, clientset).informer(), {
      upsert: (o) => store.upsertClusterRoleBinding(o),
      remove: (o) => store.removeClusterRoleBinding(name(o)),
    });
    feed<RoleBinding>(newRoleBindingInformer(this.factory, clientset).informer(), {
      upsert: (o) => store.upsertRoleBinding(o),
      remove: (o) => store.removeRoleBinding(namespace(o), name(o)),
    });
  }

  start(): void {
    this.factory.start();
  }

  /** Resolves true once every informer has listed; false when stopped first. */
  async synced(signal?: AbortSignal): Promise<boolean> {
    const synced = await this.factory.waitForCacheSync(signal);
    return synced.size === 4 && [...synced.values()].every(Boolean);
  }

  stop(): Promise<void> {
    return this.factory.shutdown();
  }
}

type Named = { readonly metadata?: { readonly name?: string; readonly namespace?: string } };

function name(o: Named): string {
  return o.metadata?.name ?? '';
}

function namespace(o: Named): string {
  return o.metadata?.namespace ?? '';
}

/** Applies an informer's events to the store. The store keeps the informer's frozen objects as they are. */
function feed<T extends Named>(informer: SharedIndexInformer<T>, to: { upsert(o: T): void; remove(o: Named): void }): void {
  informer.addEventHandler({
    onAdd: (o) => to.upsert(o as T),
    onUpdate: (_old, o) => to.upsert(o as T),
    onDelete: (o) => to.remove((isDeletedFinalStateUnknown(o) ? o.obj : o) as DeepReadonly<Named>),
  });
}
