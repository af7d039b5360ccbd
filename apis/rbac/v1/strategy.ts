import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from './types.js';

// kube's RBAC strategies (pkg/registry/rbac/*/strategy.go). Validation: see validation.ts.

export const RoleStrategy = {} satisfies RESTStrategy<Role>;

export const ClusterRoleStrategy = {} satisfies RESTStrategy<ClusterRole>;

export const RoleBindingStrategy = {} satisfies RESTStrategy<RoleBinding>;

export const ClusterRoleBindingStrategy = {} satisfies RESTStrategy<ClusterRoleBinding>;
