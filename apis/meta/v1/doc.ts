/**
 * Version v1 of meta.k8s.io: the building blocks every API shares (TypeMeta,
 * ObjectMeta, ListMeta, Status, the request options, Table, WatchEvent,
 * legacy discovery documents, label selectors and conditions) and the scalar
 * aliases (int32, Time, Quantity…) that the generator maps to Kubernetes'
 * wire formats. Types only: nothing is served from this package.
 *
 * @groupName meta.k8s.io
 * @storageVersion
 * @hub
 * @openapiModelPackage io.k8s.apimachinery.pkg.apis.meta.v1
 */
export {};
