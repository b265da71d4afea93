/**
 * readWithoutParsing — the fast path's one seam: a JSON line read without JSON.parse of the whole line, when it
 * can be.
 *
 * First, unless the read is exact (`--exact-read`), a line in the Collector's compact shape is not walked at
 * all: skipToRoutingSpans counts its spans and finds its routing spans by native searches, and only those (and
 * their resources) are read. A line it declines, or whose slices do not parse, goes on as below, untouched.
 *
 * Every routing key and name contains ROUTING_MARKER, so a line without it is not parsed: in the Collector's
 * plain request shape its spans are counted by the scan's walk (countOtlpJsonLineSpans: every item of every
 * `spans` list, exactly as a parse counts them, and the line's tokens and brackets checked), so truncation,
 * glued writes and garbage are reported; a flipped byte inside a string or number is not seen (the price of not
 * parsing). Metrics and logs requests sharing the file are skipped. A routing line in the plain shape is read
 * by parsing only the spans that carry the marker (scanOtlpJsonLine). Anything else is declined and parsed
 * whole by the caller, so a wrong shape (JSON that is not a trace) is reported there. A `--jobs` worker reads
 * lines exactly so (its builder packs what each span gives for the main thread: trace/parallel).
 */
import type { TraceRecord } from '../../../record/types.js';
import {
  classifySpan,
  isRoutingCandidate,
  type SpanOutcome,
  type TraceRecordBuilder,
} from '../../buildTraceRecords.js';
import { decodeOtlpJsonSpan } from '../../decode/decodeOtlpJsonSpan.js';
import type { ResourceView, SpanView } from '../../internal-types.js';
import { readResourceView } from '../readOtlpJson.js';
import { countProblems, createReadStats } from '../../readStats.js';
import type { FileContext } from '../fileContext.js';
import { OPEN_BRACE } from '../jsonBytes.js';
import { OTLP_REQUEST_OPENER, ROUTING_MARKER_BYTES } from '../readLimits.js';
import { isWholeJsonContainer } from './checkJsonStructure.js';
import { countOtlpJsonLineSpans, scanOtlpJsonLine } from './scanOtlpJsonLine.js';
import { skipToRoutingSpans, type SkippedLine } from './skipToRoutingSpans.js';
import { loadSimdScanner } from './simd/simdNeedles.js';
import { findNeedlesByIndexOf, type FindNeedles } from './lineNeedles.js';

/** Routing spans read between two pauses of readWithoutParsingSteps. */
const SPANS_PER_STEP = 64;

