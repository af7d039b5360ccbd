import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../../../../apis/rbac/v1/types.js';
import { controllerRoleBindings, controllerRoles } from './controller-policy.js';
import { namespaceRoleBindings, namespaceRoles } from './namespace-policy.js';
import { clusterRoleBindings, clusterRoles, clusterRoleBindingsToSplit, clusterRolesToAggregate } from './policy.js';

/** Everything the server reconciles at start (kube's rbac/rest PolicyData). */
export interface BootstrapPolicy {
  readonly clusterRoles: readonly ClusterRole[];
  readonly clusterRoleBindings: readonly ClusterRoleBinding[];
  readonly roles: ReadonlyMap<string, readonly Role[]>;
  readonly roleBindings: ReadonlyMap<string, readonly RoleBinding[]>;
  /** Old non-aggregated role name → the role its rules move to before reconciling. */
  readonly clusterRolesToAggregate: ReadonlyMap<string, string>;
  /** Old binding name → the binding that inherits its subjects when it does not exist yet. */
  readonly clusterRoleBindingsToSplit: ReadonlyMap<string, ClusterRoleBinding>;
}

/** The bootstrap policy: fresh objects on every call (callers may change them). */
export function bootstrapPolicy(): BootstrapPolicy {
  return {
    clusterRoles: [...clusterRoles(), ...controllerRoles()],
    clusterRoleBindings: [...clusterRoleBindings(), ...controllerRoleBindings()],
    roles: namespaceRoles(),
    roleBindings: namespaceRoleBindings(),
    clusterRolesToAggregate: clusterRolesToAggregate(),
    clusterRoleBindingsToSplit: clusterRoleBindingsToSplit(),
  };
}

export { CONTROLLER_NAMES, CONTROLLER_NAMESPACE, SA_ROLE_PREFIX, controllerUser, controllerUsers, kubeControllerManagerUser, type ControllerName } from './controller-policy.js';
export { AUTO_UPDATE_ANNOTATION_KEY, BOOTSTRAP_LABEL_KEY, BOOTSTRAP_LABEL_VALUE, AGGREGATE_TO_ADMIN, AGGREGATE_TO_EDIT, AGGREGATE_TO_VIEW } from './metadata.js';
export { EXTENSION_APISERVER_AUTHENTICATION } from './namespace-policy.js';
