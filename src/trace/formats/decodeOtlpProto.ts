/**
 * decodeOtlpProto — read the spans of one protobuf `ExportTraceServiceRequest` (the file exporter's `proto`).
 *
 * A hand-rolled wire-format reader for just the fields a routing record needs, so the analyzer carries no
 * generated protobuf code: request.resource_spans(1) → resource(1).attributes(1), scope_spans(2) → spans(2) →
 * trace_id(1) span_id(2) parent_span_id(4) name(5) start_time_unix_nano(7) attributes(9) events(11) status(15).code(3);
 * KeyValue key(1) value(2); AnyValue string(1) bool(2) int(3) double(4) array(5) kvlist(6) bytes(7). Unknown
 * fields are skipped by wire type; fields may come in any order. Any overrun throws `ProtoWireError`, which
 * the caller reports as a bad record. 64-bit integers become JS numbers (exact up to 2^53).
 * No I/O.
 */
import type { AttributeValue } from '../internal-types.js';
import { isRoutingCandidate, type TraceRecordBuilder } from '../buildTraceRecords.js';
import type { EventView, MutableAttributeMap, ResourceView } from '../internal-types.js';
import type { RecordSource, TraceRecord } from '../../record/types.js';
import { ProtoWireError, WIRE_I64, WIRE_LEN, WIRE_VARINT, WireReader } from './protoWire.js';

export { ProtoWireError } from './protoWire.js';

const MAX_NESTING = 32;

function expectWire(actual: number, expected: number, what: string): void {
  if (actual !== expected) throw new ProtoWireError(`${what} has wire type ${actual}, expected ${expected}`);
}

function readAnyValue(r: WireReader, depth: number): AttributeValue {
  if (depth > MAX_NESTING) throw new ProtoWireError('attribute values nested too deeply');
  let value: AttributeValue = null;
  while (!r.done) {
    const [field, wire] = r.tag();
    if (field === 1 && wire === WIRE_LEN) value = r.string();
    else if (field === 2 && wire === WIRE_VARINT) value = r.varint() !== 0;
    else if (field === 3 && wire === WIRE_VARINT) value = r.int64();
    else if (field === 4 && wire === WIRE_I64) value = r.double();
    else if (field === 5 && wire === WIRE_LEN) {
      const arr = r.sub();
      const items: AttributeValue[] = [];
      while (!arr.done) {
        const [f, w] = arr.tag();
        if (f === 1 && w === WIRE_LEN) items.push(readAnyValue(arr.sub(), depth + 1));
        else arr.skip(w);
      }
      value = items;
    } else if (field === 7 && wire === WIRE_LEN) {
      const [s, e] = r.bytes();
      value = r.buf.toString('base64', s, e);
    } else {
      // kvlist (6) is not used by routing attributes: kept as null, like the JSON reader does.
      r.skip(wire);
      if (field === 6) value = null;
    }
  }
  return value;
}

function readKeyValue(r: WireReader, into: MutableAttributeMap): void {
  let key: string | undefined;
  let value: AttributeValue = null;
  while (!r.done) {
    const [field, wire] = r.tag();
    if (field === 1 && wire === WIRE_LEN) key = r.string();
    else if (field === 2 && wire === WIRE_LEN) value = readAnyValue(r.sub(), 0);
    else r.skip(wire);
  }
  if (key !== undefined) into.set(key, value);
}

function readResource(r: WireReader): ResourceView {
  const attributes: MutableAttributeMap = new Map();
  while (!r.done) {
    const [field, wire] = r.tag();
    if (field === 1 && wire === WIRE_LEN) readKeyValue(r.sub(), attributes);
    else r.skip(wire);
  }
  const service = attributes.get('service.name');
  return { service: typeof service === 'string' ? service : undefined, attributes };
}

function readEvent(r: WireReader): EventView {
  let name = '';
  let timeUnixMs: number | undefined;
  const attributes: MutableAttributeMap = new Map();
  while (!r.done) {
    const [field, wire] = r.tag();
    if (field === 1 && wire === WIRE_I64) timeUnixMs = r.unixNanosAsMs();
    else if (field === 2 && wire === WIRE_LEN) name = r.string();
    else if (field === 3 && wire === WIRE_LEN) readKeyValue(r.sub(), attributes);
    else r.skip(wire);
  }
  return { name, timeUnixMs, attributes };
}

function readStatusIsError(r: WireReader): boolean {
  let code = 0;
  while (!r.done) {
    const [field, wire] = r.tag();
    if (field === 3 && wire === WIRE_VARINT) code = r.varint();
    else r.skip(wire);
  }
  return code === 2;
}

interface ProtoSpan {
  traceId: string | undefined;
  spanId: string | undefined;
  parentSpanId: string | undefined;
  name: string;
  timeUnixMs: number;
  error: boolean;
  attributes: MutableAttributeMap;
  events: EventView[];
}

