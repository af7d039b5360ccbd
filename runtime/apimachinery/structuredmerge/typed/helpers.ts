/**
 * What the typed walkers share (typed/helpers.go): resolving a TypeRef to the
 * atom that applies to a value, dispatching on it, and naming list items by
 * path element (a key for associative lists of maps, the value for sets).
 *
 * Values are decoded JSON. `undefined` stands for SMD's absent value (a nil
 * value.Value: the side of a merge or comparison that has nothing there);
 * `null` is an explicit null, which SMD also treats as an empty list or map.
 */
import { ownField } from '../../serializer/jsonvalue.js';
import type { PathElement } from '../fieldpath/index.js';
import type { Atom, List, MapType, Scalar, Schema, TypeRef } from '../schema/index.js';
import { atomEquals, findField, typeRefName } from '../schema/index.js';
import type { Field, Value } from '../value/index.js';
import { goQuote, sortFieldList } from '../value/index.js';
import type { ValidationError } from './errors.js';
import { errorf } from './errors.js';
import { unstructuredType, valueSharpV, valueV } from './gofmt.js';

/** A decoded JSON object (value.Map). */
export type ValueMap = Readonly<Record<string, Value>>;

export function isValueMap(v: Value): v is ValueMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isValueList(v: Value): v is readonly Value[] {
  return Array.isArray(v);
}

/** Numbers, strings and booleans. */
export function isScalarValue(v: Value): v is number | string | boolean {
  return typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean';
}

/** The TypeRef that refers to nothing: the type of a map key its schema neither declares nor allows. */
export const EMPTY_TYPE_REF: TypeRef = Object.freeze({});

/** One walker's handling of the three kinds of atom, for a node of its own state `S`. */
export interface AtomHandler<S> {
  doScalar(t: Scalar, s: S): ValidationError[];
  doList(t: List, s: S): ValidationError[];
  doMap(t: MapType, s: S): ValidationError[];
}

/** Resolves `tr`, deduces the atom that applies to `v` and hands the node to `ah` (resolveSchema). */
export function resolveSchema<S>(schema: Schema, tr: TypeRef, v: Value, ah: AtomHandler<S>, s: S): ValidationError[] {
  const a = schema.resolve(tr);
  if (a === undefined) return errorf(`schema error: no type found matching: ${typeRefName(tr)}`);
  return handleAtom(deduceAtom(a, v), tr, ah, s);
}

/** One node of a two-sided walk (merge, compare): the left and right values, either absent (undefined). */
export interface SidesNode {
  readonly lhs: Value;
  readonly rhs: Value;
}

/**
 * Resolves `tr` for both sides of a node and dispatches it (the start of the
 * merging and comparing walkers' step). An absent side takes the other's
 * kind; when the sides are of different kinds (a deduced type), the left is
 * handled on a copy of the node, only for its errors, and the right on the
 * node. `dispatched` is false when the node could not be handled at all.
 */
export function handleSides<S extends SidesNode>(schema: Schema, tr: TypeRef, ah: AtomHandler<S>, node: S): { errors: ValidationError[]; dispatched: boolean } {
  if (node.lhs === undefined && node.rhs === undefined) return { errors: errorf('at least one of lhs and rhs must be provided'), dispatched: false };
  const a = schema.resolve(tr);
  if (a === undefined) return { errors: errorf(`schema error: no type found matching: ${typeRefName(tr)}`), dispatched: false };
  const alhs = deduceAtom(a, node.lhs);
  const arhs = deduceAtom(a, node.rhs);
  if (node.rhs === undefined) return { errors: handleAtom(alhs, tr, ah, node), dispatched: true };
  if (node.lhs === undefined || atomEquals(alhs, arhs)) return { errors: handleAtom(arhs, tr, ah, node), dispatched: true };
  const errors = handleAtom(alhs, tr, ah, { ...node });
  return { errors: errors.concat(handleAtom(arhs, tr, ah, node)), dispatched: true };
}

/**
 * The part of `atom` that applies to `v` (deduceAtom): a deduced type may be
 * a scalar, a list and a map at once, and the value picks. A value of no
 * allowed kind, or absent or null, keeps the whole atom; validation then
 * reports the mismatch.
 */
export function deduceAtom(atom: Atom, v: Value): Atom {
  if (v === undefined || v === null) return atom;
  if (isScalarValue(v)) return atom.scalar !== undefined ? { scalar: atom.scalar } : atom;
  if (Array.isArray(v)) return atom.list !== undefined ? { list: atom.list } : atom;
  return atom.map !== undefined ? { map: atom.map } : atom;
}

/** Dispatches to the handler for the first of map, scalar, list that `a` has (handleAtom). */
export function handleAtom<S>(a: Atom, tr: TypeRef, ah: AtomHandler<S>, s: S): ValidationError[] {
  if (a.map !== undefined) return ah.doMap(a.map, s);
  if (a.scalar !== undefined) return ah.doScalar(a.scalar, s);
  if (a.list !== undefined) return ah.doList(a.list, s);
  const name = tr.namedType === undefined ? 'inlined' : `named type: ${tr.namedType}`;
  return errorf(`schema error: invalid atom: ${name}`);
}

