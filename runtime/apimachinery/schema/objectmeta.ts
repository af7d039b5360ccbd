import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
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
