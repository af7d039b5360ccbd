import { ownField } from '../serializer/jsonvalue.js';

/**
 * Which numbers of a decoded custom resource Go holds as float64 rather than int64. Go's
 * unstructured decoder (sigs.k8s.io/json) keeps an int64 only for a literal strconv.ParseInt
 * takes; `1.0`, `1e0` and integers beyond int64 become float64s although JavaScript has an
 * integer for them. A decoder that knows marks the object (or array) holding such a number with
 * FLOAT_LITERAL_KEYS: a Set of the keys (array indexes as strings) whose values were written so.
 */
export const FLOAT_LITERAL_KEYS: unique symbol = Symbol.for('k8s.io/float64-literal-keys');

const INT64_LIMIT = 2 ** 63;

/**
 * Marks, on the object or array holding each, the numbers of an unstructured body that Go's
 * decoder makes float64s although they are integers here (`1.0`, `1e0`, beyond int64: the
 * decoder's integralFloats), so the scale accessor reports them as kube does. Not enumerable: a
 * copy or an encoding of the object does not carry it.
 */
export function markFloatLiterals(root: unknown, paths: ReadonlyArray<ReadonlyArray<string | number>>): void {
  for (const path of paths) {
    let container: unknown = root;
    for (const step of path.slice(0, -1)) container = typeof container === 'object' && container !== null ? ownField(container, String(step)) : undefined;
    if (typeof container !== 'object' || container === null || path.length === 0) continue;
    const holder = container as { [FLOAT_LITERAL_KEYS]?: Set<string> };
    if (!(holder[FLOAT_LITERAL_KEYS] instanceof Set)) Object.defineProperty(holder, FLOAT_LITERAL_KEYS, { value: new Set<string>(), enumerable: false });
    holder[FLOAT_LITERAL_KEYS]?.add(String(path[path.length - 1]));
  }
}

/** Whether the value at `key` of `container` was marked as a float64 literal by its decoder. */
export function isFloatLiteral(container: unknown, key: string | number | undefined): boolean {
  if (typeof container !== 'object' || container === null || key === undefined) return false;
  const keys = (container as { [FLOAT_LITERAL_KEYS]?: unknown })[FLOAT_LITERAL_KEYS];
  return keys instanceof Set && keys.has(String(key));
}

/**
 * Whether the number `n` (the value at `key` of `container`) is a float64 to Go: marked, not
 * whole, or beyond int64.
 */
export function isGoFloat(n: number, container?: unknown, key?: string | number): boolean {
  return !Number.isInteger(n) || n >= INT64_LIMIT || n < -INT64_LIMIT || isFloatLiteral(container, key);
}

/**
 * Go's %T of a value of unstructured content: a number is a float64 when Go's decoder made one
 * (`float`: its literal was marked; or not whole, or beyond int64), an int64 otherwise.
 */
export function unstructuredGoType(value: unknown, float: boolean): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  switch (typeof value) {
    case 'number':
      return float || isGoFloat(value) ? 'float64' : 'int64';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    default:
      return 'map[string]interface {}';
  }
}

const MAX_JSON_FLOAT = 2 ** 53 - 1;
const EPSILON = 1e-9;
const TWO_64 = 2n ** 64n;

/** Go's float64 → uint64 conversion on amd64 for |f| < 2^63: through int64, so -1.5 is 2^64-1. */
function goUint64(f: number): number {
  const i = BigInt(Math.trunc(f));
  return Number(i < 0n ? i + TWO_64 : i);
}

/**
 * go-openapi/swag v0.23.0 IsFloat64AJSONInteger, by which kube-openapi's type validator lets a
 * float64 through `type: integer`: within ±(2^53-1), equal to its integer conversions, or within
 * a relative error of 1e-9 of its uint64 conversion (so 600000000.5 passes).
 */
export function isFloat64AJSONInteger(f: number): boolean {
  if (Number.isNaN(f) || !Number.isFinite(f) || f < -MAX_JSON_FLOAT || f > MAX_JSON_FLOAT) return false;
  const fa = Math.abs(f);
  const g = goUint64(f);
  const ga = Math.abs(g);
  const diff = Math.abs(f - g);
  if (f === g) return true;
  if (f === Math.trunc(f)) return true; // f == float64(int64(f))
  if (f === 0 || g === 0 || diff < Number.MIN_VALUE) return diff < EPSILON * Number.MIN_VALUE;
  return diff / Math.min(fa + ga, Number.MAX_VALUE) < EPSILON;
}
