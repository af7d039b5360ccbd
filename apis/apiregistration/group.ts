import type { APIGroupDeclaration } from '../../runtime/registry/types.js';

/** What apiregistration.k8s.io declares beyond its types: APIServices are kube-aggregator's own API. */
export const group = {
  server: 'kube-aggregator',
  unservedSchemeVersions: { v1beta1: ['APIService', 'APIServiceList'] },
} satisfies APIGroupDeclaration;
