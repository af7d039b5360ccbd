import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { StoredObject } from '../../apimachinery/object.js';
import { setField } from '../../apimachinery/serializer/jsonvalue.js';

/**
 * The storage encoding of metadata.managedFields. The entries are kube's byte for byte on the
 * wire, and their FieldsV1 repeat every field name the object already spells: stored as JSON
 * they add 60–140 % to a small object. Stored here, they are deflated with the object's own
 * JSON as the dictionary (plus a fixed one of the tokens every entry has), so a name costs a
 * back-reference instead of its bytes:
 *
 *   0x00 0x01 | uvarint json length | uvarint managedFields' index among metadata's keys
 *   | the object's JSON without managedFields | raw deflate of the managedFields JSON
 *
 * The leading 0x00 cannot start a JSON text (`{`) nor an encrypted value (`k8s:enc:`), so old
 * values and values written without the frame read as before. The frame is the codec's, under
 * the value transformer: what a transformer sees is either this or JSON. It is never written
 * for a resource whose transformer encrypts: deflating a manager name the client chose together
 * with the object's values would let whoever can write the object and watch the stored size
 * guess those values (CRIME), which is what encryption at rest defends against.
 *
 * Version 1's fixed dictionary is part of the format: changing it needs a new version byte.
 */

const MAGIC = 0x00;
const VERSION = 0x01;

/** The bytes every entry has, the commonest last (deflate's shortest distances). */
const FIXED_DICTIONARY = Buffer.from(
  [
    '"k:{\\"name\\":"',
    '"k:{\\"type\\":\\"',
    '"k:{\\"containerPort\\":',
    '"k:{\\"port\\":',
    ',\\"protocol\\":\\"TCP\\"}":{".":{},',
    '"v:\\"',
    '"i:',
    '"f:finalizers":{".":{},',
    '"f:ownerReferences":{".":{},',
    '"f:spec":{',
    '"f:status":{',
    '"f:data":{".":{},',
    '"f:kubectl.kubernetes.io/last-applied-configuration":{}',
    '"f:annotations":{".":{},',
    '"f:labels":{".":{},',
    '"manager":"kubectl-client-side-apply","operation":"Update"',
    '"manager":"before-first-apply"',
    '"manager":"kubectl-edit"',
    '"manager":"kubectl-label"',
    '"manager":"kubectl-create","operation":"Update"',
    ',"subresource":"status"}',
    '"operation":"Update","apiVersion":"v1"',
    '[{"manager":"kubectl","operation":"Apply","apiVersion":"',
    '","time":"20',
    '","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{',
  ].join(''),
);

/** Stored managedFields never inflate beyond this (a request body is at most 3 MiB): a corrupt value fails instead of filling memory. */
const MAX_INFLATED_BYTES = 16 * 1024 * 1024;

/** The stored bytes of `obj`, whose storage JSON `encode` writes: a frame when it has managedFields. */
export function encodeManagedFieldsFrame(obj: StoredObject, encode: (obj: StoredObject) => string): Buffer {
  const meta = obj.metadata;
  const managedFields = meta?.managedFields;
  if (meta === undefined || !Array.isArray(managedFields) || managedFields.length === 0) return Buffer.from(encode(obj));
  const keys = Object.keys(meta);
  const index = keys.indexOf('managedFields');
  const rest: Record<string, unknown> = {};
  for (const k of keys) if (k !== 'managedFields') setField(rest, k, meta[k]);
  const body = Buffer.from(encode({ ...obj, metadata: rest }));
  const text = JSON.stringify(managedFields);
  const input = Buffer.from(text);
  const dictionary = dictionaryFor(body);
  const fields = deflateRawSync(input, { dictionary, ...deflateWindow(dictionary.length + input.length) });
  const frame = Buffer.concat([Buffer.from([MAGIC, VERSION]), uvarint(body.length), uvarint(index), body, fields]);
  inflatedFields.set(frame, text);
  return frame;
}

/**
 * The managedFields JSON of frames met lately, by the frame's bytes. A write decodes the bytes
 * it just encoded (to answer with the object as stored); its watch event brings the same bytes
 * back (from etcd, in a new buffer); a consistent GET reads the same bytes from etcd as long as
 * the object is unchanged. None of them needs to inflate again: a small inflate costs little in
 * zlib, but node makes a stream object for every synchronous call, which was about half of
 * decoding a stored object (a tenth of an etcd GET's CPU).
 *
 * Two generations of at most half the bytes each: entries go into the current one; when it is
 * full it becomes the previous one, and the previous one is dropped; an entry read from the
 * previous generation moves into the current one. So an entry read at least once a generation
 * stays, and no entry is ever deleted from a map: V8's Map degrades to a rehash per insertion
 * when entries are deleted and inserted in turn (about 10 µs a step at 8,000 entries).
 * A frame above maxFrameBytes is not kept (V8 hashes a longer key by its length alone, so such
 * keys would share one bucket).
 */
