/**
 * otlpProtoToJson — one protobuf `ExportTraceServiceRequest` as the OTLP/JSON text of the same request.
 *
 * `serve --out` writes what arrived as OTLP/JSON lines whatever the exporter sent, so every command reads the
 * file later; a protobuf body is converted here, field for field, not only the fields a routing record needs
 * (decodeOtlpProto reads those): resource, scope, every span field, events, links, status, dropped counts and
 * schema URLs. The JSON follows the OTLP/JSON encoding: trace and span ids as hex, enums as numbers, 64-bit
 * integers (times, `intValue`) as decimal strings, exact through BigInt, bytes as base64. Unknown fields are
 * skipped by wire type; a field given twice keeps its last value, as a protobuf reader does.
 *
 * The text is written straight from the wire, never through an object per field, and it is bounded: a few bytes
 * of protobuf can ask for many times their size in JSON (an empty span is 2 bytes), so past `maxChars` the
 * writer stops with OutFormTooLarge. It pauses (yields) after each span, so a caller can give the event loop back
 * between slices. The wire itself is read by protoWire, the one cursor decodeOtlpProto reads with too.
 * Malformed bytes throw `ProtoWireError`. No I/O.
 */
import { ProtoWireError, WIRE_I32, WIRE_I64, WIRE_LEN, WIRE_VARINT, WireReader } from './protoWire.js';

const VARINT = WIRE_VARINT;
const I64 = WIRE_I64;
const LEN = WIRE_LEN;
const MAX_DEPTH = 32;

/** The JSON text would pass the limit it was written under. */
export class OutFormTooLarge extends Error {
  override readonly name = 'OutFormTooLarge';
  constructor(readonly maxChars: number) {
    super(`its OTLP/JSON form is over ${maxChars} characters`);
  }
}

/** The text written so far, and the limit it may not pass. */
class Text {
  readonly parts: string[] = [];
  length = 0;
  constructor(readonly maxChars: number) {}
  add(s: string): void {
    this.length += s.length;
    if (this.length > this.maxChars) throw new OutFormTooLarge(this.maxChars);
    this.parts.push(s);
  }
}

/**
 * Write the request as one line of OTLP/JSON text (no newline), at most `maxChars` long; yields after each span.
 * Throws ProtoWireError when the bytes are not a request, OutFormTooLarge past the limit.
 */
export function* writeOtlpJson(
  bytes: Uint8Array,
  maxChars: number = Infinity,
): Generator<void, string, void> {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const c = new WireReader(buf, 0, buf.length);
  const out = new Text(maxChars);
  out.add('{"resourceSpans":[');
  yield* writeEach(c, 1, out, writeResourceSpans);
  out.add(']}');
  return out.parts.join('');
}

/** The request as the OTLP/JSON object (all at once, no limit): what `writeOtlpJson` writes, parsed. */
export function otlpProtoToJson(bytes: Uint8Array): Record<string, unknown> {
  const writing = writeOtlpJson(bytes);
  for (;;) {
    const step = writing.next();
    if (step.done === true) return JSON.parse(step.value) as Record<string, unknown>;
  }
}

/**
 * Fields of one message: scalars by name (the last one given wins) and repeated ones in order, their text
 * counted against `limit` as they come, so no message grows past it unseen.
 */
class Fields {
  private readonly scalars = new Map<string, string>();
  private readonly lists = new Map<string, string[]>();
  private size = 2;
  constructor(private readonly limit: number) {}
  private count(chars: number): void {
    this.size += chars;
    if (this.size > this.limit) throw new OutFormTooLarge(this.limit);
  }
  set(name: string, json: string): void {
    this.count(name.length + json.length + 4);
    this.scalars.set(name, json);
  }
  push(name: string, json: string): void {
    this.count(json.length + 1);
    let list = this.lists.get(name);
    if (list === undefined) this.lists.set(name, (list = []));
    list.push(json);
  }
  /** `{…}` with the scalars, then the lists named in `always` (empty ones too) and any other list given. */
  write(out: Text, always: readonly string[] = []): void {
    out.add(this.text(always));
  }
  text(always: readonly string[] = []): string {
    const members: string[] = [];
    for (const [name, json] of this.scalars) members.push(`"${name}":${json}`);
    for (const name of always) members.push(`"${name}":[${(this.lists.get(name) ?? []).join(',')}]`);
    for (const [name, list] of this.lists)
      if (!always.includes(name)) members.push(`"${name}":[${list.join(',')}]`);
    return `{${members.join(',')}}`;
  }
}

