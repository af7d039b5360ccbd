import type { Role, RoleBinding } from '../../../../apis/rbac/v1/types.js';
import { newRoleBinding, newRule, RBAC_GROUP } from './builders.js';
import { withDefaultMetadata } from './metadata.js';
import { KubeControllerManager, KubeScheduler, Read } from './policy.js';

/**
 * kube's namespaced bootstrap roles and bindings (bootstrappolicy/namespace_policy.go), reduced
 * to those about what this server serves: the reader of kube-system/extension-apiserver-
 * authentication, the ConfigMap an aggregated server reads its delegated authentication from.
 * (kube's leader-locking, bootstrap-signer, cloud-provider and token-cleaner roles are about
 * leases and secrets, which are not served here.)
 */

export const NamespaceSystem = 'kube-system';
export const EXTENSION_APISERVER_AUTHENTICATION = 'extension-apiserver-authentication';

/** NamespaceRoles(): namespace → roles. Bootstrap objects live only in `kube-` namespaces. */
export function namespaceRoles(): ReadonlyMap<string, Role[]> {
  const reader: Role = {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'Role',
    // finds the authentication configuration a server starts with
    metadata: { name: 'extension-apiserver-authentication-reader', namespace: NamespaceSystem },
    rules: [
      newRule(...Read)
        .groups('')
        .resources('configmaps')
        .names(EXTENSION_APISERVER_AUTHENTICATION)
        .rule(),
    ],
  };
  return new Map([[NamespaceSystem, [withDefaultMetadata(reader)]]]);
}

/** NamespaceRoleBindings(): namespace → role bindings. */
export function namespaceRoleBindings(): ReadonlyMap<string, RoleBinding[]> {
  const delegatedAuth = newRoleBinding('extension-apiserver-authentication-reader', NamespaceSystem).users(KubeControllerManager, KubeScheduler).binding();
  // kube names this binding apart from its role
  const named: RoleBinding = { ...delegatedAuth, metadata: { ...delegatedAuth.metadata, name: 'system::extension-apiserver-authentication-reader' } };
  return new Map([[NamespaceSystem, [withDefaultMetadata(named)]]]);
}
