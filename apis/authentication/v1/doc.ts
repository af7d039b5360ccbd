/**
 * Version v1 of authentication.k8s.io, transliterated from k8s.io/api/authentication/v1:
 * TokenReview (does this token authenticate, and as whom: what aggregated servers and webhook
 * clients ask), SelfSubjectReview (who am I: `kubectl auth whoami`), and TokenRequest, the body
 * of the `serviceaccounts/token` subresource of the core group. Nothing is stored.
 *
 * @groupName authentication.k8s.io
 * @storageVersion
 * @hub
 * @openapiModelPackage io.k8s.api.authentication.v1
 */
export {};