/** A length-delimited field's bytes, as a view. */
function bytesOf(c: WireReader): Buffer {
  const [s, e] = c.bytes();
  return c.buf.subarray(s, e);
}

/** A varint field that holds a 32-bit count or enum. */
function small(c: WireReader): string {
  return String(Number(BigInt.asUintN(32, c.varint64())));
}

function str(c: WireReader): string {
  return JSON.stringify(c.string());
}

/** Every field-`n` sub-message of `c` through `write`, commas between (the caller writes the brackets). */
function* writeEach(
  c: WireReader,
  n: number,
  out: Text,
  write: (sub: WireReader, out: Text) => Generator<void, void, void>,
): Generator<void, void, void> {
  let first = true;
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field !== n || wire !== LEN) {
      c.skip(wire);
      continue;
    }
    if (!first) out.add(',');
    first = false;
    yield* write(c.sub(), out);
  }
}

function* writeResourceSpans(c: WireReader, out: Text): Generator<void, void, void> {
  // The resource and schema URL may come after the scope spans on the wire: written first, so the scope spans
  // (the large part) are written as they are read.
  const start = c.pos;
  let resource: string | undefined;
  let schemaUrl: string | undefined;
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) resource = resourceText(c.sub(), out.maxChars);
    else if (field === 3 && wire === LEN) schemaUrl = str(c);
    else c.skip(wire);
  }
  out.add('{');
  if (resource !== undefined) out.add(`"resource":${resource},`);
  if (schemaUrl !== undefined) out.add(`"schemaUrl":${schemaUrl},`);
  out.add('"scopeSpans":[');
  c.pos = start;
  yield* writeEach(c, 2, out, writeScopeSpans);
  out.add(']}');
}

function resourceText(c: WireReader, maxChars: number): string {
  const f = new Fields(maxChars);
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) f.push('attributes', keyValueText(c.sub(), 0, maxChars));
    else if (field === 2 && wire === VARINT) f.set('droppedAttributesCount', small(c));
    else c.skip(wire);
  }
  return f.text(['attributes']);
}

function* writeScopeSpans(c: WireReader, out: Text): Generator<void, void, void> {
  const start = c.pos;
  let scope: string | undefined;
  let schemaUrl: string | undefined;
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) scope = scopeText(c.sub(), out.maxChars);
    else if (field === 3 && wire === LEN) schemaUrl = str(c);
    else c.skip(wire);
  }
  out.add('{');
  if (scope !== undefined) out.add(`"scope":${scope},`);
  if (schemaUrl !== undefined) out.add(`"schemaUrl":${schemaUrl},`);
  out.add('"spans":[');
  c.pos = start;
  yield* writeEach(c, 2, out, function* (span, o) {
    writeSpan(span, o);
    yield;
  });
  out.add(']}');
}

function scopeText(c: WireReader, maxChars: number): string {
  const f = new Fields(maxChars);
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) f.set('name', str(c));
    else if (field === 2 && wire === LEN) f.set('version', str(c));
    else if (field === 3 && wire === LEN) f.push('attributes', keyValueText(c.sub(), 0, maxChars));
    else if (field === 4 && wire === VARINT) f.set('droppedAttributesCount', small(c));
    else c.skip(wire);
  }
  return f.text();
}

function writeSpan(c: WireReader, out: Text): void {
  const limit = out.maxChars;
  const f = new Fields(limit - out.length);
  const item = (name: string, json: string): void => f.push(name, json);
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
        f.set('traceId', `"${bytesOf(c).toString('hex')}"`);
        break;
      case 2:
        f.set('spanId', `"${bytesOf(c).toString('hex')}"`);
        break;
      case 3:
        f.set('traceState', str(c));
        break;
      case 4: {
        const parent = bytesOf(c);
        if (parent.length > 0) f.set('parentSpanId', `"${parent.toString('hex')}"`);
        break;
      }
      case 5:
        f.set('name', str(c));
        break;
      case -6:
        f.set('kind', small(c));
        break;
      case 107:
        f.set('startTimeUnixNano', `"${c.fixed64().toString()}"`);
        break;
      case 108:
        f.set('endTimeUnixNano', `"${c.fixed64().toString()}"`);
        break;
      case 9:
        item('attributes', keyValueText(c.sub(), 0, limit));
        break;
      case -10:
        f.set('droppedAttributesCount', small(c));
        break;
      case 11:
        item('events', eventText(c.sub(), limit));
        break;
      case -12:
        f.set('droppedEventsCount', small(c));
        break;
      case 13:
        item('links', linkText(c.sub(), limit));
        break;
      case -14:
        f.set('droppedLinksCount', small(c));
        break;
      case 15:
        f.set('status', statusText(c.sub()));
        break;
      case 216:
        f.set('flags', String(c.fixed32()));
        break;
      default:
        c.skip(wire);
    }
  }
  f.write(out, ['attributes', 'events', 'links']);
}

