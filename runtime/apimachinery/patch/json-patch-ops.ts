import { atoi64, NumError } from '../util/strconv.js';
import { byteLengthJSON, deepCopyJSON, deepEqualJSON, hasField, isJSONObject, ownField, setField, type JSONObject } from '../serializer/jsonvalue.js';

/**
 * The RFC 6902 engine kube-apiserver applies JSON patches with
 * (evanphx/json-patch v4 `Patch.Apply`), over decoded JSON values. Object
 * keys named by a path are data, never property lookups: `/__proto__/x` or
 * `/constructor/prototype/x` address fields of those names (and fail when the
 * document has none), as they do in Go.
 *
 * v4's quirks are kept because clients see them: a path is split on `/` and
 * its first segment ignored (`a/b` is `/b`), so `""` addresses nothing but
 * the root of `replace` and `test`; a null field is missing on the way down;
 * `replace` of a missing object key adds it; `copy` from a missing key copies
 * null; negative array indices count from the end.
 */

/** One operation as decoded from the patch (a JSON object; fields checked by the caller's strict decode). */
export type JSONPatchOperation = JSONObject;

/** An operation that does not apply; the message is v4's, for logs (kube answers a generic 422). */
export class JSONPatchError extends Error {
  override readonly name = 'JSONPatchError';
}

/** evanphx's AccumulatedCopySizeError. */
export class AccumulatedCopySizeError extends JSONPatchError {
  constructor(limit: number, accumulated: number) {
    super(`Unable to complete the copy, the accumulated size increase of copy is ${accumulated}, exceeding the limit ${limit}`);
  }
}

export interface ApplyOptions {
  /**
   * Bytes (compact JSON) all `copy` operations together may add; 0 for no
   * limit. kube-apiserver sets it to its request body limit (JSONPatchMaxCopyBytes).
   */
  readonly accumulatedCopySizeLimit: number;
}

/** An object or array of the document, changed in place. */
type Container = { readonly kind: 'object'; readonly obj: JSONObject } | { readonly kind: 'array'; readonly arr: unknown[] };

/**
 * Applies `ops` in order to a copy of `doc`; returns the new document. Throws
 * JSONPatchError (with v4's message) for the first operation that does not apply.
 */
export function applyOperations(doc: unknown, ops: readonly JSONPatchOperation[], opts: ApplyOptions): unknown {
  const root = { value: deepCopyJSON(doc) };
  let copied = 0;
  for (const op of ops) {
    const kind = typeof ownField(op, 'op') === 'string' ? (op['op'] as string) : 'unknown';
    switch (kind) {
      case 'add':
        add(root, op);
        break;
      case 'remove':
        remove(root, op);
        break;
      case 'replace':
        replace(root, op);
        break;
      case 'move':
        move(root, op);
        break;
      case 'test':
        test(root, op);
        break;
      case 'copy':
        copied = copy(root, op, copied, opts.accumulatedCopySizeLimit);
        break;
      default:
        throw new JSONPatchError(`Unexpected kind: ${kind}`);
    }
  }
  return root.value;
}

interface Root {
  value: unknown;
}

function pathOf(op: JSONPatchOperation, field: 'path' | 'from', what: string): string {
  const p = ownField(op, field);
  if (typeof p !== 'string') throw new JSONPatchError(`${what} operation failed to decode ${field}`);
  return p;
}

/** The value of an operation; an absent `value` is null, as v4 writes a nil node. */
function valueOf(op: JSONPatchOperation): unknown {
  return deepCopyJSON(ownField(op, 'value') ?? null);
}

/** findObject: the container of the path's last segment and that segment; undefined when the way there is missing. */
function findObject(root: Root, path: string): { con: Container; key: string } | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let con = containerOf(root.value);
  for (const part of split.slice(1, -1)) {
    if (con === undefined) return undefined;
    let next: unknown;
    try {
      next = get(con, decodePatchKey(part));
    } catch {
      return undefined;
    }
    con = containerOf(next);
  }
  if (con === undefined) return undefined;
  return { con, key: decodePatchKey(split[split.length - 1] ?? '') };
}

function containerOf(v: unknown): Container | undefined {
  if (Array.isArray(v)) return { kind: 'array', arr: v };
  if (isJSONObject(v)) return { kind: 'object', obj: v };
  return undefined;
}

