import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { isJSONObject } from '../serializer/jsonvalue.js';

const REF_PREFIX = '#/components/schemas/';

/**
 * The named component of an OpenAPI 3 document as one self-contained schema:
 * every `$ref` (bare, or as the single element of `allOf`, as kube-openapi
 * emits field references) is replaced by the referenced schema, keeping the
 * field's own description and `x-kubernetes-*` markers beside it. Returns
 * undefined when the component is absent; throws on a dangling or cyclic
 * reference. The document is not modified.
 */
export function resolveOpenAPISchema(doc: { readonly components: { readonly schemas: Readonly<Record<string, unknown>> } }, name: string): JSONSchemaProps | undefined {
  const root = doc.components.schemas[name];
  if (!isJSONObject(root)) return undefined;
  return inline(root, doc.components.schemas, [name]);
}

function inline(schema: Record<string, unknown>, components: Readonly<Record<string, unknown>>, stack: string[]): JSONSchemaProps {
  let own: Record<string, unknown> = { ...schema };
  const allOf = own['allOf'];
  if (Array.isArray(allOf) && allOf.length === 1 && isJSONObject(allOf[0]) && typeof allOf[0]['$ref'] === 'string') {
    delete own['allOf'];
    own = { ...allOf[0], ...own };
  }
  const ref = own['$ref'];
  if (typeof ref === 'string') {
    delete own['$ref'];
    const target = ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : ref;
    if (stack.includes(target)) throw new Error(`cyclic reference to ${target}`);
    const referenced = components[target];
    if (!isJSONObject(referenced)) throw new Error(`unable to resolve ${ref}`);
    own = { ...inline(referenced, components, [...stack, target]), ...own };
  }
  const out: Record<string, unknown> = { ...own };
  if (isJSONObject(own['properties'])) {
    out['properties'] = Object.fromEntries(Object.entries(own['properties']).map(([k, v]) => [k, isJSONObject(v) ? inline(v, components, stack) : v]));
  }
  if (isJSONObject(own['items'])) out['items'] = inline(own['items'], components, stack);
  if (isJSONObject(own['additionalProperties'])) out['additionalProperties'] = inline(own['additionalProperties'], components, stack);
  return out as JSONSchemaProps;
}