function eventText(c: WireReader, limit: number): string {
  const f = new Fields(limit);
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === I64) f.set('timeUnixNano', `"${c.fixed64().toString()}"`);
    else if (field === 2 && wire === LEN) f.set('name', str(c));
    else if (field === 3 && wire === LEN) f.push('attributes', keyValueText(c.sub(), 0, limit));
    else if (field === 4 && wire === VARINT) f.set('droppedAttributesCount', small(c));
    else c.skip(wire);
  }
  return f.text(['attributes']);
}

function linkText(c: WireReader, limit: number): string {
  const f = new Fields(limit);
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) f.set('traceId', `"${bytesOf(c).toString('hex')}"`);
    else if (field === 2 && wire === LEN) f.set('spanId', `"${bytesOf(c).toString('hex')}"`);
    else if (field === 3 && wire === LEN) f.set('traceState', str(c));
    else if (field === 4 && wire === LEN) f.push('attributes', keyValueText(c.sub(), 0, limit));
    else if (field === 5 && wire === VARINT) f.set('droppedAttributesCount', small(c));
    else if (field === 6 && wire === WIRE_I32) f.set('flags', String(c.fixed32()));
    else c.skip(wire);
  }
  return f.text(['attributes']);
}

function statusText(c: WireReader): string {
  const f = new Fields(Infinity);
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 2 && wire === LEN) f.set('message', str(c));
    else if (field === 3 && wire === VARINT) f.set('code', small(c));
    else c.skip(wire);
  }
  return f.text();
}

function keyValueText(c: WireReader, depth: number, limit: number): string {
  let key = '""';
  let value = '{}';
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) key = str(c);
    else if (field === 2 && wire === LEN) value = anyValueText(c.sub(), depth + 1, limit);
    else c.skip(wire);
  }
  return `{"key":${key},"value":${value}}`;
}

function anyValueText(c: WireReader, depth: number, limit: number): string {
  if (depth > MAX_DEPTH) throw new ProtoWireError(`attribute values nested deeper than ${MAX_DEPTH}`);
  let value = '{}';
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) value = `{"stringValue":${str(c)}}`;
    else if (field === 2 && wire === VARINT) value = `{"boolValue":${c.varint64() !== 0n}}`;
    else if (field === 3 && wire === VARINT)
      value = `{"intValue":"${BigInt.asIntN(64, c.varint64()).toString()}"}`;
    else if (field === 4 && wire === I64) value = `{"doubleValue":${jsonDouble(c.double())}}`;
    else if (field === 5 && wire === LEN)
      value = `{"arrayValue":{"values":[${valuesText(c.sub(), depth, false, limit)}]}}`;
    else if (field === 6 && wire === LEN)
      value = `{"kvlistValue":{"values":[${valuesText(c.sub(), depth, true, limit)}]}}`;
    else if (field === 7 && wire === LEN) value = `{"bytesValue":"${bytesOf(c).toString('base64')}"}`;
    else c.skip(wire);
  }
  return value;
}

function valuesText(c: WireReader, depth: number, keyed: boolean, limit: number): string {
  const values: string[] = [];
  let size = 0;
  while (!c.done) {
    const [field, wire] = c.tag();
    if (field === 1 && wire === LEN) {
      const json = keyed ? keyValueText(c.sub(), depth + 1, limit) : anyValueText(c.sub(), depth + 1, limit);
      size += json.length + 1;
      if (size > limit) throw new OutFormTooLarge(limit);
      values.push(json);
    } else c.skip(wire);
  }
  return values.join(',');
}

/** The proto3 JSON form of a double: a number, or the strings JSON has for what it cannot write. */
function jsonDouble(x: number): string {
  if (Number.isNaN(x)) return '"NaN"';
  if (x === Infinity) return '"Infinity"';
  if (x === -Infinity) return '"-Infinity"';
  return JSON.stringify(x);
}
