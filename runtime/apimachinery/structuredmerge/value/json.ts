/**
 * JSON text of a value as SMD writes it inside serialized path elements
 * (jsoniter, standard-library compatible): object keys sorted, `<`, `>`,
 * `&`, U+2028 and U+2029 escaped, control characters as `\u00XX`, other
 * text as is. Iterative: a value may nest deeper than the call stack.
 */
import { sortedKeys, type Value } from './compare.js';

/** Nothing to escape: the text goes between quotes as is (control characters are checked apart). */
const PLAIN = /^[^"\\<>&\u2028\u2029\ud800-\udfff]*$/;
/** What JSON.stringify writes otherwise than Go: HTML characters, U+2028/9, \b, \f, surrogates. */
const NOT_AS_STRINGIFY = /[<>&\u2028\u2029\b\f\ud800-\udfff]/;
const HEX = '0123456789abcdef';

function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) < 0x20) return true;
  return false;
}

/** A JSON string literal as Go's HTML-escaping encoder writes it. */
export function goJSONString(s: string): string {
  if (PLAIN.test(s) && !hasControl(s)) return `"${s}"`;
  // JSON.stringify writes the same escapes for quotes, backslashes, \n, \r, \t and other controls.
  if (!NOT_AS_STRINGIFY.test(s)) return JSON.stringify(s);
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26) out += `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
    else if (c === 0x2028 || c === 0x2029) out += `\\u${c.toString(16)}`;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      out += s[i]! + s[i + 1]!;
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += '\\ufffd';
    else out += s[i];
  }
  return `${out}"`;
}

/** A JSON number: integral values as integers, others in JS's shortest form (Go's for the same thresholds). */
function goJSONNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`json: unsupported value: ${n}`);
  return Number.isInteger(n) && Math.abs(n) < 1e21 ? BigInt(n).toString() : String(n);
}

const RAW = Symbol('raw');
type Raw = { readonly [RAW]: string };
const raw = (text: string): Raw => ({ [RAW]: text });
const isRaw = (v: unknown): v is Raw => typeof v === 'object' && v !== null && RAW in v;

/** The compact JSON text of a value, written as SMD's encoder writes it. */
export function goJSON(value: Value): string {
  if (typeof value === 'string') return goJSONString(value);
  if (typeof value === 'number') return goJSONNumber(value);
  let out = '';
  const work: unknown[] = [value];
  for (let n = work.length; n > 0; n = work.length) {
    const v = work.pop();
    if (isRaw(v)) out += v[RAW];
    else if (v === null || v === undefined) out += 'null';
    else if (typeof v === 'string') out += goJSONString(v);
    else if (typeof v === 'number') out += goJSONNumber(v);
    else if (typeof v === 'boolean') out += v ? 'true' : 'false';
    else if (Array.isArray(v)) {
      work.push(raw(']'));
      for (let i = v.length - 1; i >= 0; i--) work.push(v[i] as unknown, raw(i > 0 ? ',' : ''));
      out += '[';
    } else if (typeof v === 'object') {
      const m = v as Record<string, unknown>;
      const keys = sortedKeys(m);
      work.push(raw('}'));
      for (let i = keys.length - 1; i >= 0; i--) work.push(m[keys[i]!], raw(`${i > 0 ? ',' : ''}${goJSONString(keys[i]!)}:`));
      out += '{';
    } else throw new Error(`json: unsupported type: ${typeof v}`);
  }
  return out;
}
