import protobuf from 'protobufjs/minimal.js';
import { isJSONObject, ownField } from '../jsonvalue.js';
import type { FieldDescriptor } from './descriptor.js';
import { PROTOBUF_MAGIC } from './envelope.js';
import type { CompiledField, CompiledMessage, ProtobufScheme, TypeMetaRef } from './scheme.js';
import { WIRE_BYTES, WIRE_VARINT } from './wire.js';

/** A JSON value that has no protobuf form under its descriptor (a string where a bool belongs…). */
export class ProtobufEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtobufEncodeError';
  }
}

/** Deeper nesting is refused rather than risking the stack; only recursive messages can reach it. */
const MAX_DEPTH = 1000;

/**
 * `k8s\0` + runtime.Unknown{typeMeta{apiVersion, kind}, raw, contentEncoding, contentType}
 * around the message of the object's kind, as kube's protobuf serializer writes an object.
 * Throws ProtobufEncodeError when the kind has no protobuf form in `scheme`.
 */
export function encodeProtobufObject(object: Readonly<Record<string, unknown>> & TypeMetaRef, scheme: ProtobufScheme): Uint8Array {
  const message = scheme.forKind(object);
  if (message === undefined) throw new ProtobufEncodeError(`no kind ${JSON.stringify(object.kind)} is registered for version ${JSON.stringify(object.apiVersion)}`);
  const w = protobuf.Writer.create();
  w.uint32(tag(1, WIRE_BYTES)).fork().uint32(tag(1, WIRE_BYTES)).string(object.apiVersion).uint32(tag(2, WIRE_BYTES)).string(object.kind).ldelim();
  w.uint32(tag(2, WIRE_BYTES)).bytes(encodeMessage(object, message));
  w.uint32(tag(3, WIRE_BYTES)).string('').uint32(tag(4, WIRE_BYTES)).string('');
  return Buffer.concat([Buffer.from(PROTOBUF_MAGIC), w.finish()]);
}

/**
 * The bytes gogo's Marshal writes for the Go value that Go's encoding/json reads from `value`:
 * fields in number order; every non-pointer field, zero or not (an absent string is ""); a
 * pointer, list or map only when present; map entries sorted by key; a named list as its
 * message `{items}`. The inverse of decodeMessage for what the decoder accepts. Keys of `value`
 * are read as own properties only: a map key `__proto__` is data.
 */
export function encodeMessage(value: Readonly<Record<string, unknown>>, message: CompiledMessage, depth = 0): Uint8Array {
  if (depth > MAX_DEPTH) throw new ProtobufEncodeError('proto: exceeded maximum nesting depth');
  const w = protobuf.Writer.create();
  for (const field of message.fields) writeField(w, field, ownField(value, field.descriptor.name), depth);
  return w.finish();
}

function tag(number: number, wireType: number): number {
  return ((number << 3) | wireType) >>> 0;
}

function writeField(w: protobuf.Writer, field: CompiledField, v: unknown, depth: number): void {
  const d = field.descriptor;
  if (d.cardinality === 'repeated') {
    if (v === undefined || v === null) return;
    if (!Array.isArray(v)) throw new ProtobufEncodeError(`${d.name}: expected a list, got ${typeof v}`);
    for (const item of v) writeValue(w, field, d.number, item, depth);
    return;
  }
  if (d.cardinality === 'map') {
    if (v === undefined || v === null) return;
    if (!isJSONObject(v)) throw new ProtobufEncodeError(`${d.name}: expected a map, got ${typeof v}`);
    // gogo writes map entries sorted by key (sortkeys), key and value always.
    for (const key of Object.keys(v).sort()) {
      w.uint32(tag(d.number, WIRE_BYTES)).fork().uint32(tag(1, WIRE_BYTES)).string(key);
      writeValue(w, field, 2, ownField(v, key), depth);
      w.ldelim();
    }
    return;
  }
  if ((v === undefined || v === null) && (d.pointer === true || field.message?.descriptor.namedList === true)) return;
  writeValue(w, field, d.number, v, depth);
}

