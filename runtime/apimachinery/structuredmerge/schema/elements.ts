/**
 * The schema model of sigs.k8s.io/structured-merge-diff (schema/elements.go).
 * Its shape is that of SMD's schema YAML: a TypeRef or TypeDef carries its
 * atom (scalar, list, map) inline, so a schema document loaded with the
 * `yaml` package is a SchemaDocument as it is. Schemas are read-only data;
 * the lookups that SMD caches (named types, map fields, resolved overrides)
 * are cached here beside the data, keyed by the objects themselves.
 */

/** How the members of a list or map relate: merged by key, replaced whole, or merged field by field. */
export type ElementRelationship = 'associative' | 'atomic' | 'separable';

/** The scalar kinds: numeric (int or float), string, boolean, or any of them (untyped). */
export type Scalar = 'numeric' | 'string' | 'boolean' | 'untyped';

/**
 * A type: at most one each of scalar, list and map. More than one is set only
 * for deduced types, where the value picks which applies.
 */
export interface Atom {
  readonly scalar?: Scalar;
  readonly list?: List;
  readonly map?: MapType;
}

/** A reference to a type: a named type, or an inlined atom; elementRelationship overrides the referenced list's or map's. */
export interface TypeRef extends Atom {
  readonly namedType?: string;
  readonly elementRelationship?: ElementRelationship;
  /** Kept for parity with SMD's schema (compared by equals); merging does not read it. */
  readonly nullable?: boolean;
}

/** A named type of a schema. */
export interface TypeDef extends Atom {
  readonly name: string;
}

export interface StructField {
  readonly name: string;
  readonly type: TypeRef;
  /** The value a missing key field of an associative list item takes. */
  readonly default?: unknown;
}

export interface UnionField {
  readonly fieldName: string;
  readonly discriminatorValue: string;
}

export interface Union {
  readonly discriminator?: string;
  readonly deduceInvalidDiscriminator?: boolean;
  readonly fields?: readonly UnionField[];
}

/**
 * A map or struct: fields are the known keys with their types; any other key
 * has elementType (no elementType: other keys are invalid). Separable by default.
 */
export interface MapType {
  readonly fields?: readonly StructField[];
  readonly unions?: readonly Union[];
  readonly elementType?: TypeRef;
  readonly elementRelationship?: ElementRelationship;
}

/**
 * A list: atomic by default; associative with keys is a list of maps merged by
 * those key fields, associative without keys is a set of scalars.
 */
export interface List {
  readonly elementType: TypeRef;
  readonly elementRelationship?: ElementRelationship;
  readonly keys?: readonly string[];
}

export interface SchemaDocument {
  readonly types?: readonly TypeDef[];
}

const fieldIndexes = new WeakMap<MapType, ReadonlyMap<string, StructField>>();

/**
 * The field `name` of map type `m` (Map.FindField), through an index built on
 * first use. Field names are data: a Map, so `__proto__` is a name like any other.
 */
export function findField(m: MapType, name: string): StructField | undefined {
  let index = fieldIndexes.get(m);
  if (index === undefined) {
    const built = new Map<string, StructField>();
    for (const f of m.fields ?? []) built.set(f.name, f);
    fieldIndexes.set(m, built);
    index = built;
  }
  return index.get(name);
}

/** Whether a TypeRef is the zero TypeRef (refers to nothing): SMD's `tr == schema.TypeRef{}`. */
export function isEmptyTypeRef(tr: TypeRef | undefined): boolean {
  return tr === undefined || (tr.namedType === undefined && tr.scalar === undefined && tr.list === undefined && tr.map === undefined && tr.elementRelationship === undefined && tr.nullable !== true);
}

/** A TypeRef's human-readable name, as SMD prints it in errors: the named type, or "inlined type". */
export function typeRefName(tr: TypeRef): string {
  return tr.namedType ?? 'inlined type';
}

/** A schema: a set of named types, and the resolution of a TypeRef to the atom it denotes. */
export class Schema {
  readonly types: readonly TypeDef[];
  private readonly named = new Map<string, TypeDef>();
  /** Each named type's atom alone (without its name), as resolve answers it. */
  private readonly namedAtoms = new Map<string, Atom>();
  /** Overridden atoms per TypeRef object (Resolve's resolvedTypes). */
  private readonly resolved = new WeakMap<TypeRef, Atom>();

  constructor(doc: SchemaDocument = {}) {
    this.types = doc.types ?? [];
    // A name defined twice resolves to its last definition, as SMD's index does.
    for (const t of this.types) {
      this.named.set(t.name, t);
      this.namedAtoms.set(t.name, atomOf(t));
    }
  }

  /** Map.FindField through the cached index (what fieldpath's SchemaLike looks fields up with). */
  findField(m: MapType, name: string): StructField | undefined {
    return findField(m, name);
  }

  /** The named type `name`, or undefined (FindNamedType). */
  findNamedType(name: string): TypeDef | undefined {
    return this.named.get(name);
  }

  /**
   * The atom `tr` denotes, or undefined when it names an unknown type or
   * overrides the element relationship of a scalar (Resolve). An override
   * yields a copy of the list or map with the relationship replaced.
   */
  resolve(tr: TypeRef): Atom | undefined {
    if (tr.elementRelationship === undefined) return this.resolveNoOverrides(tr);
    const cached = this.resolved.get(tr);
    if (cached !== undefined) return cached;
    const base = this.resolveNoOverrides(tr);
    if (base === undefined) return undefined;
    let result: Atom;
    if (base.map !== undefined) result = { map: overrideRelationship(base.map, tr.elementRelationship) };
    else if (base.list !== undefined) result = { list: { ...base.list, elementRelationship: tr.elementRelationship } };
    else return undefined;
    this.resolved.set(tr, result);
    return result;
  }

  private resolveNoOverrides(tr: TypeRef): Atom | undefined {
    // An inlined TypeRef carries its atom: it serves as the atom itself.
    if (tr.namedType === undefined) return tr;
    return this.namedAtoms.get(tr.namedType);
  }
}

/** The scalar, list and map of a type, and nothing else. */
function atomOf(a: Atom): Atom {
  return {
    ...(a.scalar !== undefined ? { scalar: a.scalar } : {}),
    ...(a.list !== undefined ? { list: a.list } : {}),
    ...(a.map !== undefined ? { map: a.map } : {}),
  };
}

/** A copy of `m` with its relationship replaced, sharing m's field index (Map.CopyInto). */
function overrideRelationship(m: MapType, er: ElementRelationship): MapType {
  const copy: MapType = { ...m, elementRelationship: er };
  const index = fieldIndexes.get(m);
  if (index !== undefined) fieldIndexes.set(copy, index);
  return copy;
}
