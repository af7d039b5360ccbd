/**
 * Version v1 of the autoscaling group, reduced to Scale: the representation
 * that every `/scale` subresource reads and writes (kubectl scale, the
 * HorizontalPodAutoscaler). Types only: nothing is served from this package.
 *
 * @groupName autoscaling
 * @storageVersion
 * @hub
 * @openapiModelPackage io.k8s.api.autoscaling.v1
 */
export {};
