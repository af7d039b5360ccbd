/**
 * Version v1 of the legacy core group (served under /api/v1), reduced to
 * the kinds an API server needs for itself: Namespace, Service and
 * Endpoints (the latter two locate aggregated API servers), plus
 * ObjectReference.
 *
 * @groupName ""
 * @storageVersion
 * @hub
 * @openapiModelPackage io.k8s.api.core.v1
 */
export {};
