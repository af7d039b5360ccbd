/**
 * apiextensions.k8s.io/v1: CustomResourceDefinitions, served by the
 * apiextensions server at the end of the delegation chain. JSONSchemaProps
 * here is also the schema type the generator's model is written in.
 *
 * @groupName apiextensions.k8s.io
 * @storageVersion
 * @hub
 * @openapiModelPackage io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1
 */
export {};
