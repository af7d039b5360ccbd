/**
 * Version v1 of apiregistration.k8s.io, from kube-aggregator: APIService
 * objects that tell the aggregator which server handles a group version,
 * either this server itself (local) or a Service in the cluster.
 *
 * @groupName apiregistration.k8s.io
 * @storageVersion
 * @hub
 * @openapiModelPackage io.k8s.kube-aggregator.pkg.apis.apiregistration.v1
 */
export {};
