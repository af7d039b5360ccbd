/**
 * Version v1alpha1 of the wardle example group, ported from Kubernetes'
 * sample-apiserver. Objects are stored in this version (as sample-apiserver
 * does), while v1beta1 holds the hub types that conversions go through.
 *
 * @groupName wardle.example.com
 * @storageVersion
 */
export {};
