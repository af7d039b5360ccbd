import type { APIGroupDeclaration } from '../../runtime/registry/types.js';
import { policyBasedOverride } from '../../runtime/controlplane/rbac/rest.js';

/**
 * What rbac.authorization.k8s.io declares beyond its types: roles and bindings are written
 * through REST storage that refuses privilege escalation (kube's policybased storage), which
 * needs the control plane's authorizer and RBAC rule resolver.
 */
export const group = {
  server: 'kube-apiserver',
  rest: {
    Role: policyBasedOverride('Role'),
    ClusterRole: policyBasedOverride('ClusterRole'),
    RoleBinding: policyBasedOverride('RoleBinding'),
    ClusterRoleBinding: policyBasedOverride('ClusterRoleBinding'),
  },
  // kube's rbac install package still registers both retired versions.
  unservedSchemeVersions: {
    v1beta1: ['Role', 'RoleList', 'ClusterRole', 'ClusterRoleList', 'RoleBinding', 'RoleBindingList', 'ClusterRoleBinding', 'ClusterRoleBindingList'],
    v1alpha1: ['Role', 'RoleList', 'ClusterRole', 'ClusterRoleList', 'RoleBinding', 'RoleBindingList', 'ClusterRoleBinding', 'ClusterRoleBindingList'],
  },
} satisfies APIGroupDeclaration;
