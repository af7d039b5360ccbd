// OpenAPI: the per-group-version document builder, the service holding the documents, and its handlers.
export { buildGroupVersionOpenAPI, openAPIFromGroupDefinition, openAPIResource, OPENAPI_INFO, type GroupVersionOpenAPI, type GroupDefinitionOpenAPIOptions } from './builder.js';
export { OpenAPIService, serverRelativeURL, type ServedDocument, type OpenAPIServiceOptions } from './service.js';
export { toSwaggerV2 } from './swagger-v2.js';
export { mergeSwaggerV2, filterSwaggerV2ByPathPrefix, type SwaggerV2Document } from './swagger-v2-merge.js';
export { encodeSwaggerV2Protobuf, toGnosticDocument, gnosticDocumentType, type GnosticMessage } from './swagger-v2-protobuf.js';
export { GNOSTIC_OPENAPI_V2 } from './gnostic-v2-descriptor.js';
export { newOpenAPIHandler, openAPIRoutes, PROTOBUF_V2_CONTENT_TYPE, type OpenAPIHandlerOptions, type OpenAPIRoute } from './handlers.js';
export { openAPIGroupVersionKey, groupVersionPath, operationGroupVersion, operationTag, toValidOperationID } from './naming.js';
export { metaSchemas, scaleSchemas, STATUS_SCHEMA, DELETE_OPTIONS_SCHEMA, PATCH_SCHEMA, WATCH_EVENT_SCHEMA, SCALE_SCHEMA } from '../../apimachinery/definition/meta-schemas.js';
export {
  BUILTIN_PATCH_TYPES,
  CUSTOM_RESOURCE_PATCH_TYPES,
  type GroupVersionOpenAPIInput,
  type OpenAPIResource,
  type OpenAPIV3Document,
  type Operation,
  type Parameter,
  type PatchType,
  type PathItem,
} from './types.js';
