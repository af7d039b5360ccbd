import { createHash } from 'node:crypto';
import type { JSONSchemaProps } from '../model/schema.js';

/**
 * The TypeScript shape of a structural schema node: only what changes the
 * type. Validation-only keywords (`pattern`, `maxItems`, `format`, CEL rules,
 * and the junctors `oneOf`/`anyOf`/`allOf`/`not`, which a structural schema
 * may only use to validate) never reach it, so a bounded array is an
 * ordinary array and a junctor never multiplies the type.
 */
export type Shape =
  /** A type written as is: `string`, `number`, an enum's union, `number | string`. */
  | { readonly t: 'text'; readonly text: string; readonly union: boolean }
  | { readonly t: 'array'; readonly items: Ref }
  | { readonly t: 'map'; readonly values: Ref }
  | { readonly t: 'object'; readonly props: readonly Prop[]; readonly open: boolean };

/** A use of a shape: nullability and documentation belong to the use, not to the shape. */
export interface Ref {
  readonly node: ShapeNode;
  readonly nullable: boolean;
}

export interface Prop {
  readonly name: string;
  readonly optional: boolean;
  readonly description: string | undefined;
  readonly ref: Ref;
}

/** One distinct shape, shared by every schema node with the same structure (by hash). */
export interface ShapeNode {
  readonly hash: string;
  readonly shape: Shape;
}

export const OBJECT_META = 'ObjectMeta';
const UNKNOWN_MAP = '{ [key: string]: unknown }';

/**
 * Interns the shapes of schemas: nodes with equal structure are one
 * ShapeNode (a Merkle hash over the children's hashes, so the cost is linear
 * in the schema's size however often a structure repeats). `order` lists
 * the nodes children first, which makes the reverse a topological order.
 */
export class ShapeTable {
  private readonly byHash = new Map<string, ShapeNode>();
  readonly order: ShapeNode[] = [];

  /**
   * The root object of a kind: apiVersion, kind and metadata are always there, first. Not
   * interned: every kind is its own interface even when two kinds have the same schema.
   */
  root(schema: JSONSchemaProps): Shape {
    return this.objectShape(schema, true);
  }

  ref(schema: JSONSchemaProps): Ref {
    return { node: this.intern(this.shapeOf(schema)), nullable: schema.nullable === true };
  }

  private shapeOf(schema: JSONSchemaProps): Shape {
    if (schema['x-kubernetes-int-or-string'] === true) return { t: 'text', text: 'number | string', union: true };
    const embedded = schema['x-kubernetes-embedded-resource'] === true;
    const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
    const type = schema.type ?? (schema.properties !== undefined ? 'object' : schema.items !== undefined ? 'array' : undefined);
    if (schema.enum !== undefined && schema.enum.length > 0 && type !== 'object' && type !== 'array') {
      const values = [...new Set(schema.enum.map(literal))];
      return { t: 'text', text: values.join(' | '), union: values.length > 1 };
    }
    switch (type) {
      case 'string':
        return { t: 'text', text: 'string', union: false };
      case 'integer':
      case 'number':
        return { t: 'text', text: 'number', union: false };
      case 'boolean':
        return { t: 'text', text: 'boolean', union: false };
      case 'array': {
        const items = schema.items;
        if (items === undefined || Array.isArray(items)) return { t: 'text', text: 'unknown[]', union: false };
        return { t: 'array', items: this.ref(items) };
      }
      case 'object': {
        if (schema.properties !== undefined || embedded) return this.objectShape(schema, embedded);
        const extra = schema.additionalProperties;
        if (typeof extra === 'object') return { t: 'map', values: this.ref(extra) };
        if (extra === true || preserve) return { t: 'text', text: UNKNOWN_MAP, union: false };
        // A structural object without fields keeps none: the server prunes whatever is sent.
        return { t: 'text', text: '{ [key: string]: never }', union: false };
      }
      default:
        return { t: 'text', text: 'unknown', union: false };
    }
  }

  /** An object with fields; `resource` adds the apiVersion, kind and metadata every resource has. */
  private objectShape(schema: JSONSchemaProps, resource: boolean): Shape {
    const required = new Set(schema.required ?? []);
    const props: Prop[] = [];
    const declared = new Map(Object.entries(schema.properties ?? {}));
    if (resource) {
      for (const name of ['apiVersion', 'kind', 'metadata']) {
        const own = declared.get(name);
        const text = name === 'metadata' ? OBJECT_META : 'string';
        props.push({
          name,
          optional: !required.has(name),
          description: own?.description,
          ref: { node: this.intern({ t: 'text', text, union: false }), nullable: false },
        });
        declared.delete(name);
      }
    }
    for (const [name, prop] of declared) {
      props.push({ name, optional: !required.has(name), description: prop.description, ref: this.ref(prop) });
    }
    const open = schema['x-kubernetes-preserve-unknown-fields'] === true || (schema.additionalProperties !== undefined && schema.additionalProperties !== false);
    return { t: 'object', props, open };
  }

  private intern(shape: Shape): ShapeNode {
    const hash = hashShape(shape);
    const existing = this.byHash.get(hash);
    if (existing !== undefined) return existing;
    const node = { hash, shape };
    this.byHash.set(hash, node);
    this.order.push(node);
    return node;
  }
}

function hashShape(shape: Shape): string {
  const ref = (r: Ref): string => `${r.node.hash}${r.nullable ? '?' : ''}`;
  let text: string;
  switch (shape.t) {
    case 'text':
      text = `t${shape.text}`;
      break;
    case 'array':
      text = `a${ref(shape.items)}`;
      break;
    case 'map':
      text = `m${ref(shape.values)}`;
      break;
    case 'object':
      text = `o${shape.open ? '+' : ''}${JSON.stringify(shape.props.map((p) => [p.name, p.optional, p.description ?? null, ref(p.ref)]))}`;
      break;
  }
  return createHash('sha1').update(text).digest('base64url');
}

/** A JSON enum value as a TypeScript literal type. */
function literal(value: unknown): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return JSON.stringify(value);
  return 'unknown';
}
