import { ownField } from '../jsonvalue.js';
import type { FieldDescriptor } from './descriptor.js';
import type { CompiledField, CompiledMessage } from './scheme.js';
import { expectWire, formatTime, intOrStringJSON, quantityJSON, rawJSON, readTime } from './wellknown.js';
import { FieldReader, ProtobufDecodeError, WIRE_BYTES, WIRE_VARINT } from './wire.js';

type Scalar = string | number | boolean | Uint8Array;

/** What the wire held for one field of one message. */
interface Occurrence {
  /** The last scalar value of a single scalar field. */
  scalar?: Scalar;
  /** Every payload of a single message-typed field: Go merges them, which is decoding their concatenation. */
  chunks: Uint8Array[];
  /** Rendered elements of a repeated field. */
  items: unknown[];
  /** Rendered entries of a map field; a later key wins. */
  entries: Map<string, unknown>;
}

/** Deeper nesting is refused rather than risking the stack; only recursive messages can reach it. */
const MAX_DEPTH = 1000;

/**
 * Decodes the bytes of `message` into the plain JSON object Go's
 * encoding/json writes for the Go value gogo's Unmarshal builds from them:
 * fields that were not sent get Go's zero value; then omitempty leaves out
 * zero scalars and empty lists and maps, structs are always written (null
 * for a zero Time unless omitzero), pointers only when sent. Unknown field
 * numbers are skipped, as Go skips them. Throws ProtobufDecodeError.
 */
export function decodeMessage(bytes: Uint8Array, message: CompiledMessage, depth = 0): Record<string, unknown> {
  if (depth > MAX_DEPTH) throw new ProtobufDecodeError('proto: exceeded maximum nesting depth');
  const seen = new Map<number, Occurrence>();
  const reader = new FieldReader(bytes, shortName(message.descriptor.name));
  reader.forEach((number, wireType) => {
    const field = message.byNumber.get(number);
    if (field === undefined) return reader.skip(wireType);
    let occurrence = seen.get(number);
    if (occurrence === undefined) {
      occurrence = { chunks: [], items: [], entries: new Map() };
      seen.set(number, occurrence);
    }
    readField(reader, wireType, field, occurrence, depth);
  });
  const out: Record<string, unknown> = {};
  for (const field of message.fields) {
    const value = fieldJSON(field, seen.get(field.descriptor.number), depth);
    if (value !== OMIT) out[field.descriptor.name] = value;
  }
  return out;
}

const OMIT = Symbol('omit');

function readField(reader: FieldReader, wireType: number, field: CompiledField, into: Occurrence, depth: number): void {
  const d = field.descriptor;
  const name = d.name;
  if (d.cardinality === 'map') {
    expectWire(wireType, WIRE_BYTES, name);
    const [key, value] = mapEntry(reader.bytes(), field, depth);
    into.entries.set(key, value);
    return;
  }
  if (isVarint(d)) {
    if (d.cardinality === 'repeated' && wireType === WIRE_BYTES) {
      into.items.push(...reader.packed((r) => readVarint(r, d)));
      return;
    }
    expectWire(wireType, WIRE_VARINT, name);
    const v = readVarint(reader, d);
    if (d.cardinality === 'repeated') into.items.push(v);
    else into.scalar = v;
    return;
  }
  expectWire(wireType, WIRE_BYTES, name);
  if (d.type === 'string') {
    const s = reader.string();
    if (d.cardinality === 'repeated') into.items.push(s);
    else into.scalar = s;
    return;
  }
  const payload = reader.bytes();
  if (d.cardinality === 'repeated') into.items.push(valueJSON(field, payload, [payload], depth));
  else if (d.type === 'bytes') into.scalar = payload;
  else into.chunks.push(payload);
}

/** A map entry {key=1, value=2}; a missing key is "", a missing value Go's zero value. */
function mapEntry(bytes: Uint8Array, field: CompiledField, depth: number): [string, unknown] {
  let key = '';
  const value: Occurrence = { chunks: [], items: [], entries: new Map() };
  const reader = new FieldReader(bytes, `${field.descriptor.name} entry`);
  reader.forEach((number, wireType) => {
    if (number === 1) {
      expectWire(wireType, WIRE_BYTES, 'key');
      key = reader.string();
    } else if (number === 2) {
      const single = { ...field, descriptor: { ...field.descriptor, cardinality: undefined } };
      readField(reader, wireType, single, value, depth);
    } else {
      reader.skip(wireType);
    }
  });
  return [key, valueJSON(field, value.scalar, value.chunks, depth)];
}

