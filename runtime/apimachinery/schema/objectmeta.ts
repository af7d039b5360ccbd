import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
// eslint-disable-next-line local/layers -- ObjectMeta's schema is the built-in API's generated OpenAPI (one source for it); to be handed down with the built-in groups
import coreV1OpenAPI from '../../../generated/openapi/core/v1.json' with { type: 'json' };
import { resolveOpenAPISchema } from './resolve.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/**
 * The structural schema of metadata.ObjectMeta, with its patch markers
 * (finalizers merge as a set, ownerReferences merge by uid), taken from the
 * generated OpenAPI of apis/meta/v1 so there is one source for it. Every
 * kind's `metadata` at a resource root (and in embedded resources) is an
 * ObjectMeta whatever its own schema says there, as in kube-apiserver.
 */
export const objectMetaSchema: JSONSchemaProps = (() => {
  const s = resolveOpenAPISchema(coreV1OpenAPI, OBJECT_META);
  if (s === undefined) throw new Error(`${OBJECT_META} missing from generated/openapi/core/v1.json`);
  return s;
})();

/**
 * objectMetaSchema as a check of JSON types only: kube decodes metadata into the typed ObjectMeta,
 * which enforces no `required` (an ownerReference without a uid decodes, and
 * ValidateOwnerReferences then says `uid must not be empty`). For the type check of a body's
 * metadata; the OpenAPI's required lists stay in objectMetaSchema for everything else.
 */
export const objectMetaTypeSchema: JSONSchemaProps = withoutRequired(objectMetaSchema);

function withoutRequired(s: JSONSchemaProps): JSONSchemaProps {
  const out: JSONSchemaProps = { ...s };
  delete out.required;
  if (s.properties !== undefined) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, withoutRequired(v)]));
  if (s.items !== undefined && !Array.isArray(s.items)) out.items = withoutRequired(s.items);
  if (typeof s.additionalProperties === 'object') out.additionalProperties = withoutRequired(s.additionalProperties);
  return out;
}
