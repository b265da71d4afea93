/**
 * readOtlpJson — the spans of one parsed OTLP/JSON export request (`{resourceSpans:[…]}`).
 *
 * Input is `unknown` from JSON.parse and is narrowed here field by field; unknown fields are ignored, a
 * missing or mistyped container is skipped rather than guessed. Only spans that can hold a routing record get
 * their attributes flattened (into a Map, never a plain object); the others are counted. Accepts the proto-JSON
 * spellings too: `scopeSpans` or the old `instrumentationLibrarySpans`, status code 2 or "STATUS_CODE_ERROR".
 * No I/O.
 */
import { isRoutingCandidate, type TraceRecordBuilder } from '../buildTraceRecords.js';
import { flattenOtlpAttributes } from './flattenOtlpAttributes.js';
import type { EventView, ResourceView } from '../internal-types.js';
import { unixNanosToMs } from '../normalizeSpanFields.js';
import type { RecordSource, TraceRecord } from '../../record/types.js';
import { asObject, asArray, ownField, type JsonObject } from './narrowJson.js';

function hasAttributeKey(list: unknown, key: string): boolean {
  for (const kv of asArray(list)) {
    const o = asObject(kv);
    if (o !== undefined && ownField(o, 'key') === key) return true;
  }
  return false;
}

function hasEventNamed(list: unknown, name: string): boolean {
  for (const ev of asArray(list)) {
    const o = asObject(ev);
    if (o !== undefined && ownField(o, 'name') === name) return true;
  }
  return false;
}

function isErrorStatus(status: unknown): boolean {
  const code = asObject(status) === undefined ? undefined : ownField(status as JsonObject, 'code');
  return code === 2 || code === 'STATUS_CODE_ERROR' || code === '2';
}

function readResource(resourceSpans: JsonObject): ResourceView {
  return readResourceView(ownField(resourceSpans, 'resource'));
}

/** A parsed `resource` value (undefined: the item had none) as the builder views it. */
export function readResourceView(value: unknown): ResourceView {
  const resource = asObject(value);
  const attributes = flattenOtlpAttributes(
    resource === undefined ? undefined : ownField(resource, 'attributes'),
  );
  const service = attributes.get('service.name');
  return { service: typeof service === 'string' ? service : undefined, attributes };
}

/** Read the `resourceSpans` list of one request, pushing records to `out`. */
export function readOtlpResourceSpans(
  list: readonly unknown[],
  source: RecordSource,
  builder: TraceRecordBuilder,
  out: TraceRecord[],
): void {
  for (const rsRaw of list) {
    const rs = asObject(rsRaw);
    if (rs === undefined) continue;
    let resource: ResourceView | undefined;
    const scopes = ownField(rs, 'scopeSpans') ?? ownField(rs, 'instrumentationLibrarySpans');
    for (const ssRaw of asArray(scopes)) {
      const ss = asObject(ssRaw);
      if (ss === undefined) continue;
      const spans = asArray(ownField(ss, 'spans'));
      let plain = 0;
      for (const spanRaw of spans) {
        const span = asObject(spanRaw);
        if (span === undefined) {
          plain++;
          continue;
        }
        const name = ownField(span, 'name');
        const attributes = ownField(span, 'attributes');
        const events = ownField(span, 'events');
        const candidate = isRoutingCandidate(
          typeof name === 'string' ? name : '',
          (key) => hasAttributeKey(attributes, key),
          (eventName) => hasEventNamed(events, eventName),
        );
        if (!candidate) {
          plain++;
          continue;
        }
        resource ??= readResource(rs);
        const eventViews: EventView[] = [];
        for (const evRaw of asArray(events)) {
          const ev = asObject(evRaw);
          if (ev === undefined) continue;
          const evName = ownField(ev, 'name');
          eventViews.push({
            name: typeof evName === 'string' ? evName : '',
            timeUnixMs: unixNanosToMs(ownField(ev, 'timeUnixNano')),
            attributes: flattenOtlpAttributes(ownField(ev, 'attributes')),
          });
        }
        builder.addSpan(
          {
            traceId: ownField(span, 'traceId'),
            spanId: ownField(span, 'spanId'),
            parentSpanId: ownField(span, 'parentSpanId'),
            name: typeof name === 'string' ? name : '',
            timeUnixMs: unixNanosToMs(ownField(span, 'startTimeUnixNano')) ?? 0,
            error: isErrorStatus(ownField(span, 'status')),
            attributes: flattenOtlpAttributes(attributes),
            events: eventViews,
          },
          resource,
          source,
          out,
        );
      }
      if (plain > 0) builder.countPlainSpans(plain);
    }
  }
}
