/**
 * readJsonTraceValue — recognize the shape of one parsed JSON trace text and read its spans.
 *
 * Shapes: an OTLP export request `{resourceSpans}`; the Jaeger v2 `{result:{resourceSpans}}` wrapper; Tempo's
 * `{trace:{resourceSpans}}` and `{batches:[…]}`; Jaeger v1 `{data:[trace…]}` or one bare trace object; and a
 * JSON array of any of these. Anything else is not a trace: the caller reports the returned reason (a bad line
 * in a JSON-lines file, an input error for a whole document). Other OTLP signals (metrics, logs, profiles)
 * are skipped without a problem: the file exporter may share one file between pipelines. Input is `unknown`.
 * No I/O.
 */
import type { TraceRecordBuilder } from '../buildTraceRecords.js';
import { quoteForProblem, sanitizeMessage } from '../normalizeSpanFields.js';
import { isJaegerTrace, readJaegerTrace } from './readJaegerJson.js';
import { readOtlpResourceSpans } from './readOtlpJson.js';
import type { RecordSource, TraceRecord } from '../../record/types.js';
import { asObject } from './narrowJson.js';

const MAX_WRAPPER_DEPTH = 4;

function describeKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Read `value`; returns undefined when it was a trace shape, else why it is not one. */
export function readJsonTraceValue(
  value: unknown,
  source: RecordSource,
  builder: TraceRecordBuilder,
  out: TraceRecord[],
  depth = 0,
): string | undefined {
  if (depth > MAX_WRAPPER_DEPTH) return 'trace wrappers nested too deeply';
  if (Array.isArray(value)) {
    for (const item of value) {
      const reason = readJsonTraceValue(item, source, builder, out, depth + 1);
      if (reason !== undefined) return `array item: ${reason}`;
    }
    return undefined;
  }
  const obj = asObject(value);
  if (obj === undefined) return `expected a JSON object, found ${describeKind(value)}`;
  const has = (key: string): boolean => Object.hasOwn(obj, key);

  if (has('resourceSpans')) {
    const list = obj.resourceSpans;
    if (!Array.isArray(list)) return `resourceSpans is ${describeKind(list)}, not an array`;
    readOtlpResourceSpans(list, source, builder, out);
    return undefined;
  }
  if (has('batches')) {
    const list = obj.batches;
    if (!Array.isArray(list)) return `batches is ${describeKind(list)}, not an array`;
    readOtlpResourceSpans(list, source, builder, out);
    return undefined;
  }
  // The file exporter may write metrics and logs into the same file: not traces, and not a problem either.
  if (has('resourceMetrics') || has('resourceLogs') || has('resourceProfiles')) return undefined;
  if (has('result')) return readJsonTraceValue(obj.result, source, builder, out, depth + 1);
  if (has('trace')) return readJsonTraceValue(obj.trace, source, builder, out, depth + 1);
  if (has('data')) {
    const data = obj.data;
    if (!Array.isArray(data)) return `data is ${describeKind(data)}, not an array of Jaeger traces`;
    for (const t of data) {
      const trace = asObject(t);
      if (trace === undefined || !Array.isArray(trace.spans))
        return 'data holds an item that is not a Jaeger trace';
      readJaegerTrace(trace, source, builder, out);
    }
    return undefined;
  }
  if (isJaegerTrace(obj)) {
    readJaegerTrace(obj, source, builder, out);
    return undefined;
  }
  if (has('error')) return `the trace store answered an error: ${quoteForProblem(obj.error)}`;
  if (has('traces')) {
    return 'a Tempo search result holds no full spans; fetch each trace (/api/v2/traces/<id>) and read that';
  }
  const keys = Object.keys(obj).slice(0, 5).map(quoteForProblem).join(', ');
  return sanitizeMessage(
    `not a trace export (expected resourceSpans, result, trace, batches, data or a Jaeger trace; found ${keys === '' ? 'an empty object' : `keys ${keys}`})`,
  );
}
