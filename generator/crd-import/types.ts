import type { JSONSchemaProps } from '../model/schema.js';
import { type Ref, type Shape, type ShapeNode, ShapeTable, OBJECT_META } from './shapes.js';

/** One kind of a group version, as the types module declares it. */
export interface KindSchema {
  readonly kind: string;
  readonly description: string;
  readonly schema: JSONSchemaProps;
}

type ObjectShape = Extract<Shape, { t: 'object' }>;

/**
 * The TypeScript declarations of the kinds of one group version: one
 * interface per kind, and one named interface per object structure that
 * repeats (within a kind or across kinds: ClusterIssuer and Issuer share
 * their spec), printed once and referenced where it recurs. Everything else
 * stays inline, where it is read. Names come from the shortest field path
 * that reaches a structure (`IssuerSpec`, `PrometheusSpecTLSConfig`), with a
 * number added on a clash, so the same schemas always give the same names.
 */
export function printTypes(kinds: readonly KindSchema[]): string {
  const table = new ShapeTable();
  const roots = kinds.map((k) => ({ ...k, shape: table.root(k.schema) }));
  const names = nameShapes(table, roots);
  const printer = new Printer(names);
  const out: string[] = [];
  for (const root of roots) {
    out.push(`${doc(root.description, '')}export interface ${root.kind} ${printer.body(root.shape as ObjectShape, '')}`);
  }
  for (const [node, name] of [...names].sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    out.push(`export interface ${name} ${printer.body(node.shape as ObjectShape, '')}`);
  }
  return out.join('\n\n');
}

/** The slots of a shape: where its children are, and the name segment each adds. */
function edges(shape: Shape): { segment: string; ref: Ref }[] {
  switch (shape.t) {
    case 'object':
      return shape.props.map((p) => ({ segment: segmentOf(p.name), ref: p.ref }));
    case 'array':
      return [{ segment: '', ref: shape.items }];
    case 'map':
      return [{ segment: 'Value', ref: shape.values }];
    case 'text':
      return [];
  }
}

function nameable(shape: Shape): boolean {
  return shape.t === 'object' && shape.props.length > 0;
}

/**
 * Which shapes get a name, and which. A shape is named when it would be
 * printed more than once: counted over the shapes that print it (a named or
 * inline object prints its fields once; an array or map prints its element
 * wherever the array itself is printed).
 */
function nameShapes(table: ShapeTable, roots: readonly { kind: string; shape: Shape }[]): Map<ShapeNode, string> {
  const uses = new Map<ShapeNode, number>();
  const candidates = new Map<ShapeNode, string>();
  const reach = (node: ShapeNode, weight: number, candidate: string): void => {
    uses.set(node, (uses.get(node) ?? 0) + weight);
    const best = candidates.get(node);
    if (best === undefined || candidate.length < best.length || (candidate.length === best.length && candidate < best)) {
      candidates.set(node, candidate);
    }
  };
  for (const root of roots) for (const e of edges(root.shape)) reach(e.ref.node, 1, `${root.kind}${e.segment}`);
  const taken = new Set<string>([OBJECT_META, ...roots.map((r) => r.kind)]);
  const names = new Map<ShapeNode, string>();
  // Children are interned before their parents, so the reverse visits every parent first:
  // a node's uses and candidate names are complete when it is reached.
  for (let i = table.order.length - 1; i >= 0; i--) {
    const node = table.order[i]!;
    const count = uses.get(node) ?? 0;
    if (count === 0) continue;
    let prefix = candidates.get(node)!;
    if (nameable(node.shape) && count > 1) {
      let name = prefix;
      for (let n = 2; taken.has(name); n++) name = `${prefix}${n}`;
      taken.add(name);
      names.set(node, name);
      prefix = name;
    }
    const weight = nameable(node.shape) ? 1 : count;
    for (const e of edges(node.shape)) reach(e.ref.node, weight, `${prefix}${e.segment}`);
  }
  return names;
}

/** `x-kubernetes-foo` → `XKubernetesFoo`: a field name as part of a type name. */
function segmentOf(field: string): string {
  return field
    .split(/[^A-Za-z0-9]+/)
    .filter((s) => s !== '')
    .map((s) => s[0]!.toUpperCase() + s.slice(1))
    .join('');
}

class Printer {
  constructor(private readonly names: ReadonlyMap<ShapeNode, string>) {}

  body(shape: ObjectShape, indent: string): string {
    const inner = `${indent}  `;
    const lines = shape.props.map((p) => `${doc(p.description, inner)}${inner}${propertyKey(p.name)}${p.optional ? '?' : ''}: ${this.type(p.ref, inner).text};`);
    if (shape.open) lines.push(`${inner}[key: string]: unknown;`);
    return `{\n${lines.join('\n')}\n${indent}}`;
  }

  type(ref: Ref, indent: string): { text: string; union: boolean } {
    const t = this.shapeText(ref.node, indent);
    return ref.nullable ? { text: `${t.text} | null`, union: true } : t;
  }

  private shapeText(node: ShapeNode, indent: string): { text: string; union: boolean } {
    const name = this.names.get(node);
    if (name !== undefined) return { text: name, union: false };
    const shape = node.shape;
    switch (shape.t) {
      case 'text':
        return { text: shape.text, union: shape.union };
      case 'array': {
        const items = this.type(shape.items, indent);
        return { text: items.union ? `(${items.text})[]` : `${items.text}[]`, union: false };
      }
      case 'map':
        return { text: `{ [key: string]: ${this.type(shape.values, indent).text} }`, union: false };
      case 'object':
        return { text: this.body(shape, indent), union: false };
    }
  }
}

function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function doc(text: string | undefined, indent: string): string {
  const trimmed = text?.trim();
  if (trimmed === undefined || trimmed === '') return '';
  const lines = trimmed
    .replace(/\*\//g, '*\\/')
    .split('\n')
    .map((l) => l.trimEnd());
  return `${indent}/**\n${lines.map((l) => (l === '' ? `${indent} *` : `${indent} * ${l}`)).join('\n')}\n${indent} */\n`;
}