function isVarint(d: FieldDescriptor): boolean {
  return d.type === 'bool' || d.type === 'int32' || d.type === 'int64';
}

function readVarint(r: FieldReader, d: FieldDescriptor): number | boolean {
  return d.type === 'bool' ? r.bool() : d.type === 'int32' ? r.int32() : r.int64();
}

/** The JSON of one field of a message, or OMIT when Go's json tag leaves it out. */
function fieldJSON(field: CompiledField, seen: Occurrence | undefined, depth: number): unknown {
  const d = field.descriptor;
  if (d.cardinality === 'repeated') {
    if (seen === undefined || seen.items.length === 0) return d.omitEmpty === true ? OMIT : null;
    return seen.items;
  }
  if (d.cardinality === 'map') {
    if (seen === undefined || seen.entries.size === 0) return d.omitEmpty === true ? OMIT : null;
    return Object.fromEntries(seen.entries);
  }
  if (d.pointer === true && seen === undefined) return OMIT;
  if (d.type === 'Time' || d.type === 'MicroTime') {
    const t = formatTime(readTime(seen?.chunks.at(-1), d.type === 'MicroTime'), d.type === 'MicroTime');
    return t === null && d.omitZero === true ? OMIT : t;
  }
  const value = valueJSON(field, seen?.scalar, seen?.chunks ?? [], depth);
  // A named list held in a field is Go's nil slice when nothing was sent: null, or left out.
  if (d.pointer !== true && field.message?.descriptor.namedList === true && Array.isArray(value) && value.length === 0) return d.omitEmpty === true ? OMIT : null;
  if (d.pointer !== true && d.omitEmpty === true && isZeroScalar(d, value)) return OMIT;
  return value;
}

/** Only scalars are zero for omitempty: encoding/json never omits a struct. */
function isZeroScalar(d: FieldDescriptor, value: unknown): boolean {
  switch (d.type) {
    case 'string':
      return value === '';
    case 'bool':
      return value === false;
    case 'int32':
    case 'int64':
      return value === 0;
    case 'bytes':
      return value === null || value === '';
    default:
      return false;
  }
}

/** The JSON of one value of the field's type, from the last scalar or the merged message payloads. */
function valueJSON(field: CompiledField, scalar: Scalar | undefined, chunks: readonly Uint8Array[], depth: number): unknown {
  const d = field.descriptor;
  const merged = chunks.length === 0 ? undefined : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  switch (d.type) {
    case 'string':
      return scalar ?? '';
    case 'bool':
      return scalar ?? false;
    case 'int32':
    case 'int64':
      return scalar ?? 0;
    case 'bytes':
      return scalar instanceof Uint8Array ? Buffer.from(scalar.buffer, scalar.byteOffset, scalar.byteLength).toString('base64') : null;
    case 'Time':
    case 'MicroTime':
      return formatTime(readTime(chunks.at(-1), d.type === 'MicroTime'), d.type === 'MicroTime');
    case 'IntOrString':
      return intOrStringJSON(merged);
    case 'Quantity':
      return quantityJSON(chunks.at(-1));
    case 'RawExtension':
    case 'FieldsV1':
      return rawJSON(merged, d.type);
    case 'message':
      return field.message!.descriptor.namedList === true ? namedListJSON(merged, field.message!, depth) : decodeMessage(merged ?? new Uint8Array(0), field.message!, depth + 1);
  }
}

/**
 * The JSON array of a named list's items. As a map value or a list element Go holds a non-nil
 * slice (gogo unmarshals into `&ExtraValue{}`), so an empty one is `[]`, never null.
 */
function namedListJSON(bytes: Uint8Array | undefined, message: CompiledMessage, depth: number): unknown[] {
  const decoded = decodeMessage(bytes ?? new Uint8Array(0), message, depth + 1);
  const items = ownField(decoded, 'items');
  return Array.isArray(items) ? items : [];
}

function shortName(definition: string): string {
  return definition.slice(definition.lastIndexOf('.') + 1);
}
