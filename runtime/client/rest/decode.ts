import type { Status } from '../../../apis/meta/v1/status.js';
import type { WatchEvent } from '../types.js';

/**
 * Decoding of what the server sends. Every object, whether the answer to a get, an item of a
 * list or the object of a watch event, goes through decodeObject, so the three can never
 * differ in shape (client-node's list and watch did: #655).
 */

/** A body or watch line that is not what the API promises; the message says where. */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
}

export function parseJSON(bytes: Buffer | string): unknown {
  return JSON.parse(typeof bytes === 'string' ? bytes : bytes.toString('utf8'));
}

/**
 * One API object: a JSON object, returned as parsed (no Date conversion, no defaulting). Lists
 * are objects too; their items are decoded one by one, and an item without apiVersion and kind
 * (kube-apiserver omits them in lists of built-in types) gets the list's, so an object from a
 * list looks exactly like the same object from a get or a watch.
 */
export function decodeObject<T>(value: unknown, where: string): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new DecodeError(`${where}: expected a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
  }
  const obj = value as Record<string, unknown>;
  const items = obj['items'];
  const kind = obj['kind'];
  if (!Array.isArray(items) || typeof kind !== 'string' || !kind.endsWith('List')) return obj as T;
  const itemKind = kind.slice(0, -'List'.length);
  const apiVersion = obj['apiVersion'];
  const decoded = items.map((item, i) => {
    const o = decodeObject<Record<string, unknown>>(item, `${where}: items[${i}]`);
    if (itemKind === '' || typeof apiVersion !== 'string' || (o['kind'] !== undefined && o['apiVersion'] !== undefined)) return o;
    return { apiVersion, kind: itemKind, ...o };
  });
  return { ...obj, items: decoded } as T;
}

/** A response body: JSON text holding one object. */
export function decodeBody<T>(body: Buffer, where: string): T {
  let value: unknown;
  try {
    value = parseJSON(body);
  } catch (e) {
    throw new DecodeError(`${where}: the body is not valid JSON: ${(e as Error).message}`, { cause: e });
  }
  return decodeObject<T>(value, where);
}

const EVENT_TYPES: ReadonlySet<string> = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** One line of a JSON watch stream: `{"type": …, "object": {…}}`. */
export function decodeWatchEvent<T>(line: string, where: string): WatchEvent<T> {
  let value: unknown;
  try {
    value = parseJSON(line);
  } catch (e) {
    throw new DecodeError(`${where}: a watch event is not valid JSON: ${(e as Error).message}`, { cause: e });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new DecodeError(`${where}: a watch event must be a JSON object`);
  const { type, object } = value as { type?: unknown; object?: unknown };
  if (typeof type !== 'string' || !EVENT_TYPES.has(type)) throw new DecodeError(`${where}: got invalid watch event type: ${JSON.stringify(type)}`);
  if (type === 'ERROR') return { type, object: decodeObject<Status>(object, `${where}: ERROR event`) };
  return { type: type as 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK', object: decodeObject<T>(object, `${where}: ${type} event`) };
}
