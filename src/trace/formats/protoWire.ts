/**
 * protoWire — the protobuf wire format, read: one cursor over a message's bytes, shared by every reader of
 * protobuf OTLP (decodeOtlpProto for routing records, otlpProtoToJson for `serve --out`), so there is one
 * decoder of the wire and each reader only says which fields it wants.
 *
 * Varints, zig-zag-free int64 (two's complement), fixed32/fixed64, doubles and length-delimited fields; any
 * read past the end of the message throws `ProtoWireError`, which callers report as a bad record. Pure. No I/O.
 */

/** The bytes are not a well-formed protobuf message of the expected type. */
export class ProtoWireError extends Error {
  override readonly name = 'ProtoWireError';
}

/** Wire type 0: a varint. */
export const WIRE_VARINT = 0;
/** Wire type 1: eight bytes (fixed64, double). */
export const WIRE_I64 = 1;
/** Wire type 2: length-delimited (bytes, strings, messages). */
export const WIRE_LEN = 2;
/** Wire type 5: four bytes (fixed32, float). */
export const WIRE_I32 = 5;

/** A cursor over one message's bytes [pos, end). */
export class WireReader {
  pos: number;
  constructor(
    readonly buf: Buffer,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** Unsigned varint as a number (exact below 2^53). */
  varint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtoWireError('varint runs past the end of the message');
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return result;
      scale *= 128;
    }
    throw new ProtoWireError('varint longer than 10 bytes');
  }

  /** Signed int64 varint (two's complement) as a number. */
  int64(): number {
    const start = this.pos;
    const u = this.varint();
    // A negative int64 is written as 10 bytes with the top bit set; undo the 2^64 offset.
    return this.pos - start === 10 && u >= 2 ** 63 ? u - 2 ** 64 : u;
  }

  /** A fixed64 nanosecond timestamp as fractional milliseconds, whole milliseconds exact. */
  unixNanosAsMs(): number {
    if (this.pos + 8 > this.end) throw new ProtoWireError('fixed64 runs past the end of the message');
    const ns = this.buf.readBigUInt64LE(this.pos);
    this.pos += 8;
    return Number(ns / 1_000_000n) + Number(ns % 1_000_000n) / 1e6;
  }

  double(): number {
    if (this.pos + 8 > this.end) throw new ProtoWireError('double runs past the end of the message');
    const d = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return d;
  }

  /** Unsigned varint, every one of its 64 bits exact. */
  varint64(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtoWireError('varint runs past the end of the message');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
    throw new ProtoWireError('varint longer than 10 bytes');
  }

  fixed64(): bigint {
    if (this.pos + 8 > this.end) throw new ProtoWireError('fixed64 runs past the end of the message');
    const v = this.buf.readBigUInt64LE(this.pos);
    this.pos += 8;
    return v;
  }

  fixed32(): number {
    if (this.pos + 4 > this.end) throw new ProtoWireError('fixed32 runs past the end of the message');
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  /** A length-delimited field: returns [start, end) and moves past it. */
  bytes(): [number, number] {
    const len = this.varint();
    const start = this.pos;
    if (start + len > this.end)
      throw new ProtoWireError(`a ${len}-byte field runs past the end of the message`);
    this.pos = start + len;
    return [start, start + len];
  }

  string(): string {
    const [s, e] = this.bytes();
    return this.buf.toString('utf8', s, e);
  }

  sub(): WireReader {
    const [s, e] = this.bytes();
    return new WireReader(this.buf, s, e);
  }

  tag(): [field: number, wire: number] {
    const t = this.varint();
    return [Math.floor(t / 8), t & 7];
  }

  skip(wire: number): void {
    switch (wire) {
      case WIRE_VARINT:
        this.varint();
        return;
      case WIRE_I64:
        if (this.pos + 8 > this.end) throw new ProtoWireError('fixed64 runs past the end of the message');
        this.pos += 8;
        return;
      case WIRE_LEN:
        this.bytes();
        return;
      case WIRE_I32:
        if (this.pos + 4 > this.end) throw new ProtoWireError('fixed32 runs past the end of the message');
        this.pos += 4;
        return;
      default:
        throw new ProtoWireError(`unsupported wire type ${wire}`);
    }
  }
}
