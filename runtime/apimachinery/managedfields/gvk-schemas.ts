import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import type { OpenAPIComponentsDocument, ResourceDefinition } from '../definition/resource.js';
import { isJSONObject, ownField } from '../serializer/jsonvalue.js';
import type { GVKSchema } from './typeconverter.js';

/** What kindSchemas reads of a group: its name and, per version, the OpenAPI document and the kinds it serves. */
export interface OpenAPIGroup {
  readonly name: string;
  readonly versions: readonly {
    readonly name: string;
    readonly openapi?: OpenAPIComponentsDocument;
    readonly resources: readonly ResourceDefinition[];
  }[];
}

/**
 * The schemas of `kind` in every version of `group` that serves it, for newTypeConverter. As
 * kube builds its type converters from the published OpenAPI models, a kind's schema is its
 * OpenAPI definition with the document's definitions beside it (references become named types,
 * so recursive ones as JSONSchemaProps convert too): it carries every list and map marker, also
 * those the validation schema leaves to the strategy (`@validatedByStrategy`, as Service's ports
 * keyed by port and protocol). A version without a document, or a document without the kind's
 * definition, falls back to the validation schema. Schemas are the documents' own objects, the
 * same from one call to the next, so conversions are shared.
 */
export function kindSchemas(group: OpenAPIGroup, kind: string): GVKSchema[] {
  const out: GVKSchema[] = [];
  for (const v of group.versions) {
    const r = v.resources.find((d) => d.kind === kind);
    if (r === undefined) continue;
    const apiVersion = group.name === '' ? v.name : `${group.name}/${v.name}`;
    const definitions = v.openapi?.components.schemas;
    const published = definitions === undefined ? undefined : ownField(definitions, r.openapiDefinition);
    if (definitions !== undefined && isJSONObject(published)) {
      out.push({ apiVersion, kind, schema: published as JSONSchemaProps, name: r.openapiDefinition, definitions });
    } else {
      out.push({ apiVersion, kind, schema: r.schema, name: r.openapiDefinition });
    }
  }
  return out;
}
