/**
 * fieldpath.PathElement: one step of a path into an object. A field of a
 * struct or map, the key of an associative list element, the value of a set
 * element, or the index of an element of an atomic/unkeyed list.
 */
import { compareStrings, compareValues, valueEquals, type Value } from '../value/compare.js';
import { compareFieldLists, fieldListEquals, sortFieldList, type Field, type FieldList } from '../value/fields.js';
import { valueToString } from '../value/tostring.js';

export type PathElement = { readonly fieldName: string } | { readonly key: FieldList } | { readonly value: Value } | { readonly index: number };

/** FieldNameElement. */
export function fieldNameElement(name: string): PathElement {
  return { fieldName: name };
}

/** KeyElement: the fields must already be sorted by name (sortFieldList). */
export function keyElement(...fields: Field[]): PathElement {
  return { key: fields };
}

/** KeyElementByFields: alternating names and values, sorted by name. */
export function keyElementByFields(...nameValues: unknown[]): PathElement {
  return { key: keyByFields(...nameValues) };
}

/** ValueElement. */
export function valueElement(value: Value): PathElement {
  return { value };
}

/** IndexElement. */
export function indexElement(index: number): PathElement {
  return { index };
}

/** KeyByFields: a sorted FieldList from alternating names and values. */
export function keyByFields(...nameValues: unknown[]): FieldList {
  if (nameValues.length % 2 !== 0) throw new Error('must have a value for every name');
  const out: Field[] = [];
  for (let i = 0; i < nameValues.length; i += 2) {
    const name = nameValues[i];
    if (typeof name !== 'string') throw new Error(`field name ${String(name)} is not a string`);
    out.push({ name, value: nameValues[i + 1] });
  }
  return sortFieldList(out);
}

/** The rank of an element's kind: field names < keys < values < indices. */
function elementRank(pe: PathElement): number {
  if ('fieldName' in pe) return 0;
  if ('key' in pe) return 1;
  if ('value' in pe) return 2;
  return 3;
}

/** PathElement.Compare: by kind (fields, keys, values, indices), then by content. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  const ra = elementRank(a);
  const rb = elementRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if ('fieldName' in a) return compareStrings(a.fieldName, (b as { readonly fieldName: string }).fieldName);
  if ('key' in a) return compareFieldLists(a.key, (b as { readonly key: FieldList }).key);
  if ('value' in a) return compareValues(a.value, (b as { readonly value: Value }).value);
  const ib = (b as { readonly index: number }).index;
  return a.index < ib ? -1 : a.index > ib ? 1 : 0;
}

/** PathElement.Less. */
export function pathElementLess(a: PathElement, b: PathElement): boolean {
  return comparePathElements(a, b) < 0;
}

/** PathElement.Equals. */
export function pathElementEquals(a: PathElement, b: PathElement): boolean {
  if ('fieldName' in a) return 'fieldName' in b && a.fieldName === b.fieldName;
  if ('key' in a) return 'key' in b && fieldListEquals(a.key, b.key);
  if ('value' in a) return 'value' in b && valueEquals(a.value, b.value);
  return 'index' in b && a.index === b.index;
}

/** PathElement.String: `.name`, `[a=1,b="x"]`, `[=v]`, `[3]`. */
export function pathElementString(pe: PathElement): string {
  if ('fieldName' in pe) return `.${pe.fieldName}`;
  if ('key' in pe) return `[${pe.key.map((f) => `${f.name}=${valueToString(f.value)}`).join(',')}]`;
  if ('value' in pe) return `[=${valueToString(pe.value)}]`;
  return `[${pe.index}]`;
}