export class InflatedFieldsCache {
  private current = new Map<string, string>();
  private currentBytes = 0;
  private previous = new Map<string, string>();

  constructor(
    private readonly maxBytes: number,
    private readonly maxFrameBytes: number,
  ) {}

  /** The frame's key, or undefined when a frame this size is not kept. */
  keyOf(frame: Buffer): string | undefined {
    return frame.length <= this.maxFrameBytes ? frame.toString('latin1') : undefined;
  }

  get(key: string): string | undefined {
    const text = this.current.get(key);
    if (text !== undefined) return text;
    const old = this.previous.get(key);
    if (old !== undefined) this.add(key, old);
    return old;
  }

  set(frame: Buffer | string, text: string): void {
    const key = typeof frame === 'string' ? frame : this.keyOf(frame);
    if (key !== undefined && !this.current.has(key)) this.add(key, text);
  }

  private add(key: string, text: string): void {
    // a two-byte string when the entries hold a character outside Latin-1
    const size = key.length + 2 * text.length;
    const generationBytes = this.maxBytes / 2;
    if (size > generationBytes) return;
    if (this.currentBytes + size > generationBytes) {
      this.previous = this.current;
      this.current = new Map();
      this.currentBytes = 0;
    }
    this.current.set(key, text);
    this.currentBytes += size;
  }
}

/** 16,383 characters is V8's String::kMaxHashCalcLength. */
const MAX_CACHED_FRAME_BYTES = 16_383;
const inflatedFields = new InflatedFieldsCache(8 * 1024 * 1024, MAX_CACHED_FRAME_BYTES);

/** True when `data` is a frame (else it is JSON, or not an object at all). */
export function isManagedFieldsFrame(data: Buffer): boolean {
  return data.length > 0 && data[0] === MAGIC;
}

/** Parses stored bytes, framed or JSON, into a fresh object. Throws when they are neither. */
export function parseStoredObject(data: Buffer): unknown {
  if (!isManagedFieldsFrame(data)) return JSON.parse(data.toString('utf8'));
  if (data[1] !== VERSION) throw new Error(`unknown managedFields frame version ${String(data[1])}`);
  let at = 2;
  const length = readUvarint(data, at);
  at = length.next;
  const index = readUvarint(data, at);
  at = index.next;
  if (at + length.value > data.length) throw new Error('managedFields frame shorter than its object');
  const body = data.subarray(at, at + length.value);
  let fields: unknown;
  try {
    const key = inflatedFields.keyOf(data);
    const known = key === undefined ? undefined : inflatedFields.get(key);
    const text = known ?? inflateRawSync(data.subarray(at + length.value), { dictionary: dictionaryFor(body), maxOutputLength: MAX_INFLATED_BYTES }).toString('utf8');
    fields = JSON.parse(text);
    if (known === undefined && key !== undefined) inflatedFields.set(key, text);
  } catch (e) {
    throw new Error(`managedFields not decodable: ${(e as Error).message}`, { cause: e });
  }
  const obj = JSON.parse(body.toString('utf8')) as StoredObject;
  const meta = obj.metadata;
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) throw new Error('managedFields frame of an object without metadata');
  // Put the entries back at their place among metadata's keys, so the object reads (and
  // re-encodes) exactly as it was written.
  const keys = Object.keys(meta);
  const restored: Record<string, unknown> = {};
  keys.forEach((k, i) => {
    if (i === index.value) setField(restored, 'managedFields', fields);
    setField(restored, k, meta[k]);
  });
  if (index.value >= keys.length) setField(restored, 'managedFields', fields);
  (obj as { metadata: unknown }).metadata = restored;
  return obj;
}

/**
 * zlib's window and hash sized to what one value can reach: the smallest window holding the
 * dictionary and the input (so every back-reference the default 32 KiB window allows is still
 * allowed, and the output is as small), with the hash scaled alike. zlib's default state is
 * about 384 KiB set up and cleared per call, several times the cost of deflating a small
 * object's managedFields; a reader inflates with the default window, which reads any smaller one.
 */
function deflateWindow(reach: number): { windowBits: number; memLevel: number } {
  // raw deflate takes windowBits 9..15
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(reach))));
  return { windowBits, memLevel: windowBits - 7 };
}

function dictionaryFor(body: Buffer): Buffer {
  return Buffer.concat([FIXED_DICTIONARY, body]);
}

function uvarint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Buffer.from(out);
}

function readUvarint(data: Buffer, from: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  for (let at = from; at < data.length && at < from + 8; at++) {
    const byte = data[at] as number;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return { value, next: at + 1 };
    scale *= 0x80;
  }
  throw new Error('managedFields frame header truncated');
}
