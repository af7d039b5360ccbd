/**
 * value.ToString: how SMD prints a value inside a path (`[name="x"]`,
 * `[=1.5]`), with Go's fmt wording: `%v` of an int or float64, `%q` of a
 * string.
 */
import { sortedKeys, type Value } from './compare.js';

/** Go's `%v` of a float64 (strconv 'g', shortest): exponent form below 1e-4 or from 1e6, as `1e+06`. */
export function formatGoFloat(f: number): string {
  if (!Number.isFinite(f)) return Number.isNaN(f) ? 'NaN' : f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa, expText] = f.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  // Within that range JS prints the same shortest digits without an exponent.
  return String(f);
}

/** A number as SMD prints it: integral numbers are ints (`%v` of int64), others float64. */
export function formatNumber(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63 ? BigInt(n).toString() : formatGoFloat(n);
}

const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/** What strconv.Quote escapes: quotes, backslashes, and runes that are not printable (not letters, marks, numbers, punctuation, symbols or ASCII space). */
const NEEDS_QUOTING = /["\\]|[^\P{C}]|[^\P{Z} ]/u;
const QUOTED_RUNE = /["\\]|[^\P{C}]|[^\P{Z} ]/gu;

/** Go's strconv.Quote (`%q`). */
export function goQuote(s: string): string {
  if (!NEEDS_QUOTING.test(s)) return `"${s}"`;
  return `"${s.replace(QUOTED_RUNE, quoteRune)}"`;
}

function quoteRune(r: string): string {
  const named = NAMED_ESCAPES[r];
  if (named !== undefined) return named;
  const cp = r.codePointAt(0) ?? 0xfffd;
  // A lone surrogate is not valid UTF-8; Go would print its bytes, JS has none: U+FFFD stands in.
  if (cp >= 0xd800 && cp <= 0xdfff) return '\\ufffd';
  if (cp < 0x80) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\U${cp.toString(16).padStart(8, '0')}`;
}

/** value.ToString; nested lists and maps print recursively, as SMD's does (keys in byte order). */
export function valueToString(v: Value): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'number':
      return formatNumber(v);
    case 'string':
      return goQuote(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      if (Array.isArray(v)) return `[${v.map((x: Value) => valueToString(x)).join(',')}]`;
      return sortedKeys(v as Record<string, unknown>)
        .map((k) => `${k}=${valueToString((v as Record<string, unknown>)[k])}`)
        .join('');
    default:
      return '{{undefined}}';
  }
}
