import type { APIGroupDeclaration } from '../../runtime/registry/types.js';

/** coordination.k8s.io is kube-apiserver's own group (kube's coordination RESTStorageProvider); Leases need nothing beyond the generic store. */
export const group = {
  server: 'kube-apiserver',
  unservedSchemeVersions: { v1beta1: ['Lease', 'LeaseList'] },
} satisfies APIGroupDeclaration;
