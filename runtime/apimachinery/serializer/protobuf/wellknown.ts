import { FieldReader, ProtobufDecodeError, WIRE_BYTES, WIRE_VARINT } from './wire.js';
import { MAX_OBJECT_DEPTH, scanJSON } from '../json-scan.js';

/**
 * The JSON of the types whose protobuf form Go implements by hand
 * (apimachinery's Time, MicroTime, IntOrString, Quantity, RawExtension and
 * FieldsV1). Each takes the merged bytes of its message (undefined when the
 * field was not on the wire) and returns what the type's MarshalJSON writes.
 */

/** Seconds of Go's zero time.Time (0001-01-01T00:00:00Z) since the Unix epoch. */
const GO_ZERO_SECONDS = -62_135_596_800;
/** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the years RFC 3339 can write. */
const MIN_SECONDS = -62_167_219_200;
const MAX_SECONDS = 253_402_300_799;

export interface Timestamp {
  readonly seconds: number;
  readonly nanos: number;
}

/**
 * A Time or MicroTime: Timestamp {seconds=1, nanos=2}. Empty bytes are Go's
 * zero time (Time marshals a zero time as nothing). Time drops the nanos,
 * as metav1.Time.Unmarshal does; MicroTime normalizes them as time.Unix.
 */
export function readTime(bytes: Uint8Array | undefined, micro: boolean): Timestamp | 'zero' {
  if (bytes === undefined || bytes.length === 0) return 'zero';
  let seconds = 0;
  let nanos = 0;
  const r = new FieldReader(bytes, 'Timestamp');
  r.forEach((number, wireType) => {
    if (number === 1 || number === 2) expectWire(wireType, WIRE_VARINT, number === 1 ? 'Seconds' : 'Nanos');
    if (number === 1) seconds = r.int64();
    else if (number === 2) nanos = r.int32();
    else r.skip(wireType);
  });
  if (!micro) nanos = 0;
  if (nanos < 0 || nanos >= 1e9) {
    const carry = Math.floor(nanos / 1e9);
    seconds += carry;
    nanos -= carry * 1e9;
  }
  return seconds === GO_ZERO_SECONDS && nanos === 0 ? 'zero' : { seconds, nanos };
}

/** metav1.Time/MicroTime.MarshalJSON: null for the zero time, else RFC 3339 in UTC (MicroTime with six fraction digits). */
export function formatTime(t: Timestamp | 'zero', micro: boolean): string | null {
  if (t === 'zero') return null;
  if (t.seconds < MIN_SECONDS || t.seconds > MAX_SECONDS) throw new ProtobufDecodeError('Time.MarshalJSON: year outside of range [0,9999]');
  const iso = new Date(t.seconds * 1000).toISOString().slice(0, 19);
  return micro ? `${iso}.${String(Math.floor(t.nanos / 1000)).padStart(6, '0')}Z` : `${iso}Z`;
}

/** IntOrString {type=1, intVal=2, strVal=3}: the int for type 0, the string for type 1. */
export function intOrStringJSON(bytes: Uint8Array | undefined): number | string {
  let type = 0;
  let intVal = 0;
  let strVal = '';
  if (bytes !== undefined) {
    const r = new FieldReader(bytes, 'IntOrString');
    r.forEach((number, wireType) => {
      if (number === 1) {
        expectWire(wireType, WIRE_VARINT, 'Type');
        type = r.int64();
      } else if (number === 2) {
        expectWire(wireType, WIRE_VARINT, 'IntVal');
        intVal = r.int32();
      } else if (number === 3) {
        expectWire(wireType, WIRE_BYTES, 'StrVal');
        strVal = r.string();
      } else {
        r.skip(wireType);
      }
    });
  }
  if (type === 0) return intVal;
  if (type === 1) return strVal;
  throw new ProtobufDecodeError(`impossible IntOrString.Type ${type}`);
}

/** Go's ParseQuantity grammar, as the Quantity schema pattern writes it. */
const QUANTITY = /^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$/;

/**
 * Quantity {string=1}: the string as sent (Go would rewrite it in canonical
 * form; the JSON path keeps it as sent too), `"0"` when absent. A string
 * that is not a quantity fails as ParseQuantity fails.
 */
export function quantityJSON(bytes: Uint8Array | undefined): string {
  let value: string | undefined;
  if (bytes !== undefined) {
    const r = new FieldReader(bytes, 'Quantity');
    r.forEach((number, wireType) => {
      if (number !== 1) return r.skip(wireType);
      expectWire(wireType, WIRE_BYTES, 'String');
      value = r.string();
    });
  }
  if (value === undefined) return '0';
  if (!QUANTITY.test(value)) throw new ProtobufDecodeError("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  return value;
}

const PROTOBUF_MAGIC = [0x6b, 0x38, 0x73, 0x00];

/**
 * RawExtension and FieldsV1 {raw=1}: the raw bytes are the JSON itself
 * (their MarshalJSON writes them verbatim), null when there are none.
 */
export function rawJSON(bytes: Uint8Array | undefined, typeName: 'RawExtension' | 'FieldsV1'): unknown {
  let raw: Uint8Array | undefined;
  if (bytes !== undefined) {
    const r = new FieldReader(bytes, typeName);
    r.forEach((number, wireType) => {
      if (number !== 1) return r.skip(wireType);
      expectWire(wireType, WIRE_BYTES, 'Raw');
      raw = r.bytes();
    });
  }
  if (raw === undefined) return null;
  if (PROTOBUF_MAGIC.every((b, i) => raw![i] === b)) {
    throw new ProtobufDecodeError(`${typeName} holds a protobuf-encoded object; only JSON is supported inside it`);
  }
  try {
    // Nested no deeper than a JSON body may be (the pipeline clones and encodes it).
    scanJSON(raw, MAX_OBJECT_DEPTH);
    return JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8')) as unknown;
  } catch {
    throw new ProtobufDecodeError(`${typeName} does not hold valid JSON`);
  }
}

export function expectWire(actual: number, expected: number, field: string): void {
  if (actual !== expected) throw new ProtobufDecodeError(`proto: wrong wireType = ${actual} for field ${field}`);
}
