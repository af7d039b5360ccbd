import { quote } from '../util/strconv.js';

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

/**
 * ErrorBody's value: a nil value is the string "null" (so `Invalid value: "null"`), a string is
 * %q, a number %v (an integer within int64 as int64, anything else as float64: `1e+20`), a
 * GoValue its own text. Other objects keep their JSON form (callers with a Go type of their own
 * pass a GoValue: goSyntax for unstructured values).
 */
function formatValue(value: unknown): string {
  if (value instanceof GoValue) return value.text;
  if (value === null || value === undefined) return quote('null');
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') return formatGoNumber(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const INT64_LIMIT = 2 ** 63;

/** A JSON number as Go holds it after an unstructured decode, printed with %v: int64 if it is one, else float64. */
export function formatGoNumber(n: number): string {
  if (Number.isInteger(n) && n >= -INT64_LIMIT && n < INT64_LIMIT) return BigInt(n).toString();
  return formatGoFloat(n);
}

/** fmt's %v (and %#v) of a float64: strconv 'g' with the shortest digits, so %e when the decimal exponent is < -4 or >= 6 (`1e+06`, `1.5e-05`). */
export function formatGoFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  const [mant = '0', expText = '0'] = Math.abs(n).toExponential().split('e');
  const digits = mant.replace('.', '');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${sign}${digits[0] ?? '0'}${frac}e${exp < 0 ? '-' : '+'}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const int = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${int}${frac === '' ? '' : `.${frac}`}`;
}

/**
 * Go's %#v of a value of unstructured content (what encoding/json gives an interface{}):
 * `map[string]interface {}{"a":1, "b":"x"}` (keys sorted, as fmt sorts them),
 * `[]interface {}{"a", 1}`, strings %q, int64 and float64 %v, bools, nil as `interface {}(nil)`.
 */
export function goSyntax(value: unknown): GoValue {
  return new GoValue(goSyntaxText(value, true));
}

function goSyntaxText(value: unknown, top: boolean): string {
  if (value === null || value === undefined) return top ? '<nil>' : 'interface {}(nil)';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') return formatGoNumber(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map((v) => goSyntaxText(v, false)).join(', ')}}`;
  if (typeof value === 'object') {
    const keys = Object.keys(value).sort(compareGoStrings);
    const entries = keys.map((k) => `${quote(k)}:${goSyntaxText((value as Record<string, unknown>)[k], false)}`);
    return `map[string]interface {}{${entries.join(', ')}}`;
  }
  return String(value);
}

/** Go compares strings bytewise (UTF-8), which orders code points, not UTF-16 units. */
function compareGoStrings(a: string, b: string): number {
  const ba = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return Buffer.compare(ba, bb);
}

/** Appends a path segment: `child('spec', 'ports')` → `spec.ports`; numbers index. */
export function childPath(parent: string, segment: string | number): string {
  if (typeof segment === 'number') return `${parent}[${segment}]`;
  if (parent === '') return segment;
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(segment) ? `${parent}.${segment}` : `${parent}[${JSON.stringify(segment)}]`;
}
