import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import type { OpenAPIComponentsDocument, ResourceDefinition } from '../definition/resource.js';
import { resolveOpenAPISchema } from '../schema/resolve.js';
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

/** Resolved definitions per document: resolving copies, and the type converter caches per schema object. */
const resolved = new WeakMap<OpenAPIComponentsDocument, Map<string, JSONSchemaProps | null>>();

/**
 * The schemas of `kind` in every version of `group` that serves it, for newTypeConverter. As
 * kube builds its type converters from the published OpenAPI models, a kind's schema is its
 * OpenAPI definition (references inlined): it carries every list and map marker, also those the
 * validation schema leaves to the strategy (`@validatedByStrategy`, as Service's ports keyed by
 * port and protocol). A definition that cannot be inlined (a recursive type, as JSONSchemaProps)
 * or a version without a document falls back to the validation schema. Schemas are the same
 * objects from one call to the next, so conversions are shared.
 */
export function kindSchemas(group: OpenAPIGroup, kind: string): GVKSchema[] {
  const out: GVKSchema[] = [];
  for (const v of group.versions) {
    const r = v.resources.find((d) => d.kind === kind);
    if (r === undefined) continue;
    const apiVersion = group.name === '' ? v.name : `${group.name}/${v.name}`;
    const fromOpenAPI = v.openapi === undefined ? null : definition(v.openapi, r.openapiDefinition);
    out.push({ apiVersion, kind, schema: fromOpenAPI ?? r.schema, name: r.openapiDefinition });
  }
  return out;
}

function definition(doc: OpenAPIComponentsDocument, name: string): JSONSchemaProps | null {
  let byName = resolved.get(doc);
  if (byName === undefined) resolved.set(doc, (byName = new Map()));
  let s = byName.get(name);
  if (s === undefined) {
    try {
      s = resolveOpenAPISchema(doc, name) ?? null;
    } catch {
      // A cyclic or dangling reference: the validation schema describes the kind instead.
      s = null;
    }
    byName.set(name, s);
  }
  return s;
}
