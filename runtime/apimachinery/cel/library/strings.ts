import type { Environment } from '@marcbachmann/cel-js';
import { NOT_HANDLED, type MethodOverride } from '../engine.js';
import { celError, define } from './define.js';

/**
 * cel-go's strings extension (version 2) as Kubernetes enables it: charAt, indexOf,
 * lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim, join. Indexes count
 * code points, as in Go. cel-js already declares some of these with JavaScript semantics
 * (UTF-16 indexes, Unicode case mapping); those run through {@link STRING_OVERRIDES}.
 */
export function registerStrings(env: Environment): void {
  define(env, 'string.charAt(int): string', (s: string, i: bigint) => charAt(s, i));
  define(env, 'string.replace(string, string): string', (s: string, from: string, to: string) => replace(s, from, to, -1n));
  define(env, 'string.replace(string, string, int): string', replace);
}

/** Code points of s, or undefined when every UTF-16 unit is one (the common, fast case). */
function runesOf(s: string): string[] | undefined {
  return /[\uD800-\uDFFF]/.test(s) ? Array.from(s) : undefined;
}

function length(s: string): number {
  return runesOf(s)?.length ?? s.length;
}

function slice(s: string, start: number, end?: number): string {
  const runes = runesOf(s);
  return runes === undefined ? s.slice(start, end) : runes.slice(start, end).join('');
}

function outOfRange(i: bigint | number): Error {
  return celError(`index out of range: ${i}`);
}

function charAt(s: string, i: bigint): string {
  const n = length(s);
  if (i < 0n || i > BigInt(n)) throw outOfRange(i);
  return slice(s, Number(i), Number(i) + 1);
}

function indexOf(s: string, sub: string, offset?: bigint): bigint {
  if (sub === '') return offset ?? 0n;
  const from = offset ?? 0n;
  if (offset !== undefined && (offset < 0n || offset >= BigInt(length(s)))) throw outOfRange(offset);
  const runes = runesOf(s);
  if (runes === undefined) return BigInt(s.indexOf(sub, Number(from)));
  const subLen = length(sub);
  for (let i = Number(from); i + subLen <= runes.length; i++) {
    if (runes.slice(i, i + subLen).join('') === sub) return BigInt(i);
  }
  return -1n;
}

function lastIndexOf(s: string, sub: string, offset?: bigint): bigint {
  const n = length(s);
  if (sub === '') return offset ?? BigInt(n);
  if (offset !== undefined && (offset < 0n || offset >= BigInt(n))) throw outOfRange(offset);
  const subLen = length(sub);
  const from = Math.min(offset === undefined ? n : Number(offset), n - subLen);
  const runes = runesOf(s);
  if (runes === undefined) return from < 0 ? -1n : BigInt(s.lastIndexOf(sub, from));
  for (let i = from; i >= 0; i--) {
    if (runes.slice(i, i + subLen).join('') === sub) return BigInt(i);
  }
  return -1n;
}

function substring(s: string, start: bigint, end?: bigint): string {
  const n = BigInt(length(s));
  if (end !== undefined && start > end) throw celError(`invalid substring range. start: ${start}, end: ${end}`);
  if (start < 0n || start > n) throw outOfRange(start);
  if (end !== undefined && (end < 0n || end > n)) throw outOfRange(end);
  return slice(s, Number(start), end === undefined ? undefined : Number(end));
}

/** strings.Replace: n < 0 replaces all; an empty `from` matches before every code point and at the end. */
function replace(s: string, from: string, to: string, n: bigint): string {
  if (n === 0n || from === to) return s;
  if (from === '') {
    const runes = Array.from(s);
    const limit = n < 0n ? runes.length + 1 : Math.min(Number(n), runes.length + 1);
    let out = '';
    for (let i = 0; i <= runes.length; i++) out += (i < limit ? to : '') + (runes[i] ?? '');
    return out;
  }
  return splitN(s, from, n < 0n ? -1n : n + 1n).join(to);
}

/** strings.SplitN: n == 0 gives no parts, n < 0 all; an empty separator splits into code points. */
function splitN(s: string, sep: string, n: bigint): string[] {
  if (n === 0n) return [];
  const limit = n < 0n ? Infinity : Number(n);
  if (sep === '') {
    const runes = Array.from(s);
    if (runes.length <= limit) return runes;
    return [...runes.slice(0, limit - 1), runes.slice(limit - 1).join('')];
  }
  const out: string[] = [];
  let rest = s;
  while (out.length < limit - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
}

/** unicode.IsSpace, which strings.TrimSpace uses (no BOM, unlike String.prototype.trim). */
const GO_SPACE = /^[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+|[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+$/g;

const isString = (v: unknown): v is string => typeof v === 'string';
const isInt = (v: unknown): v is bigint => typeof v === 'bigint';

/** Methods cel-js declares whose Go behaviour differs; other argument shapes fall through to cel-js. */
export const STRING_OVERRIDES: ReadonlyMap<string, MethodOverride> = new Map<string, MethodOverride>([
  ['lowerAscii', ([s, ...rest]) => (isString(s) && rest.length === 0 ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : NOT_HANDLED)],
  ['upperAscii', ([s, ...rest]) => (isString(s) && rest.length === 0 ? s.replace(/[a-z]+/g, (m) => m.toUpperCase()) : NOT_HANDLED)],
  ['trim', ([s, ...rest]) => (isString(s) && rest.length === 0 ? s.replace(GO_SPACE, '') : NOT_HANDLED)],
  ['indexOf', ([s, sub, offset, ...rest]) => (isString(s) && isString(sub) && (offset === undefined || isInt(offset)) && rest.length === 0 ? indexOf(s, sub, offset) : NOT_HANDLED)],
  ['lastIndexOf', ([s, sub, offset, ...rest]) => (isString(s) && isString(sub) && (offset === undefined || isInt(offset)) && rest.length === 0 ? lastIndexOf(s, sub, offset) : NOT_HANDLED)],
  ['substring', ([s, start, end, ...rest]) => (isString(s) && isInt(start) && (end === undefined || isInt(end)) && rest.length === 0 ? substring(s, start, end) : NOT_HANDLED)],
  ['split', ([s, sep, n, ...rest]) => (isString(s) && isString(sep) && (n === undefined || isInt(n)) && rest.length === 0 ? splitN(s, sep, n ?? -1n) : NOT_HANDLED)],
]);
