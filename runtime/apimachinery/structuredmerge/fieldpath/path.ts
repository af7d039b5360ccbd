/** fieldpath.Path: a list of path elements from the root of an object. */
import type { Value } from '../value/compare.js';
import type { FieldList } from '../value/fields.js';
import { comparePathElements, pathElementEquals, pathElementString, type PathElement } from './element.js';

export type Path = readonly PathElement[];

/** A part makePath accepts: a field name, an index, a key, a value element or a path element. */
export type PathPart = string | number | FieldList | { readonly value: Value } | PathElement;

/** Path.String: the elements' strings joined. */
export function pathString(p: Path): string {
  let out = '';
  for (const pe of p) out += pathElementString(pe);
  return out;
}

/** Path.Equals. */
export function pathEquals(a: Path, b: Path): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!pathElementEquals(a[i]!, b[i]!)) return false;
  return true;
}

/** Path.Compare: element by element, a prefix first. */
export function comparePaths(a: Path, b: Path): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = comparePathElements(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/**
 * One makePath part as a path element: strings are field names, numbers
 * indices, arrays keys (at least one field), `{ value }` a value element,
 * path elements themselves.
 */
export function pathPartElement(part: PathPart): PathElement {
  if (typeof part === 'string') return { fieldName: part };
  if (typeof part === 'number') {
    if (!Number.isSafeInteger(part)) throw new Error(`unable to make ${part} into a path element`);
    return { index: part };
  }
  if (Array.isArray(part)) {
    if (part.length === 0) throw new Error('associative list key type path elements must have at least one key (got zero)');
    return { key: part as FieldList };
  }
  if (typeof part === 'object' && part !== null) {
    const n = ('fieldName' in part ? 1 : 0) + ('key' in part ? 1 : 0) + ('value' in part ? 1 : 0) + ('index' in part ? 1 : 0);
    if (n === 1) return part as PathElement;
  }
  throw new Error(`unable to make ${JSON.stringify(part) ?? String(part)} into a path element`);
}

/** MakePathOrDie: throws on a part that is not a path element. */
export function makePath(...parts: PathPart[]): Path {
  return parts.map(pathPartElement);
}
