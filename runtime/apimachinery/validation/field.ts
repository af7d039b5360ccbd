/**
 * Field errors, as k8s.io/apimachinery/pkg/util/validation/field: the causes
 * of a 422 Invalid Status. `field` is the path in the object
 * (`spec.ports[0].port`), `type` the Kubernetes cause type.
 */
export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

export interface FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  readonly badValue?: unknown;
  readonly detail: string;
}

const NO_VALUE = Symbol('no value');

/** The wording kube-apiserver uses for each cause type, e.g. `Invalid value`. */
const WORDING: Readonly<Record<FieldErrorType, string>> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Types whose message shows the offending value, as field.Error.ErrorBody does. */
const SHOWS_VALUE: ReadonlySet<FieldErrorType> = new Set(['FieldValueInvalid', 'FieldValueNotSupported', 'FieldValueDuplicate', 'FieldValueNotFound', 'FieldValueTypeInvalid']);

/** `spec.reference: Invalid value: "Bad_Name": must match …`, as kubectl prints causes. */
export function formatFieldError(e: FieldError): string {
  return `${e.field}: ${formatFieldErrorBody(e)}`;
}

/** The message without the field (field.Error.ErrorBody): what a Status cause carries. */
export function formatFieldErrorBody(e: FieldError): string {
  const parts = [WORDING[e.type]];
  const value = 'badValue' in e ? e.badValue : NO_VALUE;
  if (SHOWS_VALUE.has(e.type) && value !== NO_VALUE) parts.push(formatValue(value));
  if (e.detail !== '') parts.push(e.detail);
  return parts.join(': ');
}

/**
 * A bad value printed as Go's field.Error prints a value with no JSON form of its own: `%#v`
 * (`rbac.RoleRef{APIGroup:"…", Kind:"Role", Name:"x"}`, `[]string{"/*"}`), given verbatim.
 */
export class GoValue {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
  toJSON(): string {
    return this.text;
  }
}

function formatValue(value: unknown): string {
  if (value instanceof GoValue) return value.text;
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Appends a path segment: `child('spec', 'ports')` → `spec.ports`; numbers index. */
export function childPath(parent: string, segment: string | number): string {
  if (typeof segment === 'number') return `${parent}[${segment}]`;
  if (parent === '') return segment;
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(segment) ? `${parent}.${segment}` : `${parent}[${JSON.stringify(segment)}]`;
}
