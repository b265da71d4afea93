/**
 * otlpProtoToJson — one protobuf `ExportTraceServiceRequest` as the OTLP/JSON object of the same request.
 *
 * `serve --out` writes what arrived as OTLP/JSON lines whatever the exporter sent, so every command reads the
 * file later; a protobuf body is converted here, field for field, not only the fields a routing record needs
 * (decodeOtlpProto reads those): resource, scope, every span field, events, links, status, dropped counts and
 * schema URLs. The JSON follows the OTLP/JSON encoding: trace and span ids as hex, enums as numbers, 64-bit
 * integers (times, `intValue`) as decimal strings, exact through BigInt, bytes as base64. Unknown fields are
 * skipped by wire type. Malformed bytes throw `ProtoWireError`. No I/O.
 */
import { ProtoWireError } from './decodeOtlpProto.js';

type Json = Record<string, unknown>;

const VARINT = 0;
const I64 = 1;
const LEN = 2;
const I32 = 5;
const MAX_DEPTH = 32;

class Cursor {
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
  varint(): bigint {
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
  small(): number {
    return Number(BigInt.asUintN(32, this.varint()));
  }
  tag(): [number, number] {
    const t = this.varint();
    return [Number(t >> 3n), Number(t & 7n)];
  }
  need(n: number): void {
    if (n < 0 || this.pos + n > this.end) throw new ProtoWireError('field runs past the end of the message');
  }
  fixed64(): bigint {
    this.need(8);
    const v = this.buf.readBigUInt64LE(this.pos);
    this.pos += 8;
    return v;
  }
  fixed32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }
  double(): number {
    this.need(8);
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }
  bytes(): Buffer {
    const n = Number(this.varint());
    this.need(n);
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
  sub(): Cursor {
    const n = Number(this.varint());
    this.need(n);
    const c = new Cursor(this.buf, this.pos, this.pos + n);
    this.pos += n;
    return c;
  }
  string(): string {
    return this.bytes().toString('utf8');
  }
  skip(wire: number): void {
    if (wire === VARINT) this.varint();
    else if (wire === I64) this.fixed64();
    else if (wire === LEN) this.bytes();
    else if (wire === I32) this.fixed32();
    else throw new ProtoWireError(`unsupported wire type ${wire}`);
  }
}

/** Convert one serialized request; throws ProtoWireError when the bytes are not one. */
export function otlpProtoToJson(bytes: Uint8Array): Json {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const c = new Cursor(buf, 0, buf.length);
  const resourceSpans: Json[] = [];
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) resourceSpans.push(readResourceSpans(c.sub()));
    else c.skip(wire);
  }
  return { resourceSpans };
}

function readResourceSpans(c: Cursor): Json {
  const out: Json = {};
  const scopeSpans: Json[] = [];
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) out['resource'] = readResource(c.sub());
    else if (field === 2 && wire === LEN) scopeSpans.push(readScopeSpans(c.sub()));
    else if (field === 3 && wire === LEN) out['schemaUrl'] = c.string();
    else c.skip(wire);
  }
  out['scopeSpans'] = scopeSpans;
  return out;
}

function readResource(c: Cursor): Json {
  const attributes: Json[] = [];
  const out: Json = { attributes };
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) attributes.push(readKeyValue(c.sub(), 0));
    else if (field === 2 && wire === VARINT) out['droppedAttributesCount'] = c.small();
    else c.skip(wire);
  }
  return out;
}

function readScopeSpans(c: Cursor): Json {
  const out: Json = {};
  const spans: Json[] = [];
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) out['scope'] = readScope(c.sub());
    else if (field === 2 && wire === LEN) spans.push(readSpan(c.sub()));
    else if (field === 3 && wire === LEN) out['schemaUrl'] = c.string();
    else c.skip(wire);
  }
  out['spans'] = spans;
  return out;
}

function readScope(c: Cursor): Json {
  const out: Json = {};
  const attributes: Json[] = [];
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) out['name'] = c.string();
    else if (field === 2 && wire === LEN) out['version'] = c.string();
    else if (field === 3 && wire === LEN) attributes.push(readKeyValue(c.sub(), 0));
    else if (field === 4 && wire === VARINT) out['droppedAttributesCount'] = c.small();
    else c.skip(wire);
  }
  if (attributes.length > 0) out['attributes'] = attributes;
  return out;
}

