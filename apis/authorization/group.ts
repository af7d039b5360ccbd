import type { APIGroupDeclaration } from '../../runtime/registry/types.js';
import { localSubjectAccessReviewStorage, selfSubjectAccessReviewStorage, subjectAccessReviewStorage } from '../../runtime/controlplane/authorization/access-reviews.js';
import { selfSubjectRulesReviewStorage } from '../../runtime/controlplane/authorization/rules-review.js';

/**
 * What authorization.k8s.io declares beyond its types (kube's authorization RESTStorageProvider):
 * its kinds are answered by the server's authorizer and rule resolver, never stored.
 */
export const group = {
  server: 'kube-apiserver',
  rest: {
    SubjectAccessReview: ({ auth }) => ({ storages: subjectAccessReviewStorage(auth) }),
    SelfSubjectAccessReview: ({ auth }) => ({ storages: selfSubjectAccessReviewStorage(auth) }),
    LocalSubjectAccessReview: ({ auth }) => ({ storages: localSubjectAccessReviewStorage(auth) }),
    SelfSubjectRulesReview: ({ auth }) => ({ storages: selfSubjectRulesReviewStorage(auth) }),
  },
  unservedSchemeVersions: { v1beta1: ['SubjectAccessReview', 'SelfSubjectAccessReview', 'LocalSubjectAccessReview', 'SelfSubjectRulesReview'] },
} satisfies APIGroupDeclaration;
