/**
 * readLimits — the limits and markers every format reader shares.
 *
 * Memory follows the longest line or record, never the file: MAX_LINE_BYTES, MAX_RECORD_BYTES and
 * MAX_DOCUMENT_BYTES bound what one read holds. Every routing key, span and event name contains ROUTING_MARKER,
 * so a line or record without it cannot hold a routing span and is only counted; the check at load keeps that
 * sound when a name is added. KNOWN_FORMATS is what messages about an unreadable input list. No I/O.
 */
import { ROUTING_ATTRIBUTE_KEYS, ROUTING_SPAN_AND_EVENT_NAMES } from '../../semconv/semconv.js';

/** The longest JSON line read; a longer one is reported as a bad line and skipped without being buffered. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** The longest framed record (proto or zstd) read; a longer header means the framing is corrupt. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;
/** The largest single (pretty-printed) JSON document parsed whole. */
export const MAX_DOCUMENT_BYTES = 128 * 1024 * 1024;
/** Every routing key, span and event name contains this; a line without it holds no routing span. */
export const ROUTING_MARKER = 'agentfootprint.routing';
/** ROUTING_MARKER as bytes, searched for in raw lines and records. */
export const ROUTING_MARKER_BYTES = Buffer.from(ROUTING_MARKER);
/** How the Collector's OTLP/JSON export request opens. */
export const OTLP_REQUEST_OPENER = Buffer.from('{"resourceSpans"');
/** What routescope reads, for messages about an input it cannot. */
export const KNOWN_FORMATS =
  'routescope reads OTLP/JSON (JSON lines or one document, Jaeger v2 and Tempo wrappers), the Collector file ' +
  "exporter's proto and zstd output, gzip, Jaeger v1 JSON, and agentfootprint event logs (JSON lines of events)";

// The pre-filter is only sound while every routing string carries the marker; fail loudly at load otherwise.
for (const name of [...ROUTING_ATTRIBUTE_KEYS, ...ROUTING_SPAN_AND_EVENT_NAMES]) {
  if (!name.includes(ROUTING_MARKER)) throw new Error(`routing name ${name} lacks ${ROUTING_MARKER}`);
}
