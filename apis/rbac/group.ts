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
} satisfies APIGroupDeclaration;
