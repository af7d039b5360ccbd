import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinition,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
  CustomResourceValidation,
} from '../../apis/apiextensions/v1/types.js';
import { deepCopyJSON, isJSONObject, ownField } from '../../runtime/apimachinery/serializer/jsonvalue.js';

/**
 * An `apiextensions.k8s.io/v1beta1` CustomResourceDefinition as the
 * apiextensions server reads it into v1: v1beta1's defaults first (scope
 * Namespaced; `spec.version` alone means one served storage version), then
 * the top-level `validation`, `subresources` and `additionalPrinterColumns`
 * copied into every version (v1 has them per version only), with v1beta1's
 * `JSONPath` column field as v1's `jsonPath`. A CRD without any schema
 * preserved every field in v1beta1, so its versions get a schema that says so.
 */
export function convertV1beta1(doc: Record<string, unknown>): CustomResourceDefinition {
  const spec = ownField(doc, 'spec');
  const out = deepCopyJSON(doc) as unknown as CustomResourceDefinition;
  out.apiVersion = 'apiextensions.k8s.io/v1';
  if (!isJSONObject(spec)) return out;
  const validation = ownField(spec, 'validation') as CustomResourceValidation | undefined;
  const subresources = ownField(spec, 'subresources') as CustomResourceSubresources | undefined;
  const columns = ownField(spec, 'additionalPrinterColumns') as Record<string, unknown>[] | undefined;
  const version = ownField(spec, 'version');
  let versions = (ownField(spec, 'versions') as Record<string, unknown>[] | undefined) ?? [];
  if (versions.length === 0 && typeof version === 'string' && version !== '') versions = [{ name: version, served: true, storage: true }];
  const outSpec = out.spec as unknown as Record<string, unknown>;
  for (const key of ['validation', 'subresources', 'additionalPrinterColumns', 'version']) delete outSpec[key];
  if (typeof outSpec['scope'] !== 'string' || outSpec['scope'] === '') outSpec['scope'] = 'Namespaced';
  out.spec.versions = versions.map((v): CustomResourceDefinitionVersion => {
    const copy = deepCopyJSON(v) as unknown as CustomResourceDefinitionVersion & { additionalPrinterColumns?: Record<string, unknown>[] };
    const schema = copy.schema ?? (validation === undefined ? undefined : deepCopyJSON(validation));
    const versionColumns = copy.additionalPrinterColumns ?? (columns === undefined ? undefined : deepCopyJSON(columns));
    const versionSubresources = copy.subresources ?? (subresources === undefined ? undefined : deepCopyJSON(subresources));
    return {
      ...copy,
      schema: schema?.openAPIV3Schema === undefined ? { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } : schema,
      ...(versionSubresources === undefined ? {} : { subresources: versionSubresources }),
      ...(versionColumns === undefined ? {} : { additionalPrinterColumns: versionColumns.map(v1Column) }),
    };
  });
  return out;
}

function v1Column(c: Record<string, unknown>): CustomResourceColumnDefinition {
  const { JSONPath, ...rest } = c;
  return { ...(rest as unknown as CustomResourceColumnDefinition), jsonPath: (rest['jsonPath'] ?? JSONPath) as string };
}
