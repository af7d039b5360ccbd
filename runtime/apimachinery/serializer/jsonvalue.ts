/**
 * Helpers over decoded JSON values (what decodeBody returns): plain objects,
 * arrays, strings, finite numbers, booleans and null. Copy and equality walk
 * with explicit stacks, because values may nest as deep as the decoder allows
 * (10000 levels), deeper than the call stack.
 */

export type JSONObject = Record<string, unknown>;

/** A JSON object: not null, not an array. */
export function isJSONObject(v: unknown): v is JSONObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/*
 * Keys of decoded values are client data. `__proto__`, `constructor` and
 * `prototype` are ordinary field names there (JSON.parse and the YAML decoder
 * make them own properties), so every read or write of a field named by the
 * client goes through ownField / hasField / setField: a plain `obj[k]` reads
 * Object.prototype or Object itself for an absent `__proto__` or
 * `constructor`, and writing into what it returns pollutes every object of
 * the process.
 */

/**
 * Sets `obj[key] = value` as an own data property, also for `__proto__`
 * (plain assignment would change the prototype instead of adding a field).
 */
export function setField(obj: JSONObject, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** Whether `key` is a field of `obj` (an own property; never one inherited from Object.prototype). */
export function hasField(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** The field `key` of `obj`, or undefined when it has none (never Object.prototype or one of its members). */
export function ownField(obj: object, key: string): unknown {
  return hasField(obj, key) ? (obj as JSONObject)[key] : undefined;
}

/** A deep copy of a JSON value (runtime.DeepCopyJSONValue); the input is not modified. */
export function deepCopyJSON<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const root: unknown = Array.isArray(value) ? new Array<unknown>(value.length) : {};
  const work: Array<[from: unknown, to: unknown]> = [[value, root]];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const [from, to] = item;
    if (Array.isArray(from)) {
      const out = to as unknown[];
      for (let i = 0; i < from.length; i++) out[i] = copyShallow(from[i] as unknown, work);
    } else {
      const out = to as JSONObject;
      for (const [k, v] of Object.entries(from as JSONObject)) setField(out, k, copyShallow(v, work));
    }
  }
  return root as T;
}

function copyShallow(v: unknown, work: Array<[unknown, unknown]>): unknown {
  if (typeof v !== 'object' || v === null) return v;
  const c: unknown = Array.isArray(v) ? new Array<unknown>(v.length) : {};
  work.push([v, c]);
  return c;
}

/** Deep equality of JSON values; object key order does not matter (apiequality.Semantic on unstructured). */
export function deepEqualJSON(a: unknown, b: unknown): boolean {
  const work: Array<[unknown, unknown]> = [[a, b]];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const [x, y] = item;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) work.push([x[i], y[i]]);
      continue;
    }
    if (Array.isArray(y)) return false;
    const xk = Object.keys(x);
    if (xk.length !== Object.keys(y).length) return false;
    for (const k of xk) {
      if (!Object.prototype.hasOwnProperty.call(y, k)) return false;
      work.push([(x as JSONObject)[k], (y as JSONObject)[k]]);
    }
  }
  return true;
}

/**
 * The first object or array found nested below `max` others in `value`, or
 * undefined when the value nests at most `max` levels. Iterative.
 */
export function nestedDeeperThan(value: unknown, max: number): object | undefined {
  const work: Array<[unknown, number]> = [[value, 0]];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const [v, depth] = item;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) return v;
    for (const child of Array.isArray(v) ? v : Object.values(v)) work.push([child, depth + 1]);
  }
  return undefined;
}

/** The JSON type name Go's decoder uses in messages: object, array, string, number, bool, null. */
export function jsonTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

/**
 * The JSON text of a value with object keys sorted (what Go's json.Marshal
 * produces for maps): equal values give equal strings. Iterative.
 */
