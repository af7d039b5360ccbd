import type { APIGroupDeclaration } from '../../runtime/registry/types.js';
import { selfSubjectReviewStorage } from '../../runtime/controlplane/authentication/selfsubjectreview.js';
import { tokenReviewStorage } from '../../runtime/controlplane/authentication/tokenreview.js';

/**
 * What authentication.k8s.io declares beyond its types (kube's authentication RESTStorageProvider):
 * its kinds are answered by the server's authenticators, never stored.
 */
export const group = {
  server: 'kube-apiserver',
  rest: {
    TokenReview: ({ auth }) => ({ storages: tokenReviewStorage(auth) }),
    SelfSubjectReview: () => ({ storages: selfSubjectReviewStorage() }),
  },
  unservedSchemeVersions: { v1beta1: ['TokenReview', 'SelfSubjectReview'], v1alpha1: ['SelfSubjectReview'] },
} satisfies APIGroupDeclaration;