function decodePatchKey(k: string): string {
  return k.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** strconv.Atoi of an array index, exact over int64 (an index past the array is reported as Go prints it). */
function atoi(key: string): bigint | NumError {
  try {
    return atoi64(key);
  } catch (e) {
    if (e instanceof NumError) return e;
    throw e;
  }
}

function invalidIndex(idx: bigint): JSONPatchError {
  return new JSONPatchError(`Unable to access invalid index: ${idx}`);
}

/** An existing index of `arr` (negative from the end); a key Atoi refuses fails with Atoi's error, as v4's. */
function existingIndex(arr: readonly unknown[], key: string): number {
  const idx = atoi(key);
  if (idx instanceof NumError) throw new JSONPatchError(idx.message);
  const len = BigInt(arr.length);
  if (idx >= len || idx < -len) throw invalidIndex(idx);
  return Number(idx < 0n ? idx + len : idx);
}

/** The value at key: undefined for a missing object key (or null field); throws for a bad array index. */
function get(con: Container, key: string): unknown {
  if (con.kind === 'object') return ownField(con.obj, key);
  return con.arr[existingIndex(con.arr, key)];
}

/** Overwrites an existing array element or sets an object key. */
function set(con: Container, key: string, value: unknown): void {
  if (con.kind === 'object') setField(con.obj, key, value);
  else con.arr[existingIndex(con.arr, key)] = value;
}

function insert(con: Container, key: string, value: unknown): void {
  if (con.kind === 'object') {
    setField(con.obj, key, value);
    return;
  }
  if (key === '-') {
    con.arr.push(value);
    return;
  }
  const idx = atoi(key);
  if (idx instanceof NumError) throw new JSONPatchError(`value was not a proper array index: '${key}'`);
  const size = BigInt(con.arr.length + 1);
  if (idx >= size || idx < -size) throw invalidIndex(idx);
  con.arr.splice(Number(idx < 0n ? idx + size : idx), 0, value);
}

function removeKey(con: Container, key: string): void {
  if (con.kind === 'object') {
    if (!hasField(con.obj, key)) throw new JSONPatchError(`Unable to remove nonexistent key: ${key}: missing value`);
    delete con.obj[key];
    return;
  }
  con.arr.splice(existingIndex(con.arr, key), 1);
}

function add(root: Root, op: JSONPatchOperation): void {
  const path = pathOf(op, 'path', 'add');
  const at = findObject(root, path);
  if (at === undefined) throw new JSONPatchError(`add operation does not apply: doc is missing path: "${path}"`);
  insert(at.con, at.key, valueOf(op));
}

function remove(root: Root, op: JSONPatchOperation): void {
  const path = pathOf(op, 'path', 'remove');
  const at = findObject(root, path);
  if (at === undefined) throw new JSONPatchError(`remove operation does not apply: doc is missing path: "${path}"`);
  removeKey(at.con, at.key);
}

function replace(root: Root, op: JSONPatchOperation): void {
  const path = pathOf(op, 'path', 'replace');
  if (path === '') {
    const v = valueOf(op);
    if (typeof v !== 'object' || v === null) throw new JSONPatchError('replace operation value must be object or array');
    root.value = v;
    return;
  }
  const at = findObject(root, path);
  if (at === undefined) throw new JSONPatchError(`replace operation does not apply: doc is missing path: ${path}`);
  get(at.con, at.key);
  set(at.con, at.key, valueOf(op));
}

function move(root: Root, op: JSONPatchOperation): void {
  const from = pathOf(op, 'from', 'move');
  const src = findObject(root, from);
  if (src === undefined) throw new JSONPatchError(`move operation does not apply: doc is missing from path: ${from}`);
  const val = get(src.con, src.key);
  removeKey(src.con, src.key);
  const path = pathOf(op, 'path', 'move');
  const dst = findObject(root, path);
  if (dst === undefined) throw new JSONPatchError(`move operation does not apply: doc is missing destination path: ${path}`);
  insert(dst.con, dst.key, val ?? null);
}

function test(root: Root, op: JSONPatchOperation): void {
  const path = pathOf(op, 'path', 'test');
  const want = ownField(op, 'value') ?? null;
  if (path === '') {
    if (!deepEqualJSON(root.value, want)) throw new JSONPatchError(`testing value ${path} failed: test failed`);
    return;
  }
  const at = findObject(root, path);
  if (at === undefined) throw new JSONPatchError(`test operation does not apply: is missing path: ${path}`);
  const got = get(at.con, at.key) ?? null;
  if (!deepEqualJSON(got, want)) throw new JSONPatchError(`testing value ${path} failed: test failed`);
}

/** Returns the bytes copied so far, this copy included. */
function copy(root: Root, op: JSONPatchOperation, copied: number, limit: number): number {
  const from = pathOf(op, 'from', 'copy');
  const src = findObject(root, from);
  if (src === undefined) throw new JSONPatchError(`copy operation does not apply: doc is missing from path: ${from}`);
  const val = get(src.con, src.key) ?? null;
  const path = pathOf(op, 'path', 'copy');
  const dst = findObject(root, path);
  if (dst === undefined) throw new JSONPatchError(`copy operation does not apply: doc is missing destination path: ${path}`);
  // Counted before anything is copied: a copy past the limit costs one walk of its source.
  const total = copied + byteLengthJSON(val);
  if (limit > 0 && total > limit) throw new AccumulatedCopySizeError(limit, total);
  insert(dst.con, dst.key, deepCopyJSON(val));
  return total;
}
