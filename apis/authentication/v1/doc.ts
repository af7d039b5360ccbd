/**
 * Version v1 of authentication.k8s.io, transliterated from k8s.io/api/authentication/v1:
 * TokenReview (does this token authenticate, and as whom: what aggregated servers and webhook
 * clients ask), SelfSubjectReview (who am I: `kubectl auth whoami`), and TokenRequest, the body
 * of the `serviceaccounts/token` subresource of the core group. Nothing is stored.
 *
 * JSON and YAML only: kube's protobuf form of `extra` (a map of the named list ExtraValue)
 * has no counterpart in this generator's protobuf messages yet.
 *
 * @groupName authentication.k8s.io
 * @storageVersion
 * @hub
 * @openapiModelPackage io.k8s.api.authentication.v1
 */
export {};
