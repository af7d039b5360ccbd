/**
 * How SMD's validation messages print a value: Go's fmt verbs applied to a
 * value.Value wrapping a decoded object (a *valueUnstructured). kube returns
 * these messages to clients, e.g. `expected string, got
 * &value.valueUnstructured{Value:1}`, so they are reproduced as Go prints them.
 */
import { goFormat, goType } from '../../patch/strategic/gosort.js';
import { sortedKeys } from '../value/compare.js';
import { formatNumber, goQuote } from '../value/tostring.js';

const MAX_DEPTH = 32;

/** `%v` of the wrapped value: `&{…}` around Go's `%v` of the unstructured value. */
export function valueV(v: unknown): string {
  return `&{${goFormat(v)}}`;
}

/** `%#v` of the wrapped value. */
export function valueSharpV(v: unknown): string {
  return `&value.valueUnstructured{Value:${sharpV(v, 0)}}`;
}

/** `%T` of the unstructured value (int64 for integral numbers, float64 otherwise). */
export function unstructuredType(v: unknown): string {
  return goType(v);
}

/** Go's `%#v` of an interface{} holding a decoded value. */
function sharpV(v: unknown, depth: number): string {
  if (depth > MAX_DEPTH) return '...';
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => sharpV(x, depth + 1)).join(', ')}}`;
  const m = v as Record<string, unknown>;
  const parts = sortedKeys(m).map((k) => `${goQuote(k)}:${sharpV(m[k], depth + 1)}`);
  return `map[string]interface {}{${parts.join(', ')}}`;
}
