import type { APIGroupDeclaration } from '../../runtime/registry/types.js';

/**
 * What rbac.authorization.k8s.io declares beyond its types: roles and bindings are written
 * through REST storage that refuses privilege escalation (kube's policybased storage).
 */
export const group = {
  server: 'kube-apiserver',
} satisfies APIGroupDeclaration;
