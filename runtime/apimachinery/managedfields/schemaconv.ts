import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import type { Atom, ElementRelationship, List, MapType, StructField, TypeDef, TypeRef } from '../structuredmerge/schema/index.js';
import { hasField, isJSONObject, ownField } from '../serializer/jsonvalue.js';

/**
 * Structural schema → structured-merge-diff schema, as kube-openapi's schemaconv
 * (ToSchemaFromOpenAPI) converts a kube OpenAPI definition. A `$ref` (bare, or the single
 * element of `allOf`) becomes a reference to the named type of that definition, which the
 * caller converts once (so recursive definitions, as JSONSchemaProps, terminate); everything
 * else is inlined. A CRD's structural schema has no `$ref`, so it is inlined whole.
 */

/** The name of SMD's atomic untyped type: any value, replaced whole. */
export const untypedName = '__untyped_atomic_';
/** The name of SMD's deduced type: maps merge key by key, everything else is atomic. */
export const deducedName = '__untyped_deduced_';

export const untypedDef: TypeDef = {
  name: untypedName,
  scalar: 'untyped',
  list: { elementType: { namedType: untypedName }, elementRelationship: 'atomic' },
  map: { elementType: { namedType: untypedName }, elementRelationship: 'atomic' },
};

export const deducedDef: TypeDef = {
  name: deducedName,
  scalar: 'untyped',
  list: { elementType: { namedType: untypedName }, elementRelationship: 'atomic' },
  map: { elementType: { namedType: deducedName }, elementRelationship: 'separable' },
};

/** The markers built-in kinds carry from their `+patchStrategy`/`+patchMergeKey` tags (not part of a CRD's schema). */
type Markers = JSONSchemaProps & { readonly 'x-kubernetes-patch-strategy'?: unknown; readonly 'x-kubernetes-patch-merge-key'?: unknown };

/**
 * Converts one definition. Errors are collected, not thrown, each prefixed with the name of
 * the type being converted (`inlined in <parent>` below the root), so a caller reports all of
 * them at once as kube does.
 */
export class SchemaConverter {
  readonly errors: string[] = [];
  /** The definitions the converted atoms refer to by name, in the order first met. */
  readonly references = new Set<string>();

  /**
   * @param objectMeta the type put at `metadata` of a resource root and of every embedded
   *   resource (kube's CRD OpenAPI refers them to ObjectMeta whatever the schema says)
   */
  constructor(private readonly objectMeta: TypeRef) {}

  /** The atom of a definition named `name` (visitSpec at the top level). */
  convertDefinition(name: string, schema: Markers, preserveUnknownFields: boolean, resource: boolean): Atom {
    return this.visit(schema, { name, inlined: 0, preserve: preserveUnknownFields || schema['x-kubernetes-preserve-unknown-fields'] === true }, resource);
  }

  private visit(m: Markers, ctx: Context, resource: boolean): Atom {
    const typ = m.type ?? '';
    switch (typ) {
      case '':
        return { scalar: 'untyped', list: this.parseList(m, ctx), map: this.parseObject(m, ctx, resource) };
      case 'object':
        return { map: this.parseObject(m, ctx, resource) };
      case 'array':
        return { list: this.parseList(m, ctx) };
      case 'integer':
      case 'number':
        return { scalar: 'numeric' };
      case 'boolean':
        return { scalar: 'boolean' };
      case 'string':
        // Only plain strings and bytes are strings to SMD; every other format (date-time,
        // int-or-string, quantity…) may compare as another scalar kind, so it is untyped.
        return { scalar: m.format === undefined || m.format === '' || m.format === 'byte' ? 'string' : 'untyped' };
      default:
        this.report(ctx, `unrecognized type: '${typ}'`);
        return { scalar: 'untyped' };
    }
  }

  /**
   * The type of a field, an item or an additional property (makeOpenAPIRef): the named type of
   * a referenced definition, with the referring schema's map type and nullability, or the
   * schema inlined. The referring schema's other markers do not apply to a named type, as in kube.
   */
  private ref(m: Markers, parent: Context): TypeRef {
    const named = referencedName(m);
    if (named !== undefined) {
      this.references.add(named);
      const relationship = this.mapRelationship(m, parent);
      return { namedType: named, ...(relationship !== undefined ? { elementRelationship: relationship } : {}), ...(m.nullable === true ? { nullable: true } : {}) };
    }
    const ctx: Context = { name: parent.name, inlined: parent.inlined + 1, preserve: parent.preserve || m['x-kubernetes-preserve-unknown-fields'] === true };
    const atom = this.visit(m, ctx, m['x-kubernetes-embedded-resource'] === true);
    return m.nullable === true ? { ...atom, nullable: true } : atom;
  }