function readSpan(r: WireReader): ProtoSpan {
  const span: ProtoSpan = {
    traceId: undefined,
    spanId: undefined,
    parentSpanId: undefined,
    name: '',
    timeUnixMs: 0,
    error: false,
    attributes: new Map(),
    events: [],
  };
  while (!r.done) {
    const [field, wire] = r.tag();
    switch (field) {
      case 1:
      case 2:
      case 4: {
        expectWire(wire, WIRE_LEN, 'a span id');
        const [s, e] = r.bytes();
        const hex = r.buf.toString('hex', s, e);
        if (field === 1) span.traceId = hex;
        else if (field === 2) span.spanId = hex;
        else span.parentSpanId = hex === '' ? undefined : hex;
        break;
      }
      case 5:
        expectWire(wire, WIRE_LEN, 'span name');
        span.name = r.string();
        break;
      case 7:
        expectWire(wire, WIRE_I64, 'span start time');
        span.timeUnixMs = r.unixNanosAsMs();
        break;
      case 9:
        expectWire(wire, WIRE_LEN, 'a span attribute');
        readKeyValue(r.sub(), span.attributes);
        break;
      case 11:
        expectWire(wire, WIRE_LEN, 'a span event');
        span.events.push(readEvent(r.sub()));
        break;
      case 15:
        expectWire(wire, WIRE_LEN, 'span status');
        span.error = readStatusIsError(r.sub());
        break;
      default:
        r.skip(wire);
    }
  }
  return span;
}

/** Spans read between two pauses of decodeOtlpProtoSteps. */
const SPANS_PER_STEP = 256;

function* readScopeSpans(
  r: WireReader,
  resource: () => ResourceView,
  source: RecordSource,
  builder: TraceRecordBuilder,
  out: TraceRecord[],
): Generator<void, void, void> {
  let plain = 0;
  let read = 0;
  while (!r.done) {
    const [field, wire] = r.tag();
    if (field !== 2 || wire !== WIRE_LEN) {
      r.skip(wire);
      continue;
    }
    if (++read % SPANS_PER_STEP === 0) yield;
    const span = readSpan(r.sub());
    const candidate = isRoutingCandidate(
      span.name,
      (key) => span.attributes.has(key),
      (name) => span.events.some((e) => e.name === name),
    );
    if (!candidate) plain++;
    else builder.addSpan(span, resource(), source, out);
  }
  if (plain > 0) builder.countPlainSpans(plain);
}

function* readResourceSpans(
  r: WireReader,
  source: RecordSource,
  builder: TraceRecordBuilder,
  out: TraceRecord[],
): Generator<void, void, void> {
  // The resource may follow its scope spans on the wire: find it first, then read the spans.
  let resourceAt: [number, number] | undefined;
  const scopes: Array<[number, number]> = [];
  while (!r.done) {
    const [field, wire] = r.tag();
    if (field === 1 && wire === WIRE_LEN) resourceAt = r.bytes();
    else if (field === 2 && wire === WIRE_LEN) scopes.push(r.bytes());
    else r.skip(wire);
  }
  let resource: ResourceView | undefined;
  const getResource = (): ResourceView =>
    (resource ??=
      resourceAt === undefined
        ? { service: undefined, attributes: new Map() }
        : readResource(new WireReader(r.buf, resourceAt[0], resourceAt[1])));
  for (const [s, e] of scopes)
    yield* readScopeSpans(new WireReader(r.buf, s, e), getResource, source, builder, out);
}

/**
 * Read one serialized ExportTraceServiceRequest as decodeOtlpProtoRequest does, pausing (yielding) every few
 * hundred spans, so a caller can give its event loop back between steps (serve does). Throws ProtoWireError if
 * malformed.
 */
export function* decodeOtlpProtoSteps(
  bytes: Uint8Array,
  source: RecordSource,
  builder: TraceRecordBuilder,
  out: TraceRecord[],
): Generator<void, void, void> {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const r = new WireReader(buf, 0, buf.length);
  while (!r.done) {
    const [field, wire] = r.tag();
    if (field === 1 && wire === WIRE_LEN) yield* readResourceSpans(r.sub(), source, builder, out);
    else r.skip(wire);
  }
}

/** Read one serialized ExportTraceServiceRequest, pushing records to `out`; throws ProtoWireError if malformed. */
export function decodeOtlpProtoRequest(
  bytes: Uint8Array,
  source: RecordSource,
  builder: TraceRecordBuilder,
  out: TraceRecord[],
): void {
  const steps = decodeOtlpProtoSteps(bytes, source, builder, out);
  while (steps.next().done !== true);
}

/**
 * Count the spans of one serialized request without decoding them (for records that cannot hold a routing
 * span); throws ProtoWireError if the nesting is malformed. Past `atMost` it stops and answers `atMost + 1`.
 */
export function countOtlpProtoSpans(bytes: Uint8Array, atMost: number = Infinity): number {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const request = new WireReader(buf, 0, buf.length);
  let count = 0;
  while (!request.done) {
    const [field, wire] = request.tag();
    if (field !== 1 || wire !== WIRE_LEN) {
      request.skip(wire);
      continue;
    }
    const resourceSpans = request.sub();
    while (!resourceSpans.done) {
      const [f, w] = resourceSpans.tag();
      if (f !== 2 || w !== WIRE_LEN) {
        resourceSpans.skip(w);
        continue;
      }
      const scopeSpans = resourceSpans.sub();
      while (!scopeSpans.done) {
        const [sf, sw] = scopeSpans.tag();
        if (sf === 2 && sw === WIRE_LEN && ++count > atMost) return count;
        scopeSpans.skip(sw);
      }
    }
  }
  return count;
}