/** One value of the field's type under `number`; undefined and null are Go's zero value. */
function writeValue(w: protobuf.Writer, field: CompiledField, number: number, v: unknown, depth: number): void {
  const d = field.descriptor;
  const zero = v === undefined || v === null;
  switch (d.type) {
    case 'string':
      w.uint32(tag(number, WIRE_BYTES)).string(zero ? '' : expect(d, v, 'string'));
      return;
    case 'bool':
      w.uint32(tag(number, WIRE_VARINT)).bool(zero ? false : expect(d, v, 'boolean'));
      return;
    case 'int32':
      w.uint32(tag(number, WIRE_VARINT)).int32(zero ? 0 : integer(d, v));
      return;
    case 'int64':
      w.uint32(tag(number, WIRE_VARINT)).int64(zero ? 0 : integer(d, v));
      return;
    case 'bytes':
      // A nil []byte is written as nothing, in a field and as a map value alike; "" is an empty one.
      if (!zero) w.uint32(tag(number, WIRE_BYTES)).bytes(Buffer.from(expect(d, v, 'string'), 'base64'));
      return;
    default:
      w.uint32(tag(number, WIRE_BYTES)).bytes(messageBytes(field, v, depth));
  }
}

/** The payload of a message-typed value: a message, a named list, or a hand-written type. */
function messageBytes(field: CompiledField, v: unknown, depth: number): Uint8Array {
  const d = field.descriptor;
  const zero = v === undefined || v === null;
  const w = protobuf.Writer.create();
  switch (d.type) {
    case 'Time':
    case 'MicroTime': {
      if (zero) return new Uint8Array(0);
      const ms = Date.parse(expect(d, v, 'string'));
      if (Number.isNaN(ms)) throw new ProtobufEncodeError(`${d.name}: ${JSON.stringify(v)} is not an RFC 3339 time`);
      const seconds = Math.floor(ms / 1000);
      const fraction = /\.(\d+)/.exec(v as string)?.[1] ?? '';
      const nanos = d.type === 'MicroTime' ? Number(fraction.padEnd(9, '0').slice(0, 9)) : 0;
      return w.uint32(tag(1, WIRE_VARINT)).int64(seconds).uint32(tag(2, WIRE_VARINT)).int32(nanos).finish();
    }
    case 'IntOrString':
      if (typeof v === 'string') return w.uint32(tag(1, WIRE_VARINT)).int64(1).uint32(tag(2, WIRE_VARINT)).int32(0).uint32(tag(3, WIRE_BYTES)).string(v).finish();
      return w
        .uint32(tag(1, WIRE_VARINT))
        .int64(0)
        .uint32(tag(2, WIRE_VARINT))
        .int32(zero ? 0 : integer(d, v))
        .uint32(tag(3, WIRE_BYTES))
        .string('')
        .finish();
    case 'Quantity':
      return w
        .uint32(tag(1, WIRE_BYTES))
        .string(zero ? '0' : typeof v === 'number' ? String(v) : expect(d, v, 'string'))
        .finish();
    case 'RawExtension':
    case 'FieldsV1':
      return zero
        ? new Uint8Array(0)
        : w
            .uint32(tag(1, WIRE_BYTES))
            .bytes(Buffer.from(JSON.stringify(v), 'utf8'))
            .finish();
    default: {
      const message = field.message!;
      if (message.descriptor.namedList === true) {
        if (!zero && !Array.isArray(v)) throw new ProtobufEncodeError(`${d.name}: expected a list, got ${typeof v}`);
        return encodeMessage({ items: v ?? [] }, message, depth + 1);
      }
      if (!zero && !isJSONObject(v)) throw new ProtobufEncodeError(`${d.name}: expected an object, got ${Array.isArray(v) ? 'a list' : typeof v}`);
      return encodeMessage(zero ? {} : v, message, depth + 1);
    }
  }
}

function expect<T extends 'string' | 'boolean'>(d: FieldDescriptor, v: unknown, type: T): T extends 'string' ? string : boolean {
  if (typeof v !== type) throw new ProtobufEncodeError(`${d.name}: expected a ${type}, got ${Array.isArray(v) ? 'a list' : typeof v}`);
  return v as T extends 'string' ? string : boolean;
}

function integer(d: FieldDescriptor, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new ProtobufEncodeError(`${d.name}: expected an integer, got ${JSON.stringify(v)}`);
  return v;
}
