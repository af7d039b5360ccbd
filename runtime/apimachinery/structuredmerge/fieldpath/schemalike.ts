/**
 * The part of SMD's schema that Set.ensureNamedFieldsAreMembers reads.
 * fieldpath sits below schema/typed, so it declares what it needs; the
 * structured-merge Schema satisfies it with its own TypeRef as `TR`.
 */
export interface StructFieldLike<TR> {
  readonly name: string;
  readonly type: TR;
}

export interface MapLike<TR> {
  readonly fields?: readonly StructFieldLike<TR>[];
  readonly elementType?: TR;
}

export interface ListLike<TR> {
  readonly elementType: TR;
}

export interface AtomLike<TR> {
  readonly map?: MapLike<TR>;
  readonly list?: ListLike<TR>;
}

export interface SchemaLike<TR> {
  /** The atom a type reference names, or undefined when it cannot be resolved. */
  resolve(tr: TR): AtomLike<TR> | undefined;
  /** A faster field lookup when the schema has one (Map.FindField); a scan of `fields` otherwise. */
  findField?(map: MapLike<TR>, name: string): StructFieldLike<TR> | undefined;
}

/** Map.FindField through the schema's lookup when it has one. */
export function findField<TR>(schema: SchemaLike<TR>, map: MapLike<TR>, name: string): StructFieldLike<TR> | undefined {
  if (schema.findField) return schema.findField(map, name);
  return map.fields?.find((f) => f.name === name);
}
