import { quote } from '../../apimachinery/util/strconv.js';
import type { FieldError } from '../../apimachinery/validation/field.js';

/**
 * field.Path and field.Error constructors with kube's spelling: `a.b`, `a[0]`, and map keys
 * unquoted (`properties[spec]`), as kube prints them in CRD validation errors.
 */
export const child = (path: string, ...names: string[]): string => names.reduce((p, n) => (p === '' ? n : `${p}.${n}`), path);
export const index = (path: string, i: number): string => `${path}[${i}]`;
export const key = (path: string, k: string): string => `${path}[${k}]`;

export const required = (field: string, detail = ''): FieldError => ({ type: 'FieldValueRequired', field, detail });
export const invalid = (field: string, badValue: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue, detail });
export const forbidden = (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail });
export const notSupported = (field: string, badValue: unknown, supported: readonly string[]): FieldError => ({
  type: 'FieldValueNotSupported',
  field,
  badValue,
  detail: `supported values: ${supported.map(quote).join(', ')}`,
});
export const duplicate = (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, badValue, detail: '' });
export const tooMany = (field: string, actual: number, max: number): FieldError => ({ type: 'FieldValueTooMany', field, detail: `${actual}: must have at most ${max} items` });

/**
 * An Invalid error whose value kube prints with Go's %#v (a struct or a slice): the text is
 * given as is, since JSON would not be what kube shows.
 */
export const invalidGo = (field: string, goValue: string, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, detail: `${goValue}: ${detail}` });

/** Go's %#v of a []string. */
export function goStrings(values: readonly string[]): string {
  return `[]string{${values.map(quote).join(', ')}}`;
}
