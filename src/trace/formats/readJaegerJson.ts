/**
 * readJaegerJson — the spans of one Jaeger v1 JSON trace (query API `/api/traces`, UI "Download JSON").
 *
 * Jaeger keeps what OTLP puts in the resource in `processes` (service name, tags), types every tag
 * (string/int64/float64/bool/binary), stores array attributes as JSON text in string tags (the decoder reads
 * that), span events as logs whose `event` field is the name, and the status as `otel.status_code` or
 * `error=true`. Ids are often short and unpadded; the builder pads them. Input is `unknown`, narrowed here.
 * No I/O.
 */
import type { AttributeValue } from '../internal-types.js';
import { isRoutingCandidate, type TraceRecordBuilder } from '../buildTraceRecords.js';
import type { EventView, MutableAttributeMap, ResourceView } from '../internal-types.js';
import { normalizeId, unixMicrosToMs } from '../normalizeSpanFields.js';
import type { RecordSource, TraceRecord } from '../../record/types.js';
import { asObject, asArray, ownField, type JsonObject } from './narrowJson.js';

/** One typed Jaeger tag value as a plain attribute value. */
function tagValue(type: unknown, value: unknown): AttributeValue {
  switch (type) {
    case 'bool':
    case 'BOOL':
      return value === true || value === 'true';
    case 'int64':
    case 'INT64':
    case 'float64':
    case 'FLOAT64':
      if (typeof value === 'number' || typeof value === 'string') return value;
      return null;
    default:
      // string, binary (base64 text) and anything newer: keep text as text.
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
      return null;
  }
}

function flattenTags(list: unknown, into: MutableAttributeMap = new Map()): MutableAttributeMap {
  for (const tagRaw of asArray(list)) {
    const tag = asObject(tagRaw);
    if (tag === undefined) continue;
    const key = ownField(tag, 'key');
    if (typeof key !== 'string') continue;
    into.set(key, tagValue(ownField(tag, 'type'), ownField(tag, 'value')));
  }
  return into;
}

function hasTag(list: unknown, key: string): boolean {
  for (const tagRaw of asArray(list)) {
    const tag = asObject(tagRaw);
    if (tag !== undefined && ownField(tag, 'key') === key) return true;
  }
  return false;
}

function logEventName(log: JsonObject): string | undefined {
  for (const fieldRaw of asArray(ownField(log, 'fields'))) {
    const field = asObject(fieldRaw);
    if (field !== undefined && ownField(field, 'key') === 'event') {
      const v = ownField(field, 'value');
      return typeof v === 'string' ? v : undefined;
    }
  }
  return undefined;
}

function readProcess(process: JsonObject | undefined): ResourceView {
  if (process === undefined) return { service: undefined, attributes: new Map() };
  const serviceName = ownField(process, 'serviceName');
  return {
    service: typeof serviceName === 'string' ? serviceName : undefined,
    attributes: flattenTags(ownField(process, 'tags')),
  };
}

/** The parent: a CHILD_OF reference inside the same trace first (as Jaeger's own converter picks it). */
function parentOf(span: JsonObject, traceId: unknown): unknown {
  let childOf: unknown;
  let any: unknown;
  for (const refRaw of asArray(ownField(span, 'references'))) {
    const ref = asObject(refRaw);
    if (ref === undefined) continue;
    const id = ownField(ref, 'spanID');
    if (ownField(ref, 'refType') === 'CHILD_OF') {
      if (sameId(ownField(ref, 'traceID'), traceId)) return id;
      childOf ??= id;
    }
    any ??= id;
  }
  // Older exports carry the parent directly.
  return childOf ?? any ?? ownField(span, 'parentSpanID');
}

function sameId(a: unknown, b: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' && normalizeId(a, 16) === normalizeId(b, 16);
}

/** Is this JSON object a Jaeger v1 trace (spans with operation names, processes beside them)? */
export function isJaegerTrace(obj: JsonObject): boolean {
  return (
    Array.isArray(ownField(obj, 'spans')) &&
    (Object.hasOwn(obj, 'processes') || Object.hasOwn(obj, 'traceID'))
  );
}

/** Read one Jaeger v1 trace object, pushing records to `out`. */
export function readJaegerTrace(
  trace: JsonObject,
  source: RecordSource,
  builder: TraceRecordBuilder,
  out: TraceRecord[],
): void {
  const processes = asObject(ownField(trace, 'processes'));
  const resources = new Map<string, ResourceView>();
  let plain = 0;
  for (const spanRaw of asArray(ownField(trace, 'spans'))) {
    const span = asObject(spanRaw);
    if (span === undefined) {
      plain++;
      continue;
    }
    const name = ownField(span, 'operationName');
    const tags = ownField(span, 'tags');
    const logs = ownField(span, 'logs');
    const candidate = isRoutingCandidate(
      typeof name === 'string' ? name : '',
      (key) => hasTag(tags, key),
      (eventName) =>
        asArray(logs).some((l) => asObject(l) !== undefined && logEventName(l as JsonObject) === eventName),
    );
    if (!candidate) {
      plain++;
      continue;
    }
    const processId = ownField(span, 'processID');
    let resource: ResourceView;
    const inline = asObject(ownField(span, 'process'));
    if (inline !== undefined) resource = readProcess(inline);
    else {
      const key = typeof processId === 'string' ? processId : '';
      const cached = resources.get(key);
      resource =
        cached ??
        readProcess(processes === undefined || key === '' ? undefined : asObject(ownField(processes, key)));
      resources.set(key, resource);
    }
    const attributes = flattenTags(tags);
    const events: EventView[] = [];
    for (const logRaw of asArray(logs)) {
      const log = asObject(logRaw);
      if (log === undefined) continue;
      const fields = flattenTags(ownField(log, 'fields'));
      const eventName = fields.get('event');
      fields.delete('event');
      events.push({
        name: typeof eventName === 'string' ? eventName : '',
        timeUnixMs: unixMicrosToMs(ownField(log, 'timestamp')),
        attributes: fields,
      });
    }
    const status = attributes.get('otel.status_code');
    const errorTag = attributes.get('error');
    const traceId = ownField(span, 'traceID') ?? ownField(trace, 'traceID');
    builder.addSpan(
      {
        traceId,
        spanId: ownField(span, 'spanID'),
        parentSpanId: parentOf(span, traceId),
        name: typeof name === 'string' ? name : '',
        timeUnixMs: unixMicrosToMs(ownField(span, 'startTime')) ?? 0,
        error: status === 'ERROR' || errorTag === true || errorTag === 'true',
        attributes,
        events,
      },
      resource,
      source,
      out,
    );
  }
  if (plain > 0) builder.countPlainSpans(plain);
}
