import { expectWire } from './wellknown.js';
import { FieldReader, ProtobufDecodeError, WIRE_BYTES } from './wire.js';

/** `k8s\0`: the prefix of every protobuf body; the last byte is the encoding style (0 = runtime.Unknown). */
export const PROTOBUF_MAGIC: readonly number[] = [0x6b, 0x38, 0x73, 0x00];

/** runtime.Unknown: the envelope of a protobuf body. */
export interface Unknown {
  readonly apiVersion: string;
  readonly kind: string;
  /** The object's own message bytes. */
  readonly raw: Uint8Array;
  readonly contentEncoding: string;
  readonly contentType: string;
}

/**
 * Reads the magic prefix and the runtime.Unknown envelope {typeMeta=1
 * {apiVersion=1, kind=2}, raw=2, contentEncoding=3, contentType=4}, with
 * the protobuf serializer's errors for empty and unprefixed data.
 */
export function readEnvelope(data: Uint8Array): Unknown {
  if (data.length === 0) throw new ProtobufDecodeError('empty data');
  if (data.length < PROTOBUF_MAGIC.length || PROTOBUF_MAGIC.some((b, i) => data[i] !== b)) {
    throw new ProtobufDecodeError(`provided data does not appear to be a protobuf message, expected prefix [${PROTOBUF_MAGIC.join(' ')}]`);
  }
  if (data.length === PROTOBUF_MAGIC.length) throw new ProtobufDecodeError('empty body');
  let apiVersion = '';
  let kind = '';
  let raw: Uint8Array = new Uint8Array(0);
  let contentEncoding = '';
  let contentType = '';
  const r = new FieldReader(data.subarray(PROTOBUF_MAGIC.length), 'Unknown');
  r.forEach((number, wireType) => {
    switch (number) {
      case 1: {
        expectWire(wireType, WIRE_BYTES, 'TypeMeta');
        const meta = new FieldReader(r.bytes(), 'TypeMeta');
        meta.forEach((n, w) => {
          if (n === 1) {
            expectWire(w, WIRE_BYTES, 'APIVersion');
            apiVersion = meta.string();
          } else if (n === 2) {
            expectWire(w, WIRE_BYTES, 'Kind');
            kind = meta.string();
          } else {
            meta.skip(w);
          }
        });
        return;
      }
      case 2:
        expectWire(wireType, WIRE_BYTES, 'Raw');
        raw = r.bytes();
        return;
      case 3:
        expectWire(wireType, WIRE_BYTES, 'ContentEncoding');
        contentEncoding = r.string();
        return;
      case 4:
        expectWire(wireType, WIRE_BYTES, 'ContentType');
        contentType = r.string();
        return;
      default:
        r.skip(wireType);
    }
  });
  return { apiVersion, kind, raw, contentEncoding, contentType };
}
