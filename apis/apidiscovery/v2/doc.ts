/**
 * Version v2 of apidiscovery.k8s.io: the aggregated discovery document that
 * lists every group, version and resource in one response, served at /api
 * and /apis when the Accept header asks for APIGroupDiscoveryList. Types
 * only: nothing is served from this package as a resource.
 *
 * @groupName apidiscovery.k8s.io
 * @storageVersion
 * @hub
 * @openapiModelPackage io.k8s.api.apidiscovery.v2
 */
export {};
