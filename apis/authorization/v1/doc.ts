/**
 * Version v1 of authorization.k8s.io, transliterated from k8s.io/api/authorization/v1: the
 * review APIs that ask the server's authorizer a question (may this user do this?) or list
 * what a user may do. Nothing is stored; every kind is create-only.
 *
 * @groupName authorization.k8s.io
 * @storageVersion
 * @hub
 * @openapiModelPackage io.k8s.api.authorization.v1
 */
export {};