  private parseObject(s: Markers, ctx: Context, resource: boolean): MapType {
    const fields: StructField[] = [];
    const props = s.properties ?? {};
    const declared = (name: string): boolean => hasField(props, name);
    for (const [name, member] of Object.entries(props)) {
      if (resource && name === 'metadata') continue;
      const field: StructField = { name, type: this.ref(member, ctx) };
      fields.push(member.default === undefined ? field : { ...field, default: member.default });
    }
    if (resource) {
      // TypeMeta and ObjectMeta, as kube's CRD OpenAPI builder adds them to the root and to embedded resources.
      for (const name of ['apiVersion', 'kind']) if (!declared(name)) fields.push({ name, type: { scalar: 'string' } });
      fields.push({ name: 'metadata', type: this.objectMeta });
    }
    const out: { fields: StructField[]; elementType?: TypeRef; elementRelationship?: ElementRelationship } = { fields };
    const elementType = this.elementType(s, ctx, Object.keys(props).length);
    if (elementType !== undefined) out.elementType = elementType;
    const relationship = this.mapRelationship(s, ctx);
    if (relationship !== undefined) out.elementRelationship = relationship;
    return out;
  }

  /** The type of keys the schema does not declare; undefined when there may be none. */
  private elementType(s: Markers, ctx: Context, declared: number): TypeRef | undefined {
    const additional = s.additionalProperties;
    if (additional === undefined) {
      // An object without properties is free-form; with properties, unknown keys are invalid
      // unless unknown fields are preserved here or above.
      return ctx.preserve || declared === 0 ? { namedType: deducedName } : undefined;
    }
    if (typeof additional === 'object') return this.ref(additional, ctx);
    return additional ? { namedType: deducedName } : undefined;
  }

  private mapRelationship(s: Markers, ctx: Context): ElementRelationship | undefined {
    const val = s['x-kubernetes-map-type'];
    if (val === undefined) return undefined;
    if (val === 'atomic') return 'atomic';
    if (val === 'granular') return 'separable';
    this.report(ctx, `unknown map type ${String(val)}`);
    return undefined;
  }

  private parseList(s: Markers, ctx: Context): List {
    const { relationship, keys } = this.listRelationship(s, ctx);
    const out: { elementType: TypeRef; elementRelationship: ElementRelationship; keys?: string[] } = { elementType: this.itemType(s, ctx), elementRelationship: relationship };
    if (keys !== undefined) out.keys = keys;
    return out;
  }

  private itemType(s: Markers, ctx: Context): TypeRef {
    const items = s.items;
    if (items !== undefined) {
      if (Array.isArray(items)) {
        this.report(ctx, 'structural schema arrays must have exactly one member subtype');
        return { namedType: deducedName };
      }
      return this.ref(items, ctx);
    }
    if (s.type !== undefined && s.type !== '') this.report(ctx, '`items` must be specified on arrays');
    // A list without items holds anything, atomically.
    return { namedType: untypedName };
  }

  private listRelationship(s: Markers, ctx: Context): { relationship: ElementRelationship; keys?: string[] } {
    const listType = s['x-kubernetes-list-type'];
    if (listType !== undefined) {
      if (listType === 'atomic') return { relationship: 'atomic' };
      if (listType === 'set') return { relationship: 'associative' };
      if (listType === 'map') {
        const keys: unknown = s['x-kubernetes-list-map-keys'];
        if (keys === undefined) {
          this.report(ctx, 'missing map keys');
          return { relationship: 'associative' };
        }
        if (!Array.isArray(keys)) {
          this.report(ctx, `uninterpreted map keys: ${JSON.stringify(keys)}`);
          return { relationship: 'associative' };
        }
        return { relationship: 'associative', keys: keys.filter((k): k is string => typeof k === 'string') };
      }
      this.report(ctx, `unknown list type ${String(listType)}`);
      return { relationship: 'atomic' };
    }
    const strategy = s['x-kubernetes-patch-strategy'];
    if (strategy !== undefined) {
      if (strategy === 'merge' || strategy === 'merge,retainKeys') {
        const key = s['x-kubernetes-patch-merge-key'];
        // Without a merge key, a merged list is a set.
        if (key === undefined) return { relationship: 'associative' };
        if (typeof key !== 'string') {
          this.report(ctx, `uninterpreted merge key: ${JSON.stringify(key)}`);
          return { relationship: 'associative' };
        }
        return { relationship: 'associative', keys: [key] };
      }
      if (strategy === 'retainKeys') return { relationship: 'atomic' };
      this.report(ctx, `unknown patch strategy ${String(strategy)}`);
      return { relationship: 'atomic' };
    }
    return { relationship: 'atomic' };
  }

  private report(ctx: Context, message: string): void {
    this.errors.push(`${'inlined in '.repeat(ctx.inlined)}${ctx.name}: ${message}`);
  }
}

/**
 * The definition name a schema refers to: the last segment of its `$ref`, or of the `$ref` of
 * its single `allOf` element (as kube-openapi emits a field's reference beside its description).
 */
export function referencedName(m: JSONSchemaProps): string | undefined {
  let ref = ownField(m, '$ref');
  const allOf = ownField(m, 'allOf');
  if ((ref === undefined || ref === '') && Array.isArray(allOf) && allOf.length === 1 && isJSONObject(allOf[0])) ref = ownField(allOf[0], '$ref');
  if (typeof ref !== 'string') return undefined;
  const name = ref.slice(ref.lastIndexOf('/') + 1);
  return name === '' ? undefined : name;
}

interface Context {
  /** The definition's name. */
  readonly name: string;
  /** How deep below the definition the type is inlined: errors name it `inlined in ` that many times before the name. */
  readonly inlined: number;
  /** Whether unknown fields are kept here (x-kubernetes-preserve-unknown-fields here or above, or the converter's flag). */
  readonly preserve: boolean;
}
