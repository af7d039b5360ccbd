import protobuf from 'protobufjs/minimal.js';

/** Malformed protobuf input; the message is the Go decoder's wording where there is one. */
export class ProtobufDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtobufDecodeError';
  }
}

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_START_GROUP = 3;
export const WIRE_END_GROUP = 4;
export const WIRE_FIXED32 = 5;

const UNEXPECTED_EOF = 'unexpected EOF';

/**
 * Reads the fields of one message with protobufjs' Reader: tags, varints,
 * length-delimited values, and skipping of unknown fields (groups included,
 * without recursion). Reads never go past the message's bytes; every
 * failure is a ProtobufDecodeError.
 */
export class FieldReader {
  private readonly reader: protobuf.Reader;

  constructor(
    private readonly data: Uint8Array,
    private readonly messageName: string,
  ) {
    this.reader = protobuf.Reader.create(data);
  }

  /**
   * Calls `visit` once per field in wire order with its number and wire
   * type; `visit` must consume the value with one of the read methods or
   * `skip`. Field number 0 and a stray end-group are rejected as Go rejects them.
   */
  forEach(visit: (number: number, wireType: number) => void): void {
    while (this.reader.pos < this.reader.len) {
      const tag = this.guard(() => this.reader.uint32());
      const number = tag >>> 3;
      const wireType = tag & 7;
      if (wireType === WIRE_END_GROUP) throw new ProtobufDecodeError(`proto: ${this.messageName}: wiretype end group for non-group`);
      if (number <= 0) throw new ProtobufDecodeError(`proto: ${this.messageName}: illegal tag ${number} (wire type ${wireType})`);
      visit(number, wireType);
    }
  }

  uint32(): number {
    return this.guard(() => this.reader.uint32());
  }

  int32(): number {
    return this.guard(() => this.reader.int32());
  }

  /** A varint as a signed 64-bit integer, as a JS number (exact up to 2^53). */
  int64(): number {
    return this.guard(() => {
      const v: unknown = this.reader.int64();
      return typeof v === 'number' ? v : (v as { toNumber(): number }).toNumber();
    });
  }

  bool(): boolean {
    return this.guard(() => this.reader.bool());
  }

  /** The payload of a length-delimited field, sharing memory with the input. */
  bytes(): Uint8Array {
    const length = this.uint32();
    const start = this.reader.pos;
    if (length > this.reader.len - start) throw new ProtobufDecodeError(UNEXPECTED_EOF);
    this.reader.pos = start + length;
    return this.data.subarray(start, start + length);
  }

  string(): string {
    const b = this.bytes();
    return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
  }

  /** The elements of a packed repeated varint field. */
  packed(read: (r: FieldReader) => number | boolean): (number | boolean)[] {
    const inner = new FieldReader(this.bytes(), this.messageName);
    const out: (number | boolean)[] = [];
    while (inner.reader.pos < inner.reader.len) out.push(read(inner));
    return out;
  }

  /** Skips a value of `wireType`; nested groups are counted, not recursed into. */
  skip(wireType: number): void {
    let depth = 0;
    let type = wireType;
    for (;;) {
      switch (type) {
        case WIRE_VARINT:
          this.int64();
          break; // reads, so that a varint over 10 bytes fails as Go's skip fails
        case WIRE_FIXED64:
          this.guard(() => this.reader.skip(8));
          break;
        case WIRE_BYTES:
          this.bytes();
          break;
        case WIRE_FIXED32:
          this.guard(() => this.reader.skip(4));
          break;
        case WIRE_START_GROUP:
          depth++;
          break;
        case WIRE_END_GROUP:
          if (depth === 0) throw new ProtobufDecodeError(`proto: ${this.messageName}: wiretype end group for non-group`);
          depth--;
          break;
        default:
          throw new ProtobufDecodeError(`proto: illegal wireType ${type}`);
      }
      if (depth === 0) return;
      type = this.uint32() & 7;
    }
  }

  /** protobufjs throws RangeError past the end and Error on a varint longer than 10 bytes. */
  private guard<T>(read: () => T): T {
    try {
      return read();
    } catch (err) {
      if (err instanceof ProtobufDecodeError) throw err;
      if (err instanceof RangeError) throw new ProtobufDecodeError(UNEXPECTED_EOF);
      throw new ProtobufDecodeError('proto: integer overflow');
    }
  }
}