function readSpan(c: Cursor): Json {
  const out: Json = {};
  const attributes: Json[] = [];
  const events: Json[] = [];
  const links: Json[] = [];
  while (!c.done) {
    const [field, wire] = c.tag();
    switch (wire === LEN ? field : wire === VARINT ? -field : wire === I64 ? 100 + field : 200 + field) {
      case 1:
        out['traceId'] = c.bytes().toString('hex');
        break;
      case 2:
        out['spanId'] = c.bytes().toString('hex');
        break;
      case 3:
        out['traceState'] = c.string();
        break;
      case 4: {
        const parent = c.bytes();
        if (parent.length > 0) out['parentSpanId'] = parent.toString('hex');
        break;
      }
      case 5:
        out['name'] = c.string();
        break;
      case -6:
        out['kind'] = c.small();
        break;
      case 107:
        out['startTimeUnixNano'] = c.fixed64().toString();
        break;
      case 108:
        out['endTimeUnixNano'] = c.fixed64().toString();
        break;
      case 9:
        attributes.push(readKeyValue(c.sub(), 0));
        break;
      case -10:
        out['droppedAttributesCount'] = c.small();
        break;
      case 11:
        events.push(readEvent(c.sub()));
        break;
      case -12:
        out['droppedEventsCount'] = c.small();
        break;
      case 13:
        links.push(readLink(c.sub()));
        break;
      case -14:
        out['droppedLinksCount'] = c.small();
        break;
      case 15:
        out['status'] = readStatus(c.sub());
        break;
      case 216:
        out['flags'] = c.fixed32();
        break;
      default:
        c.skip(wire);
    }
  }
  out['attributes'] = attributes;
  if (events.length > 0) out['events'] = events;
  if (links.length > 0) out['links'] = links;
  return out;
}

function readEvent(c: Cursor): Json {
  const out: Json = {};
  const attributes: Json[] = [];
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === I64) out['timeUnixNano'] = c.fixed64().toString();
    else if (field === 2 && wire === LEN) out['name'] = c.string();
    else if (field === 3 && wire === LEN) attributes.push(readKeyValue(c.sub(), 0));
    else if (field === 4 && wire === VARINT) out['droppedAttributesCount'] = c.small();
    else c.skip(wire);
  }
  out['attributes'] = attributes;
  return out;
}

function readLink(c: Cursor): Json {
  const out: Json = {};
  const attributes: Json[] = [];
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) out['traceId'] = c.bytes().toString('hex');
    else if (field === 2 && wire === LEN) out['spanId'] = c.bytes().toString('hex');
    else if (field === 3 && wire === LEN) out['traceState'] = c.string();
    else if (field === 4 && wire === LEN) attributes.push(readKeyValue(c.sub(), 0));
    else if (field === 5 && wire === VARINT) out['droppedAttributesCount'] = c.small();
    else if (field === 6 && wire === I32) out['flags'] = c.fixed32();
    else c.skip(wire);
  }
  out['attributes'] = attributes;
  return out;
}

function readStatus(c: Cursor): Json {
  const out: Json = {};
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 2 && wire === LEN) out['message'] = c.string();
    else if (field === 3 && wire === VARINT) out['code'] = c.small();
    else c.skip(wire);
  }
  return out;
}

function readKeyValue(c: Cursor, depth: number): Json {
  let key = '';
  let value: Json = {};
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) key = c.string();
    else if (field === 2 && wire === LEN) value = readAnyValue(c.sub(), depth + 1);
    else c.skip(wire);
  }
  return { key, value };
}

function readAnyValue(c: Cursor, depth: number): Json {
  if (depth > MAX_DEPTH) throw new ProtoWireError(`attribute values nested deeper than ${MAX_DEPTH}`);
  let value: Json = {};
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) value = { stringValue: c.string() };
    else if (field === 2 && wire === VARINT) value = { boolValue: c.varint() !== 0n };
    else if (field === 3 && wire === VARINT) value = { intValue: BigInt.asIntN(64, c.varint()).toString() };
    else if (field === 4 && wire === I64) value = { doubleValue: jsonDouble(c.double()) };
    else if (field === 5 && wire === LEN)
      value = { arrayValue: { values: readValues(c.sub(), depth, false) } };
    else if (field === 6 && wire === LEN)
      value = { kvlistValue: { values: readValues(c.sub(), depth, true) } };
    else if (field === 7 && wire === LEN) value = { bytesValue: c.bytes().toString('base64') };
    else c.skip(wire);
  }
  return value;
}

function readValues(c: Cursor, depth: number, keyed: boolean): Json[] {
  const values: Json[] = [];
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN)
      values.push(keyed ? readKeyValue(c.sub(), depth + 1) : readAnyValue(c.sub(), depth + 1));
    else c.skip(wire);
  }
  return values;
}

/** The proto3 JSON form of a double: a number, or the strings JSON has for what it cannot write. */
function jsonDouble(x: number): number | string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return x;
}