/** A value as a list: the list, undefined for null (a valid empty list), or an error message. */
export function listValue(v: Value): readonly Value[] | undefined | string {
  if (v === null || v === undefined) return undefined;
  if (!Array.isArray(v)) return `expected list, got ${valueV(v)}`;
  return v;
}

/** A value as a map: the map, undefined for null (a valid empty map), or an error message. */
export function mapValue(v: Value): ValueMap | undefined | string {
  if (v === undefined) return 'expected map, got nil';
  if (v === null) return undefined;
  if (!isValueMap(v)) return `expected map, got ${valueV(v)}`;
  return v;
}

/** The type of the value under `key` of map type `t`: its field's, else the element type (possibly none). */
export function mapFieldType(t: MapType, key: string): TypeRef {
  return findField(t, key)?.type ?? t.elementType ?? EMPTY_TYPE_REF;
}

/** Why a list item has no path element: the message SMD's listItemToPathElement returns. */
export class ListItemError {
  constructor(readonly message: string) {}
}

/** The default of key field `fieldName` of an associative list's element type (undefined: none). */
function associativeKeyDefault(schema: Schema, list: List, fieldName: string): Value | ListItemError {
  const atom = schema.resolve(list.elementType);
  if (atom === undefined) return new ListItemError('invalid elementType for list');
  if (atom.map === undefined) return new ListItemError('associative list may not have non-map types');
  return findField(atom.map, fieldName)?.default;
}

function keyedItemPathElement(schema: Schema, list: List, keys: readonly string[], child: Value): PathElement | ListItemError {
  if (child === null || child === undefined) return new ListItemError('associative list with keys may not have a null element');
  if (!isValueMap(child)) return new ListItemError('associative list with keys may not have non-map elements');
  const key: Field[] = [];
  for (const name of keys) {
    const v = ownField(child, name);
    if (v !== undefined) {
      key.push({ name, value: v });
      continue;
    }
    const def = associativeKeyDefault(schema, list, name);
    if (def instanceof ListItemError) return new ListItemError(`couldn't find default value for ${name}: ${def.message}`);
    // A key field with neither a value nor a default is left out: that names a different item.
    if (def !== undefined && def !== null) key.push({ name, value: def });
  }
  if (keys.length > 0 && key.length === 0) {
    return new ListItemError(`associative list with keys has an element that omits all key fields [${keys.map(goQuote).join(' ')}] (and doesn't have default values for any key fields)`);
  }
  return { key: sortFieldList(key) };
}

function setItemPathElement(child: Value): PathElement | ListItemError {
  if (Array.isArray(child)) return new ListItemError('not supported: associative list with lists as elements');
  if (child === null || child === undefined) return new ListItemError("associative list without keys has an element that's an explicit null");
  if (isValueMap(child)) return new ListItemError("associative list without keys has an element that's a map type");
  return { value: child };
}

/**
 * The path element naming `child` in associative list `list`: its key fields
 * (with their defaults) when the list has keys, else its value (a set).
 */
export function listItemToPathElement(schema: Schema, list: List, child: Value): PathElement | ListItemError {
  if (list.elementRelationship !== 'associative') return new ListItemError('invalid indexing of non-associative list');
  const keys = list.keys ?? [];
  if (keys.length > 0) return keyedItemPathElement(schema, list, keys, child);
  return setItemPathElement(child);
}

/**
 * The errors of a scalar node of a two-sided walk: none when at least one
 * side is a valid scalar (the merge or comparison then takes it as a leaf).
 */
export function validateScalarSides(t: Scalar, node: SidesNode): ValidationError[] {
  const lerrs = validateScalar(t, node.lhs, 'lhs: ');
  const rerrs = validateScalar(t, node.rhs, 'rhs: ');
  return lerrs.length > 0 && rerrs.length > 0 ? lerrs.concat(rerrs) : [];
}

/** Validates a scalar against its type; absent and null are valid for every type (validateScalar). */
export function validateScalar(t: Scalar, v: Value, prefix: string): ValidationError[] {
  if (v === undefined || v === null) return [];
  switch (t) {
    case 'numeric':
      return typeof v === 'number' ? [] : errorf(`${prefix}expected numeric (int or float), got ${unstructuredType(v)}`);
    case 'string':
      return typeof v === 'string' ? [] : errorf(`${prefix}expected string, got ${valueSharpV(v)}`);
    case 'boolean':
      return typeof v === 'boolean' ? [] : errorf(`${prefix}expected boolean, got ${valueV(v)}`);
    case 'untyped':
      return isScalarValue(v) ? [] : errorf(`${prefix}expected any scalar, got ${valueV(v)}`);
    default:
      return errorf(`${prefix}unexpected scalar type in schema: ${String(t)}`);
  }
}
