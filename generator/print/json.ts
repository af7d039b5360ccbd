import { HEADER_TEXT } from './header.js';

/**
 * Canonical JSON: keys sorted (code-point order, independent of locale),
 * two-space indent, trailing newline. The header travels as a leading
 * `$comment`, the JSON Schema keyword for comments, which validators ignore.
 */
export function printJSON(value: unknown, options: { readonly header: boolean }): string {
  const body = options.header && isPlainObject(value) ? { $comment: HEADER_TEXT, ...value } : value;
  return `${JSON.stringify(sortKeys(body), null, 2)}\n`;
}

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort(compareCodePoints)) {
    if (value[key] !== undefined) out[key] = sortKeys(value[key]);
  }
  return out;
}

export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
