import type { APIGroupDeclaration } from '../../runtime/registry/types.js';

/** What authentication.k8s.io declares beyond its types: its kinds are answered, never stored. */
export const group = {
  server: 'kube-apiserver',
} satisfies APIGroupDeclaration;
