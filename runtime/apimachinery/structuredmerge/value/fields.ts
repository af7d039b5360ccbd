/**
 * value.Field / value.FieldList: the key of an associative list element,
 * kept sorted by name.
 */
import { compareStrings, compareValues, valueEquals, type Value } from './compare.js';

/** One name/value pair of a key. */
export interface Field {
  readonly name: string;
  readonly value: Value;
}

/** Fields sorted by name, each name once. */
export type FieldList = readonly Field[];

const byName = (a: Field, b: Field): number => compareStrings(a.name, b.name);

/** FieldList.Sort: sorts in place by name (stable) and returns the same array. */
export function sortFieldList(fl: Field[]): FieldList {
  if (fl.length > 1) fl.sort(byName);
  return fl;
}

/** FieldList.Compare: lexical, by name then value, a prefix first. */
export function compareFieldLists(a: FieldList, b: FieldList): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareStrings(a[i]!.name, b[i]!.name);
    if (c !== 0) return c;
    const v = compareValues(a[i]!.value, b[i]!.value);
    if (v !== 0) return v;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** FieldList.Less. */
export function fieldListLess(a: FieldList, b: FieldList): boolean {
  return compareFieldLists(a, b) < 0;
}

/** FieldList.Equals: same names in the same order with equal values. */
export function fieldListEquals(a: FieldList, b: FieldList): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i]!.name !== b[i]!.name || !valueEquals(a[i]!.value, b[i]!.value)) return false;
  }
  return true;
}
