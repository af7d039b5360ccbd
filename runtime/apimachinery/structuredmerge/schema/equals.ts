/**
 * Structural equality of schema elements (schema/equals.go): what typed
 * operations use to check that two values have the same type, and that a
 * deduced atom is the same on both sides. An absent part equals its zero
 * value (an empty list of fields, no element type, no relationship).
 */
import { deepEqualJSON } from '../../serializer/jsonvalue.js';
import type { Atom, List, MapType, Schema, StructField, TypeDef, TypeRef, Union, UnionField } from './elements.js';
import { isEmptyTypeRef } from './elements.js';

export function schemaEquals(a: Schema | undefined, b: Schema | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return arrayEquals(a.types, b.types, typeDefEquals);
}

export function typeRefEquals(a: TypeRef | undefined, b: TypeRef | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return isEmptyTypeRef(a) && isEmptyTypeRef(b);
  return a.namedType === b.namedType && a.elementRelationship === b.elementRelationship && (a.nullable ?? false) === (b.nullable ?? false) && atomEquals(a, b);
}

export function typeDefEquals(a: TypeDef, b: TypeDef): boolean {
  return a === b || (a.name === b.name && atomEquals(a, b));
}

/** Whether two atoms have the same kinds, and the same first of scalar, list, map (Atom.Equals). */
export function atomEquals(a: Atom, b: Atom): boolean {
  if (a === b) return true;
  if ((a.scalar === undefined) !== (b.scalar === undefined)) return false;
  if ((a.list === undefined) !== (b.list === undefined)) return false;
  if ((a.map === undefined) !== (b.map === undefined)) return false;
  if (a.scalar !== undefined) return a.scalar === b.scalar;
  if (a.list !== undefined && b.list !== undefined) return listEquals(a.list, b.list);
  if (a.map !== undefined && b.map !== undefined) return mapEquals(a.map, b.map);
  return true;
}

export function mapEquals(a: MapType, b: MapType): boolean {
  return (
    a === b ||
    (typeRefEquals(a.elementType, b.elementType) &&
      (a.elementRelationship ?? '') === (b.elementRelationship ?? '') &&
      arrayEquals(a.fields, b.fields, structFieldEquals) &&
      arrayEquals(a.unions, b.unions, unionEquals))
  );
}

export function unionEquals(a: Union, b: Union): boolean {
  return a.discriminator === b.discriminator && (a.deduceInvalidDiscriminator ?? false) === (b.deduceInvalidDiscriminator ?? false) && arrayEquals(a.fields, b.fields, unionFieldEquals);
}

export function unionFieldEquals(a: UnionField, b: UnionField): boolean {
  return a.fieldName === b.fieldName && a.discriminatorValue === b.discriminatorValue;
}

export function structFieldEquals(a: StructField, b: StructField): boolean {
  return a.name === b.name && deepEqualJSON(a.default, b.default) && typeRefEquals(a.type, b.type);
}

export function listEquals(a: List, b: List): boolean {
  return a === b || (typeRefEquals(a.elementType, b.elementType) && (a.elementRelationship ?? '') === (b.elementRelationship ?? '') && arrayEquals(a.keys, b.keys, (x, y) => x === y));
}

function arrayEquals<T>(a: readonly T[] | undefined, b: readonly T[] | undefined, eq: (x: T, y: T) => boolean): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (!eq(x[i] as T, y[i] as T)) return false;
  return true;
}
