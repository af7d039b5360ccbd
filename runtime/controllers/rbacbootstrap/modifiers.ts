import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../../../apis/rbac/v1/types.js';
import { CoreV1Client } from '../../../generated/clientset/core/v1/index.js';
import { RbacV1Client } from '../../../generated/clientset/rbac/v1/index.js';
import { isAlreadyExists, isForbidden, isNotFound } from '../../apimachinery/errors/index.js';
import type { RESTClient } from '../../client/index.js';

/**
 * kube's reconciliation modifiers (RuleOwnerModifier, RoleBindingModifier): the reads and writes
 * reconciliation makes, per kind, through the typed clients. Namespaced objects are created after
 * their namespace (tryEnsureNamespace), as kube's RoleModifier and RoleBindingModifier do.
 */
export interface Modifier<T> {
  get(namespace: string, name: string): Promise<T>;
  create(obj: T): Promise<T>;
  update(obj: T): Promise<T>;
  /** Deletes only the object with this uid (a Conflict when another took its name). */
  delete(namespace: string, name: string, uid: string | undefined): Promise<void>;
}

export interface Modifiers {
  readonly clusterRoles: Modifier<ClusterRole>;
  readonly clusterRoleBindings: Modifier<ClusterRoleBinding>;
  readonly roles: Modifier<Role>;
  readonly roleBindings: Modifier<RoleBinding>;
}

export function modifiersFor(rest: RESTClient, signal: AbortSignal): Modifiers {
  const rbac = new RbacV1Client(rest);
  const namespaces = new CoreV1Client(rest).namespaces();
  const opts = { signal };
  const deleteOpts = (uid: string | undefined) => ({ ...(uid !== undefined ? { preconditions: { uid } } : {}) });
  const ensureNamespace = async (namespace: string): Promise<void> => {
    try {
      await namespaces.get(namespace, opts);
      return;
    } catch (err) {
      if (!isNotFound(err) && !isForbidden(err)) throw err;
    }
    try {
      await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }, opts);
    } catch (err) {
      if (!isAlreadyExists(err) && !isForbidden(err)) throw err;
    }
  };
  return {
    clusterRoles: {
      get: (_ns, name) => rbac.clusterroles().get(name, opts),
      create: (obj) => rbac.clusterroles().create(obj, opts),
      update: (obj) => rbac.clusterroles().update(obj, opts),
      delete: (_ns, name, uid) => rbac.clusterroles().delete(name, deleteOpts(uid)),
    },
    clusterRoleBindings: {
      get: (_ns, name) => rbac.clusterrolebindings().get(name, opts),
      create: (obj) => rbac.clusterrolebindings().create(obj, opts),
      update: (obj) => rbac.clusterrolebindings().update(obj, opts),
      delete: (_ns, name, uid) => rbac.clusterrolebindings().delete(name, deleteOpts(uid)),
    },
    roles: {
      get: (ns, name) => rbac.roles(ns).get(name, opts),
      create: async (obj) => {
        const ns = obj.metadata?.namespace ?? '';
        await ensureNamespace(ns);
        return rbac.roles(ns).create(obj, opts);
      },
      update: (obj) => rbac.roles(obj.metadata?.namespace ?? '').update(obj, opts),
      delete: (ns, name, uid) => rbac.roles(ns).delete(name, deleteOpts(uid)),
    },
    roleBindings: {
      get: (ns, name) => rbac.rolebindings(ns).get(name, opts),
      create: async (obj) => {
        const ns = obj.metadata?.namespace ?? '';
        await ensureNamespace(ns);
        return rbac.rolebindings(ns).create(obj, opts);
      },
      update: (obj) => rbac.rolebindings(obj.metadata?.namespace ?? '').update(obj, opts),
      delete: (ns, name, uid) => rbac.rolebindings(ns).delete(name, deleteOpts(uid)),
    },
  };
}
