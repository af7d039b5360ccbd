/**
 * The model's schema type is the CRD's own JSONSchemaProps from apis/: the
 * generator dogfoods the types it serves, so there is one definition of what
 * a schema may contain.
 */
export type { JSONSchemaProps, ValidationRule } from '../../apis/apiextensions/v1/schema.js';

/**
 * Strategic-merge-patch hints. Kubernetes publishes them in the OpenAPI of
 * built-in types but a CRD schema may not carry them, so the CRD emitter
 * drops them (see `crdSchema`).
 */
export const PATCH_STRATEGY = 'x-kubernetes-patch-strategy';
export const PATCH_MERGE_KEY = 'x-kubernetes-patch-merge-key';
