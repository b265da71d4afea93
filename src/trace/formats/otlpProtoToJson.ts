/**
 * otlpProtoToJson — one protobuf `ExportTraceServiceRequest` as the OTLP/JSON object of the same request.
 *
 * `serve --out` writes what arrived as OTLP/JSON lines whatever the exporter sent, so every command reads the
 * file later; a protobuf body is converted here, field for field, not only the fields a routing record needs
 * (decodeOtlpProto reads those): resource, scope, every span field, events, links, status, dropped counts and
 * schema URLs. The JSON follows the OTLP/JSON encoding: trace and span ids as hex, enums as numbers, 64-bit
 * integers (times, `intValue`) as decimal strings, exact through BigInt, bytes as base64. Unknown fields are
 * skipped by wire type. The wire itself is read by protoWire, the one cursor decodeOtlpProto reads with too;
 * this file only maps field numbers to OTLP/JSON names. Malformed bytes throw `ProtoWireError`. No I/O.
 */
import { ProtoWireError, WIRE_I32, WIRE_I64, WIRE_LEN, WIRE_VARINT, WireReader } from './protoWire.js';

type Json = Record<string, unknown>;

const VARINT = WIRE_VARINT;
const I64 = WIRE_I64;
const LEN = WIRE_LEN;
const MAX_DEPTH = 32;

/** A length-delimited field's bytes, as a view. */
function bytesOf(c: WireReader): Buffer {
  const [s, e] = c.bytes();
  return c.buf.subarray(s, e);
}

/** A varint field that holds a 32-bit count or enum. */
function small(c: WireReader): number {
  return Number(BigInt.asUintN(32, c.varint64()));
}

/** Convert one serialized request; throws ProtoWireError when the bytes are not one. */
export function otlpProtoToJson(bytes: Uint8Array): Json {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const c = new WireReader(buf, 0, buf.length);
  const resourceSpans: Json[] = [];
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) resourceSpans.push(readResourceSpans(c.sub()));
    else c.skip(wire);
  }
  return { resourceSpans };
}

function readResourceSpans(c: WireReader): Json {
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

function readResource(c: WireReader): Json {
  const attributes: Json[] = [];
  const out: Json = { attributes };
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) attributes.push(readKeyValue(c.sub(), 0));
    else if (field === 2 && wire === VARINT) out['droppedAttributesCount'] = small(c);
    else c.skip(wire);
  }
  return out;
}

function readScopeSpans(c: WireReader): Json {
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

function readScope(c: WireReader): Json {
  const out: Json = {};
  const attributes: Json[] = [];
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) out['name'] = c.string();
    else if (field === 2 && wire === LEN) out['version'] = c.string();
    else if (field === 3 && wire === LEN) attributes.push(readKeyValue(c.sub(), 0));
    else if (field === 4 && wire === VARINT) out['droppedAttributesCount'] = small(c);
    else c.skip(wire);
  }
  if (attributes.length > 0) out['attributes'] = attributes;
  return out;
}

function readSpan(c: WireReader): Json {
  const out: Json = {};
  const attributes: Json[] = [];
  const events: Json[] = [];
  const links: Json[] = [];
  while (!c.done) {
    const [field, wire] = c.tag();
    switch (
      wire === LEN
        ? field
        : wire === VARINT
          ? -field
          : wire === I64
            ? 100 + field
            : wire === WIRE_I32
              ? 200 + field
              : 300 + field
    ) {
      case 1:
        out['traceId'] = bytesOf(c).toString('hex');
        break;
      case 2:
        out['spanId'] = bytesOf(c).toString('hex');
        break;
      case 3:
        out['traceState'] = c.string();
        break;
      case 4: {
        const parent = bytesOf(c);
        if (parent.length > 0) out['parentSpanId'] = parent.toString('hex');
        break;
      }
      case 5:
        out['name'] = c.string();
        break;
      case -6:
        out['kind'] = small(c);
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
        out['droppedAttributesCount'] = small(c);
        break;
      case 11:
        events.push(readEvent(c.sub()));
        break;
      case -12:
        out['droppedEventsCount'] = small(c);
        break;
      case 13:
        links.push(readLink(c.sub()));
        break;
      case -14:
        out['droppedLinksCount'] = small(c);
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
  out['events'] = events;
  out['links'] = links;
  return out;
}

function readEvent(c: WireReader): Json {
  const out: Json = {};
  const attributes: Json[] = [];
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === I64) out['timeUnixNano'] = c.fixed64().toString();
    else if (field === 2 && wire === LEN) out['name'] = c.string();
    else if (field === 3 && wire === LEN) attributes.push(readKeyValue(c.sub(), 0));
    else if (field === 4 && wire === VARINT) out['droppedAttributesCount'] = small(c);
    else c.skip(wire);
  }
  out['attributes'] = attributes;
  return out;
}

function readLink(c: WireReader): Json {
  const out: Json = {};
  const attributes: Json[] = [];
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) out['traceId'] = bytesOf(c).toString('hex');
    else if (field === 2 && wire === LEN) out['spanId'] = bytesOf(c).toString('hex');
    else if (field === 3 && wire === LEN) out['traceState'] = c.string();
    else if (field === 4 && wire === LEN) attributes.push(readKeyValue(c.sub(), 0));
    else if (field === 5 && wire === VARINT) out['droppedAttributesCount'] = small(c);
    else if (field === 6 && wire === WIRE_I32) out['flags'] = c.fixed32();
    else c.skip(wire);
  }
  out['attributes'] = attributes;
  return out;
}

function readStatus(c: WireReader): Json {
  const out: Json = {};
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 2 && wire === LEN) out['message'] = c.string();
    else if (field === 3 && wire === VARINT) out['code'] = small(c);
    else c.skip(wire);
  }
  return out;
}

function readKeyValue(c: WireReader, depth: number): Json {
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

function readAnyValue(c: WireReader, depth: number): Json {
  if (depth > MAX_DEPTH) throw new ProtoWireError(`attribute values nested deeper than ${MAX_DEPTH}`);
  let value: Json = {};
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) value = { stringValue: c.string() };
    else if (field === 2 && wire === VARINT) value = { boolValue: c.varint64() !== 0n };
    else if (field === 3 && wire === VARINT) value = { intValue: BigInt.asIntN(64, c.varint64()).toString() };
    else if (field === 4 && wire === I64) value = { doubleValue: jsonDouble(c.double()) };
    else if (field === 5 && wire === LEN)
      value = { arrayValue: { values: readValues(c.sub(), depth, false) } };
    else if (field === 6 && wire === LEN)
      value = { kvlistValue: { values: readValues(c.sub(), depth, true) } };
    else if (field === 7 && wire === LEN) value = { bytesValue: bytesOf(c).toString('base64') };
    else c.skip(wire);
  }
  return value;
}

function readValues(c: WireReader, depth: number, keyed: boolean): Json[] {
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
