import type { JSONSchemaProps } from './schema.js';

export type Definitions = Readonly<Record<string, JSONSchemaProps>>;

/**
 * Expands every `$ref` of `schema` into a self-contained structural schema,
 * the form a CRD's openAPIV3Schema and the validator need. Keywords written
 * beside a `$ref` (a field's description, default, rules) win over the
 * referenced definition's. A reference back into a definition being expanded
 * (JSONSchemaProps inside JSONSchemaProps) becomes an object that preserves
 * unknown fields, since a structural schema cannot be recursive.
 *
 * `metadata` of the root object and of embedded resources is reduced to
 * `{type: object}`: the server validates ObjectMeta itself, and CRD schemas
 * may not constrain it further (as controller-gen emits).
 */
export function inlineSchema(schema: JSONSchemaProps, definitions: Definitions): JSONSchemaProps {
  return expand(schema, definitions, [], true);
}

function expand(schema: JSONSchemaProps, defs: Definitions, stack: readonly string[], resourceRoot: boolean): JSONSchemaProps {
  let out: JSONSchemaProps = schema;
  let path = stack;
  if (schema.$ref !== undefined) {
    const { $ref, ...siblings } = schema;
    if (stack.includes($ref)) {
      return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, ...pick(siblings, ['description', 'nullable']) };
    }
    const def = defs[$ref];
    if (def === undefined) throw new Error(`inlineSchema: unknown definition ${$ref}`);
    out = { ...def, ...siblings };
    path = [...stack, $ref];
  } else {
    out = { ...schema };
  }
  const embedded = resourceRoot || out['x-kubernetes-embedded-resource'] === true;
  if (out.properties !== undefined) {
    const props: Record<string, JSONSchemaProps> = {};
    for (const [name, prop] of Object.entries(out.properties)) {
      props[name] = embedded && name === 'metadata' ? { type: 'object' } : expand(prop, defs, path, false);
    }
    out.properties = props;
  }
  if (out.items !== undefined) {
    out.items = Array.isArray(out.items) ? out.items.map((i) => expand(i, defs, path, false)) : expand(out.items, defs, path, false);
  }
  if (typeof out.additionalProperties === 'object') out.additionalProperties = expand(out.additionalProperties, defs, path, false);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = out[key];
    if (list !== undefined) out[key] = list.map((s) => expand(s, defs, path, false));
  }
  if (out.not !== undefined) out.not = expand(out.not, defs, path, false);
  return out;
}

function pick(o: JSONSchemaProps, keys: readonly (keyof JSONSchemaProps)[]): JSONSchemaProps {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out as JSONSchemaProps;
}

/** Walks an inline schema depth first; `path` is the field path of each node (`spec.ports[]`). */
export function walkSchema(schema: JSONSchemaProps, visit: (node: JSONSchemaProps, path: string) => void, path = ''): void {
  visit(schema, path);
  for (const [name, prop] of Object.entries(schema.properties ?? {})) walkSchema(prop, visit, path === '' ? name : `${path}.${name}`);
  if (schema.items !== undefined && !Array.isArray(schema.items)) walkSchema(schema.items, visit, `${path}[]`);
  if (typeof schema.additionalProperties === 'object') walkSchema(schema.additionalProperties, visit, `${path}[*]`);
}

/** The schema at a simple JSON path (`.spec.replicas`), or undefined when the path leaves the schema. */
export function schemaAtPath(schema: JSONSchemaProps, jsonPath: string): JSONSchemaProps | undefined {
  const parts = jsonPath.replace(/^\./, '').split('.').filter((p) => p !== '');
  let node: JSONSchemaProps | undefined = schema;
  for (const part of parts) {
    if (node === undefined) return undefined;
    const step: JSONSchemaProps | undefined = node.properties?.[part]
      ?? (typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined);
    if (step === undefined && node['x-kubernetes-preserve-unknown-fields'] === true) return {};
    node = step;
  }
  return node;
}
