/**
 * decodeOtlpJsonSpan — one OTLP/JSON span read from its bytes into the record builder's span view.
 *
 * The fast path finds each routing span's bytes (skipToRoutingSpans); JSON.parse of them built ~150 objects per
 * span (every attribute a key/value pair around a one-key wrapper) only for readOtlpJson to unwrap them again,
 * and was a quarter of `analyze` on the bench. Here the span's tokens are found by the WebAssembly tape
 * (loadJsonTape) and its fields read where they lie, each attribute straight into the map, the rest stepped
 * over (tapeCursor). The answer is exactly readOtlpJson's for the same bytes parsed; what this decoder was not
 * written for (a field of an unexpected type, a value kind it does not unwrap, a string read differently) is
 * declined (undefined) and the caller parses the span as before, which also reports what JSON.parse refuses.
 * The tests hold it to that on generated spans (a law). Pure.
 */
import type { AttributeValue, EventView, MutableAttributeMap, SpanView } from '../internal-types.js';
import { unixNanosToMs } from '../normalizeSpanFields.js';
import { FIELD } from './knownNames.js';
import { loadJsonTape } from './loadJsonTape.js';
import { decline, isDeclined, type TapeCursor } from './tapeCursor.js';

/** The span whose bytes are `body[start, end)`, as readOtlpJson views it; undefined when declined. */
export function decodeOtlpJsonSpan(body: Buffer, start: number, end: number): SpanView | undefined {
  const reader = loadJsonTape();
  if (reader.kind !== 'tape') return undefined;
  const cursor = reader.readTape(body, start, end);
  if (cursor === undefined) return undefined;
  try {
    const span = readSpan(cursor);
    cursor.expectEnd();
    return span;
  } catch (thrown) {
    if (isDeclined(thrown)) return undefined;
    throw thrown;
  }
}

function readSpan(c: TapeCursor): SpanView {
  let traceId: string | undefined;
  let spanId: string | undefined;
  let parentSpanId: string | undefined;
  let name = '';
  let startTime: string | number | undefined;
  let error = false;
  let attributes: MutableAttributeMap = new Map();
  let events: EventView[] = [];
  if (c.openObject())
    do {
      // Keys are plain text on a tape (no escapes), so a field is known by its number or is another one.
      switch (c.readKeyNumber()) {
        case FIELD.traceId:
          traceId = c.readString();
          break;
        case FIELD.spanId:
          spanId = c.readString();
          break;
        case FIELD.parentSpanId:
          parentSpanId = c.readString();
          break;
        case FIELD.name:
          name = c.readString();
          break;
        case FIELD.startTimeUnixNano:
          startTime = readTime(c);
          break;
        case FIELD.status:
          error = readErrorStatus(c);
          break;
        case FIELD.attributes:
          attributes = readAttributes(c);
          break;
        case FIELD.events:
          events = readEvents(c);
          break;
        default:
          c.skipValue();
      }
    } while (c.nextMember());
  return {
    traceId,
    spanId,
    parentSpanId,
    name,
    timeUnixMs: unixNanosToMs(startTime) ?? 0,
    error,
    attributes,
    events,
  };
}

/** A time in nanoseconds as the writer spelled it (a decimal string or a number). */
function readTime(c: TapeCursor): string | number {
  const kind = c.valueStart();
  return kind === 'string' ? c.readString() : kind === 'number' ? c.readNumber() : decline();
}

/** Is the status an error (code 2, however spelled)? */
function readErrorStatus(c: TapeCursor): boolean {
  let code: string | number | undefined;
  if (c.openObject())
    do {
      const field = c.readKeyNumber();
      if (field !== FIELD.code) {
        c.skipValue();
        continue;
      }
      const kind = c.valueStart();
      code = kind === 'string' ? c.readString() : kind === 'number' ? c.readNumber() : decline();
    } while (c.nextMember());
  return code === 2 || code === 'STATUS_CODE_ERROR' || code === '2';
}

/** An attribute list, each `{key, value}` straight into the map (later keys win, as flattenOtlpAttributes). */
function readAttributes(c: TapeCursor): MutableAttributeMap {
  const into: MutableAttributeMap = new Map();
  if (c.openArray())
    do {
      let key: string | undefined;
      let value: AttributeValue = null;
      if (c.openObject())
        do {
          const field = c.readKeyNumber();
          if (field === FIELD.key) key = c.readName();
          else if (field === FIELD.value) value = readAnyValue(c);
          else c.skipValue();
        } while (c.nextMember());
      if (key === undefined) decline();
      into.set(key, value);
    } while (c.nextItem());
  return into;
}

/** One OTLP AnyValue, unwrapped as unwrapOtlpValue does for the kinds writers send; others declined. */
function readAnyValue(c: TapeCursor): AttributeValue {
  // `{}` is how protobuf JSON writes an unset value: null, as unwrapOtlpValue reads it.
  if (!c.openObject()) return null;
  let value: AttributeValue;
  switch (c.readKeyNumber()) {
    case FIELD.stringValue:
      value = c.readString();
      break;
    case FIELD.doubleValue:
      value = c.valueStart() === 'number' ? c.readNumber() : decline();
      break;
    case FIELD.boolValue: {
      const literal = c.valueStart() === 'literal' ? c.readLiteral() : null;
      value = literal === null ? decline() : literal;
      break;
    }
    case FIELD.intValue:
      value = readIntValue(c);
      break;
    case FIELD.arrayValue:
      value = readArrayValue(c);
      break;
    default:
      return decline();
  }
  // A second kind in one value is read by unwrapOtlpValue's full checks: declined.
  if (c.nextMember()) decline();
  return value;
}

/** An intValue: a number, or a decimal string read as Number reads it (blank or not a number: null). */
function readIntValue(c: TapeCursor): number | null {
  const kind = c.valueStart();
  if (kind === 'number') return c.readNumber();
  if (kind !== 'string') return decline();
  const text = c.readTransientString();
  if (text.trim() === '') return null;
  const n = Number(text);
  return Number.isNaN(n) ? null : n;
}

/** An arrayValue's `values`, each unwrapped; a missing list is empty. */
function readArrayValue(c: TapeCursor): AttributeValue[] {
  let values: AttributeValue[] = [];
  if (c.openObject())
    do {
      const field = c.readKeyNumber();
      if (field !== FIELD.values) {
        c.skipValue();
        continue;
      }
      const list: AttributeValue[] = [];
      if (c.openArray())
        do {
          if (c.valueStart() !== 'object') decline();
          list.push(readAnyValue(c));
        } while (c.nextItem());
      values = list;
    } while (c.nextMember());
  return values;
}

/** A span's events, each with its name, time and attributes. */
function readEvents(c: TapeCursor): EventView[] {
  const events: EventView[] = [];
  if (c.openArray())
    do {
      let name = '';
      let time: string | number | undefined;
      let attributes: MutableAttributeMap = new Map();
      if (c.openObject())
        do {
          const field = c.readKeyNumber();
          if (field === FIELD.name) name = c.readString();
          else if (field === FIELD.timeUnixNano) time = readTime(c);
          else if (field === FIELD.attributes) attributes = readAttributes(c);
          else c.skipValue();
        } while (c.nextMember());
      events.push({ name, timeUnixMs: unixNanosToMs(time), attributes });
    } while (c.nextItem());
  return events;
}
