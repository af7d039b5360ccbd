/**
 * Version v1 of coordination.k8s.io, transliterated from k8s.io/api/coordination/v1: the Lease,
 * which leader election and the API servers' own identities hold and renew.
 *
 * @groupName coordination.k8s.io
 * @storageVersion
 * @hub
 * @openapiModelPackage io.k8s.api.coordination.v1
 */
export {};
