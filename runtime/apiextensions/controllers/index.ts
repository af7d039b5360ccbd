// The apiextensions server's controllers (apiextensions-apiserver's pkg/controller and its
// discovery controller), run on the client runtime over the loopback client.
export { APIExtensionsControllers, type APIExtensionsControllersOptions } from './controllers.js';
export { informerCRDSource } from './source.js';
export { withCRDCleanupOnDelete } from './crd-delete.js';
export { crdGroupVersionOpenAPI } from './openapi-builder.js';
export { restInstances, type CustomResourceInstances } from './instances.js';
export { groupReservedNames, type ReservedNames } from './reserved-names.js';
export { CUSTOM_RESOURCE_CLEANUP_FINALIZER, ESTABLISHED, NAMES_ACCEPTED, NON_STRUCTURAL_SCHEMA, TERMINATING } from './conditions.js';
export type { OpenAPIRegistry } from './openapi.js';
