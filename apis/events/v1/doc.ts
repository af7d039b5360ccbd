/**
 * Version v1 of events.k8s.io, transliterated from k8s.io/api/events/v1: the Event of the
 * events API, a second view of the core group's Events (kube stores both as core/v1 Events).
 *
 * @groupName events.k8s.io
 * @storageVersion
 * @hub
 * @openapiModelPackage io.k8s.api.events.v1
 */
export {};
