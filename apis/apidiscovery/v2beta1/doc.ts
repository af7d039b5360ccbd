/**
 * Version v2beta1 of apidiscovery.k8s.io, the predecessor of v2 with the
 * same shape; kept for clients that still ask for it. Types only: nothing
 * is served from this package as a resource.
 *
 * @groupName apidiscovery.k8s.io
 * @deprecatedVersion warning="apidiscovery.k8s.io/v2beta1 is deprecated in v1.32+; use apidiscovery.k8s.io/v2"
 * @openapiModelPackage io.k8s.api.apidiscovery.v2beta1
 */
export {};
