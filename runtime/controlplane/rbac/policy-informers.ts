import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../../../apis/rbac/v1/types.js';
import { RbacV1Client } from '../../../generated/clientset/rbac/v1/index.js';
import { newClusterRoleInformer } from '../../../generated/informers/rbac/v1/clusterrole.js';
import { newClusterRoleBindingInformer } from '../../../generated/informers/rbac/v1/clusterrolebinding.js';
import { newRoleInformer } from '../../../generated/informers/rbac/v1/role.js';
import { newRoleBindingInformer } from '../../../generated/informers/rbac/v1/rolebinding.js';
import type { PolicyStore } from '../../authorization/rbac/index.js';
import { realClock } from '../../client/cache/index.js';
import {
  isDeletedFinalStateUnknown,
  metaNamespaceKeyFunc,
  newSharedInformerFactoryCore,
  type DeepReadonly,
  type RESTClient,
  type SharedIndexInformer,
  type SharedInformerFactoryCore,
} from '../../client/index.js';

/**
 * The RBAC authorizer's view of roles and bindings: four shared informers over the API server's
 * own loopback client (kube's RBAC authorizer reads the same informers), each event applied to
 * the PolicyStore the authorizer indexes. Until the informers have synced the store is empty,
 * and only the privileged group (system:masters, the loopback's) is allowed: /readyz waits for
 * caughtUp() through the `rbac/bootstrap-roles` hook.
 */
export class PolicyInformers {
  private readonly factory: SharedInformerFactoryCore;
  private readonly informers: readonly { informer: SharedIndexInformer<Named>; list(): Promise<{ items: readonly Named[] }> }[];

  /** `store` is the one the RBAC authorizer reads: it exists before the server (and its loopback client) does. */
  constructor(
    readonly store: PolicyStore,
    rest: RESTClient,
  ) {
    this.factory = newSharedInformerFactoryCore();
    const client = new RbacV1Client(rest);
    const clientset = { rbacV1: () => client };
    const clusterRoles = feed<ClusterRole>(newClusterRoleInformer(this.factory, clientset).informer(), {
      upsert: (o) => store.upsertClusterRole(o),
      remove: (o) => store.removeClusterRole(name(o)),
    });
    const roles = feed<Role>(newRoleInformer(this.factory, clientset).informer(), {
      upsert: (o) => store.upsertRole(o),
      remove: (o) => store.removeRole(namespace(o), name(o)),
    });
    const clusterRoleBindings = feed<ClusterRoleBinding>(newClusterRoleBindingInformer(this.factory, clientset).informer(), {
      upsert: (o) => store.upsertClusterRoleBinding(o),
      remove: (o) => store.removeClusterRoleBinding(name(o)),
    });
    const roleBindings = feed<RoleBinding>(newRoleBindingInformer(this.factory, clientset).informer(), {
      upsert: (o) => store.upsertRoleBinding(o),
      remove: (o) => store.removeRoleBinding(namespace(o), name(o)),
    });
    this.informers = [
      { informer: clusterRoles, list: () => client.clusterroles().list() },
      { informer: roles, list: () => client.roles('').list() },
      { informer: clusterRoleBindings, list: () => client.clusterrolebindings().list() },
      { informer: roleBindings, list: () => client.rolebindings('').list() },
    ];
  }

  start(): void {
    this.factory.start();
  }

  /** Resolves true once every informer has listed; false when stopped first. */
  async synced(signal?: AbortSignal): Promise<boolean> {
    const synced = await this.factory.waitForCacheSync(signal);
    return synced.size === 4 && [...synced.values()].every(Boolean);
  }

  /**
   * Resolves true once the informers have synced and hold every role and binding that a
   * consistent list returns now, at its resourceVersion or a newer one; false when stopped
   * first. Called after the bootstrap policy is written: synced() alone does not cover those
   * writes, because the informers' first list is served from the watch cache (resourceVersion
   * "0") and may predate them, and on etcd the watch events that carry them come later.
   */
  async caughtUp(signal: AbortSignal): Promise<boolean> {
    if (!(await this.synced(signal))) return false;
    const wanted = await Promise.all(this.informers.map(async ({ informer, list }) => ({ informer, items: (await list()).items })));
    while (!signal.aborted) {
      if (wanted.every(({ informer, items }) => items.every((o) => holds(informer, o)))) return true;
      await realClock.sleep(10, signal).catch(() => undefined);
    }
    return false;
  }

  stop(): Promise<void> {
    return this.factory.shutdown();
  }
}

/** True when the informer has `o` at its resourceVersion or a newer one (this server's resourceVersions are revisions). */
function holds(informer: SharedIndexInformer<Named>, o: Named): boolean {
  const cached = informer.getIndexer().getByKey(metaNamespaceKeyFunc(o));
  const have = cached?.metadata?.resourceVersion;
  const want = o.metadata?.resourceVersion;
  if (have === undefined || want === undefined) return have === want && cached !== undefined;
  return have === want || (/^\d+$/.test(have) && /^\d+$/.test(want) && BigInt(have) >= BigInt(want));
}

type Named = { readonly metadata?: { readonly name?: string; readonly namespace?: string; readonly resourceVersion?: string } };

function name(o: Named): string {
  return o.metadata?.name ?? '';
}

function namespace(o: Named): string {
  return o.metadata?.namespace ?? '';
}

/** Applies an informer's events to the store. The store keeps the informer's frozen objects as they are. */
function feed<T extends Named>(informer: SharedIndexInformer<T>, to: { upsert(o: T): void; remove(o: Named): void }): SharedIndexInformer<Named> {
  informer.addEventHandler({
    onAdd: (o) => to.upsert(o as T),
    onUpdate: (_old, o) => to.upsert(o as T),
    onDelete: (o) => to.remove((isDeletedFinalStateUnknown(o) ? o.obj : o) as DeepReadonly<Named>),
  });
  return informer as unknown as SharedIndexInformer<Named>;
}
