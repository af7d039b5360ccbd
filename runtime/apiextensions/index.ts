// The apiextensions server's serving of custom resources: the CRD handler, its CRD source,
// the definitions and conversions it builds from CRDs. Controllers live in ./controllers.
export { CRDHandler, newCRDHandler, type CRDHandlerOptions, type CustomResourceRegistry } from './handler.js';
export type { CRDEvent, CRDSource } from './source.js';
export { StorageCRDSource, type StorageCRDSourceOptions } from './storage-source.js';
export { crdGroupDefinition, servedVersionNames, openAPIDefinitionName } from './definition.js';
export { crdName, crdVersion, deprecationWarningOf, findCRDCondition, hasServedCRDVersion, isCRDConditionTrue, servedNames, storageVersionOf, type CRDConditionType } from './apihelpers.js';
export { endpointServiceResolver, type ServiceEndpoint, type ServiceResolver } from './conversion/service-resolver.js';
export type { CRConverter } from './conversion/converter.js';