export function canonicalJSON(value: unknown): string {
  const out: string[] = [];
  const work: unknown[] = [value];
  const RAW = Symbol('raw');
  for (let len = work.length; len > 0; len = work.length) {
    const v = work.pop();
    if (typeof v === 'object' && v !== null && RAW in v) {
      out.push((v as { [RAW]: string })[RAW]);
    } else if (Array.isArray(v)) {
      const parts: unknown[] = [{ [RAW]: '[' }];
      v.forEach((x, i) => parts.push(...(i > 0 ? [{ [RAW]: ',' }] : []), x));
      parts.push({ [RAW]: ']' });
      for (let i = parts.length - 1; i >= 0; i--) work.push(parts[i]);
    } else if (isJSONObject(v)) {
      const parts: unknown[] = [{ [RAW]: '{' }];
      Object.keys(v)
        .sort()
        .forEach((k, i) => parts.push({ [RAW]: `${i > 0 ? ',' : ''}${JSON.stringify(k)}:` }, v[k]));
      parts.push({ [RAW]: '}' });
      for (let i = parts.length - 1; i >= 0; i--) work.push(parts[i]);
    } else {
      out.push(JSON.stringify(v ?? null));
    }
  }
  return out.join('');
}

/**
 * The length in bytes of a value's compact JSON as Go's encoder writes it
 * (`<`, `>`, `&`, U+2028 and U+2029 escaped as `\uXXXX`), without building
 * the text. Iterative.
 */
export function byteLengthJSON(value: unknown): number {
  let n = 0;
  const work: unknown[] = [value];
  for (let len = work.length; len > 0; len = work.length) {
    const v = work.pop();
    if (typeof v === 'string') n += stringLengthJSON(v);
    else if (Array.isArray(v)) {
      n += 2 + Math.max(0, v.length - 1);
      for (const x of v) work.push(x);
    } else if (isJSONObject(v)) {
      const keys = Object.keys(v);
      n += 2 + Math.max(0, keys.length - 1);
      for (const k of keys) {
        n += stringLengthJSON(k) + 1;
        work.push(v[k]);
      }
    } else n += (JSON.stringify(v ?? null) ?? 'null').length;
  }
  return n;
}

const HTML_ESCAPED = /[<>&\u2028\u2029]/g;

function stringLengthJSON(s: string): number {
  const quoted = JSON.stringify(s);
  let n = Buffer.byteLength(quoted);
  for (const m of s.matchAll(HTML_ESCAPED)) n += m[0] === '\u2028' || m[0] === '\u2029' ? 3 : 5;
  return n;
}

/** An escaped UTF-16 surrogate (`\ud800`): only then can JSON.parse make a string Go would not. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** String.prototype.toWellFormed (ES2024, in every supported Node; the compiled lib is ES2023). */
type WellFormed = { isWellFormed(): boolean; toWellFormed(): string };
const wellFormed = (s: string): string => ((s as unknown as WellFormed).isWellFormed() ? s : (s as unknown as WellFormed).toWellFormed());

/**
 * JSON.parse of UTF-8 bytes as Go's decoder reads them: invalid UTF-8 and
 * unpaired surrogate escapes become U+FFFD, in values and in keys. Call only
 * on bytes scanJSON accepted.
 */
export function parseJSONBytes(bytes: Uint8Array): unknown {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const value: unknown = JSON.parse(text);
  if (!SURROGATE_ESCAPE.test(text)) return value;
  if (typeof value === 'string') return wellFormed(value);
  const work: unknown[] = [value];
  for (let v = work.pop(); v !== undefined; v = work.pop()) {
    if (Array.isArray(v)) {
      v.forEach((x, i) => (typeof x === 'string' ? (v[i] = wellFormed(x)) : work.push(x)));
    } else if (isJSONObject(v)) {
      const entries = Object.entries(v);
      if (entries.some(([k]) => wellFormed(k) !== k)) {
        for (const [k] of entries) delete v[k];
        for (const [k, x] of entries) setField(v, wellFormed(k), x);
      }
      for (const [k, x] of Object.entries(v)) {
        if (typeof x === 'string') setField(v, k, wellFormed(x));
        else work.push(x);
      }
    }
  }
  return value;
}
