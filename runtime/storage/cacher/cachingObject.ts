import type { WatchEvent } from '../interfaces.js';

const serialized = new WeakMap<object, Map<string, Buffer>>();

/**
 * Serializes a cached object once per encoding: every watcher receiving the same event gets the
 * same (frozen) object, so the first encoder stores the bytes and the others reuse them
 * (kube's cachingObject). `encoding` names the output format, e.g. "json:apps/v1".
 */
export function serializeOnce(obj: object, encoding: string, encode: (obj: object) => Buffer): Buffer {
  let byEncoding = serialized.get(obj);
  if (!byEncoding) {
    byEncoding = new Map();
    serialized.set(obj, byEncoding);
  }
  let bytes = byEncoding.get(encoding);
  if (!bytes) {
    bytes = encode(obj);
    byEncoding.set(encoding, bytes);
  }
  return bytes;
}

const eventTypeBytes: Record<WatchEvent['type'], Buffer> = {
  ADDED: Buffer.from('{"type":"ADDED","object":'),
  MODIFIED: Buffer.from('{"type":"MODIFIED","object":'),
  DELETED: Buffer.from('{"type":"DELETED","object":'),
  BOOKMARK: Buffer.from('{"type":"BOOKMARK","object":'),
  ERROR: Buffer.from('{"type":"ERROR","object":'),
};
const eventEnd = Buffer.from('}\n');

/**
 * The newline-delimited JSON frame of a watch event, with the object's bytes shared between
 * all watchers that use the same encoding.
 */
export function encodeWatchEventJSON(ev: WatchEvent<object>, encoding = 'json', encodeObject: (obj: object) => Buffer = (o) => Buffer.from(JSON.stringify(o))): Buffer {
  return Buffer.concat([eventTypeBytes[ev.type], serializeOnce(ev.object, encoding, encodeObject), eventEnd]);
}
