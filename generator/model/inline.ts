import type { JSONSchemaProps } from './schema.js';

export type Definitions = Readonly<Record<string, JSONSchemaProps>>;

/** A reference back into a definition being expanded, outside any node that preserves unknown fields. */
export interface Recursion<S> {
  /** The definition referred to again. */
  readonly ref: string;
  /** Field path from the root (`spec.children[]`). */
  readonly path: string;
  /** What `siteOf` said of the nearest enclosing node it knows. */
  readonly site: S | undefined;
}

export interface InlineOptions<S> {
  /** Whether the schema is a kind's root (its `metadata` is reduced); default true. */
  readonly resourceRoot?: boolean;
  /** Called for each recursion not opted into with x-kubernetes-preserve-unknown-fields. */
  readonly onRecursion?: (r: Recursion<S>) => void;
  /** The declaration a node of `definitions` was built from, for `onRecursion`. */
  readonly siteOf?: (node: JSONSchemaProps) => S | undefined;
  /** Nodes whose constraints are published only: the inline (validation) schema leaves them out. */
  readonly publishedOnly?: (node: JSONSchemaProps) => boolean;
}

/** What a published-only node keeps out of the validation schema: its constraints, not its shape. */
const CONSTRAINTS = [
  'enum',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-validations',
] as const satisfies readonly (keyof JSONSchemaProps)[];

interface Walk<S> {
  readonly defs: Definitions;
  readonly options: InlineOptions<S>;
}

interface At<S> {
  readonly stack: readonly string[];
  readonly path: string;
  /** An enclosing node preserves unknown fields: a recursion below it keeps any value by choice. */
  readonly preserving: boolean;
  readonly site: S | undefined;
}

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
export function inlineSchema<S = never>(schema: JSONSchemaProps, definitions: Definitions, options: InlineOptions<S> = {}): JSONSchemaProps {
  const walk: Walk<S> = { defs: definitions, options };
  return expand(walk, schema, { stack: [], path: '', preserving: false, site: undefined }, options.resourceRoot ?? true);
}

function expand<S>(walk: Walk<S>, schema: JSONSchemaProps, at: At<S>, resourceRoot: boolean): JSONSchemaProps {
  let out: JSONSchemaProps = schema;
  let stack = at.stack;
  let site = walk.options.siteOf?.(schema) ?? at.site;
  if (schema.$ref !== undefined) {
    const { $ref, ...siblings } = schema;
    if (stack.includes($ref)) {
      if (!at.preserving && siblings['x-kubernetes-preserve-unknown-fields'] !== true) walk.options.onRecursion?.({ ref: $ref, path: at.path, site });
      return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, ...pick(siblings, ['description', 'nullable']) };
    }
    const def = walk.defs[$ref];
    if (def === undefined) throw new Error(`inlineSchema: unknown definition ${$ref}`);
    out = { ...def, ...siblings };
    stack = [...stack, $ref];
    site = walk.options.siteOf?.(schema) ?? walk.options.siteOf?.(def) ?? at.site;
  } else {
    out = { ...schema };
  }
  if (walk.options.publishedOnly?.(schema) === true) for (const key of CONSTRAINTS) delete out[key];
  const below = (path: string): At<S> => ({ stack, path, preserving: at.preserving || out['x-kubernetes-preserve-unknown-fields'] === true, site });
  const join = (name: string): string => (at.path === '' ? name : `${at.path}.${name}`);
  const embedded = resourceRoot || out['x-kubernetes-embedded-resource'] === true;
  if (out.properties !== undefined) {
    const props: Record<string, JSONSchemaProps> = {};
    for (const [name, prop] of Object.entries(out.properties)) {
      props[name] = embedded && name === 'metadata' ? { type: 'object' } : expand(walk, prop, below(join(name)), false);
    }
    out.properties = props;
  }
  if (out.items !== undefined) {
    const items = below(`${at.path}[]`);
    out.items = Array.isArray(out.items) ? out.items.map((i) => expand(walk, i, items, false)) : expand(walk, out.items, items, false);
  }
  if (typeof out.additionalProperties === 'object') out.additionalProperties = expand(walk, out.additionalProperties, below(`${at.path}[*]`), false);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = out[key];
    if (list !== undefined) out[key] = list.map((s) => expand(walk, s, below(at.path), false));
  }
  if (out.not !== undefined) out.not = expand(walk, out.not, below(at.path), false);
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
  const parts = jsonPath
    .replace(/^\./, '')
    .split('.')
    .filter((p) => p !== '');
  let node: JSONSchemaProps | undefined = schema;
  for (const part of parts) {
    if (node === undefined) return undefined;
    const step: JSONSchemaProps | undefined = node.properties?.[part] ?? (typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined);
    if (step === undefined && node['x-kubernetes-preserve-unknown-fields'] === true) return {};
    node = step;
  }
  return node;
}