/** A metrics, logs or profiles export request (the file exporter may share a file between pipelines). */
const OTHER_SIGNAL = /^\{\s*"resource(Metrics|Logs|Profiles)"/;

/**
 * How the caller reads a value the scan rebuilt (as it reads a parsed one): into `ctx` as given, its builder and
 * stats, which may be the fast path's own while it holds a line's outcomes back (readSkippedSpans).
 */
export type ReadJsonValue = (ctx: FileContext, value: unknown, line: number, out: TraceRecord[]) => void;

/**
 * True when the line was dealt with here (counted, skipped or read); false when the caller must
 * parse it whole, as it would without the fast path.
 */
export function readWithoutParsing(
  ctx: FileContext,
  body: Buffer,
  line: number,
  out: TraceRecord[],
  readJsonValue: ReadJsonValue,
): boolean {
  const steps = readWithoutParsingSteps(ctx, body, line, out, readJsonValue);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * readWithoutParsing, pausing (yielding) every few dozen routing spans of a line, so a caller can give its event
 * loop back between steps (serve reads a request of thousands of routing spans so).
 */
export function* readWithoutParsingSteps(
  ctx: FileContext,
  body: Buffer,
  line: number,
  out: TraceRecord[],
  readJsonValue: ReadJsonValue,
): Generator<void, boolean, void> {
  if (ctx.exact !== true) {
    const skipped = skipQuietly(ctx, body);
    if (skipped !== undefined && (yield* readSkipped(ctx, body, skipped, line, out, readJsonValue)))
      return true;
  }
  if (body.indexOf(ROUTING_MARKER_BYTES) === -1) {
    // Cut mid-string, the next write's quotes can re-pair by chance: two requests on one line means glued.
    const opener = body.indexOf(OTLP_REQUEST_OPENER);
    const glued = opener !== -1 && body.indexOf(OTLP_REQUEST_OPENER, opener + 1) !== -1;
    const spans = glued ? undefined : countOtlpJsonLineSpans(body, ROUTING_MARKER_BYTES);
    if (spans !== undefined) {
      if (spans > 0) ctx.builder.countPlainSpans(spans);
      return true;
    }
    // Metrics and logs sharing the file: skipped unparsed, but a cut one is still reported.
    if (OTHER_SIGNAL.test(body.toString('latin1', 0, 40)) && isWholeJsonContainer(body)) return true;
    // Any other shape is parsed: its spans are counted exactly, and JSON that is not a trace is reported.
  } else if (body[0] === OPEN_BRACE) {
    // A routing line: parse only the spans that carry the marker, when it is in the Collector's plain shape.
    const selective = scanOtlpJsonLine(body, ROUTING_MARKER_BYTES);
    if (selective !== undefined) {
      readJsonValue(ctx, selective, line, out);
      return true;
    }
  }
  return false;
}

/**
 * Read what skipToRoutingSpans found: the routing spans and their resources read, the other spans counted.
 * False, nothing recorded, when a slice is not JSON after all (the caller walks the line, which reports it).
 */
function* readSkipped(
  ctx: FileContext,
  body: Buffer,
  skipped: SkippedLine,
  line: number,
  out: TraceRecord[],
  readJsonValue: ReadJsonValue,
): Generator<void, boolean, void> {
  let routing = 0;
  for (const item of skipped.resources) routing += item.spans.length;
  if (routing > 0 && !(yield* readSkippedSpans(ctx, body, skipped, line, out, readJsonValue))) return false;
  const plain = skipped.spans - routing;
  if (plain > 0) ctx.builder.countPlainSpans(plain);
  return true;
}

/**
 * Read the routing spans one at a time, in their order: each slice decoded from its bytes (decodeOtlpJsonSpan),
 * or, when the decoder declines it, parsed and read as a request of that one span (its resource parsed once per
 * resource), its records classified (classifySpan, pure) but not yet
 * applied; only when every slice parsed and read without a problem are the outcomes applied to the real
 * builder, in order, exactly as reading the whole request would have applied them. So a span's parsed tree is
 * garbage as soon as it is classified (a request's trees are never all alive at once, which a collection in
 * the middle of a request would otherwise copy), and a slice that does not parse, or a span that could not be
 * read, leaves nothing behind: false, and the caller reads the line whole. A builder without
 * `applySpanOutcome` gets the whole request, parsed, as before.
 */
function* readSkippedSpans(
  ctx: FileContext,
  body: Buffer,
  skipped: SkippedLine,
  line: number,
  out: TraceRecord[],
  readJsonValue: ReadJsonValue,
): Generator<void, boolean, void> {
  const apply = ctx.builder.applySpanOutcome;
  if (apply === undefined) {
    const request = parseSkippedRequest(body, skipped);
    if (request === undefined) return false;
    readJsonValue(ctx, request, line, out);
    return true;
  }
  const outcomes: SpanOutcome[] = [];
  let plain = 0;
  const collecting: TraceRecordBuilder = {
    addSpan(span, resource, source) {
      outcomes.push(classifySpan(span, resource, source));
    },
    countPlainSpans(count) {
      plain += count;
    },
  };
  // Problems reported while reading (a span whose reading threw) go here, and decline the line.
  const scratch: FileContext = { ...ctx, builder: collecting, stats: createReadStats() };
  const none: TraceRecord[] = [];
  const source = { file: ctx.file, line };
  let read = 0;
  for (const item of skipped.resources) {
    let resource: unknown;
    try {
      resource = item.resource === undefined ? undefined : parseSlice(body, item.resource);
    } catch {
      return false;
    }
    let view: ResourceView | undefined;
    for (const slice of item.spans) {
      // Nothing is applied until every span read cleanly, so a pause here changes nothing a caller sees.
      if (++read % SPANS_PER_STEP === 0) yield;
      const span = decodeOtlpJsonSpan(body, slice.start, slice.end);
      if (span !== undefined) {
        if (
          isRoutingCandidate(
            span.name,
            (key) => span.attributes.has(key),
            (name) => hasEvent(span, name),
          )
        ) {
          try {
            view ??= readResourceView(resource);
            outcomes.push(classifySpan(span, view, source));
          } catch {
            // A resource too deep to flatten, say: the walk reads the line, and reports what it is.
            return false;
          }
        } else plain++;
        continue;
      }
      // Declined by the decoder: parsed and read as a request of this one span, as every span once was.
      try {
        const request = { resourceSpans: [resourceSpansOf(resource, [parseSlice(body, slice)])] };
        readJsonValue(scratch, request, line, none);
      } catch {
        return false;
      }
      if (countProblems(scratch.stats) > 0 || none.length > 0) return false;
    }
  }
  for (const outcome of outcomes) apply(outcome, out);
  if (plain > 0) ctx.builder.countPlainSpans(plain);
  return true;
}

/** Does the span have an event named `name`? */
function hasEvent(span: SpanView, name: string): boolean {
  for (const event of span.events) if (event.name === name) return true;
  return false;
}

/** One slice of the line, parsed (throws when it is not JSON). */
function parseSlice(body: Buffer, slice: { readonly start: number; readonly end: number }): unknown {
  return JSON.parse(body.toString('utf8', slice.start, slice.end)) as unknown;
}

/** A resource item of a rebuilt request: `spans` in one scope, under `resource` when the line had one. */
function resourceSpansOf(resource: unknown, spans: unknown[]): unknown {
  return resource === undefined ? { scopeSpans: [{ spans }] } : { resource, scopeSpans: [{ spans }] };
}

/** The request holding only the routing spans and their resources, parsed; undefined when a slice does not parse. */
function parseSkippedRequest(body: Buffer, skipped: SkippedLine): { resourceSpans: unknown[] } | undefined {
  const resourceSpans: unknown[] = [];
  try {
    for (const item of skipped.resources) {
      const spans = item.spans.map((span) => parseSlice(body, span));
      const resource = item.resource === undefined ? undefined : parseSlice(body, item.resource);
      resourceSpans.push(resourceSpansOf(resource, spans));
    }
  } catch {
    return undefined;
  }
  return { resourceSpans };
}

/**
 * skipToRoutingSpans with the context's scanner (the SIMD one unless the JavaScript one was asked for or the
 * SIMD one cannot run here, which stats.scan then says), each line it indexes counted. A throw (a bug, never
 * input) is taken as a decline: the walk then reads the line.
 */
function skipQuietly(ctx: FileContext, body: Buffer): SkippedLine | undefined {
  const scan = ctx.stats.scan;
  let findNeedles: FindNeedles = findNeedlesByIndexOf;
  let simd = false;
  if (ctx.scanner === 'javascript') {
    scan.simdUnavailable ??= 'the JavaScript scanner was asked for (--scanner javascript)';
  } else {
    const loaded = loadSimdScanner();
    if (loaded.kind === 'simd') {
      findNeedles = loaded.findNeedles;
      simd = true;
    } else {
      scan.simdUnavailable ??= loaded.reason;
    }
  }
  try {
    return skipToRoutingSpans(body, ROUTING_MARKER_BYTES, (line, marker, requestKeyAt) => {
      if (simd) scan.simdLines++;
      else scan.javascriptLines++;
      return findNeedles(line, marker, requestKeyAt);
    });
  } catch {
    return undefined;
  }
}
