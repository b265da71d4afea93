/**
 * readTraceInputs — stream normalized routing records out of trace files, folders and stdin, in one pass.
 *
 * Formats are recognized from the first bytes, not the name: gzip and zstd are decompressed and looked at
 * again; a 4-byte big-endian length before a zstd frame or a protobuf `resource_spans` field is the Collector
 * file exporter's framing (`format: proto`, legacy `compression: zstd`); text opening with `{`/`[` is JSON
 * lines, or a JSON array written one element per line (read as lines too), unless its first line is an
 * unfinished pretty-printed document, parsed whole up to MAX_DOCUMENT_BYTES. Text opening with `{` that does
 * not parse as one document and is not indented like one is JSON lines after all, so each broken line is
 * reported at its own number; a damaged document is reported at the line where it stops being JSON.
 * Memory follows the longest line (MAX_LINE_BYTES) or record, never the file, and a line that cannot hold a
 * routing span is counted without being parsed (see readJsonLine). Bad lines, broken records and incomplete
 * routing spans go to `stats.problems` with file and line; only an input that cannot be read at all, or a
 * named file in no known format, throws InputError.
 */
import { ROUTING_ATTRIBUTE_KEYS, ROUTING_SPAN_AND_EVENT_NAMES } from '../semconv/semconv.js';
import { open, type FileHandle } from 'node:fs/promises';
import {
  classifySpan,
  createTraceRecordBuilder,
  type SpanOutcome,
  type TraceRecordBuilder,
} from './buildTraceRecords.js';
import { ByteSink } from './bytes/byteSink.js';
import { isWholeJsonContainer } from './formats/fastPath/checkJsonStructure.js';
import { findJsonError } from './formats/fastPath/isJsonValue.js';
import { InputError } from './inputError.js';
import { listInputFiles, type InputFile } from './listInputFiles.js';
import { quoteForProblem, sanitizeMessage } from './normalizeSpanFields.js';
import { peekStream, toByteStream, type ByteStream } from './bytes/peekStream.js';
import {
  DEFAULT_EVENT_LOG_OPTIONS,
  isAgentfootprintEvent,
  readAgentfootprintEvent,
  type EventLogOptions,
} from './formats/readAgentfootprintEvent.js';
import { ownChunks, readFileChunks } from './bytes/readFileChunks.js';
import { readJsonTraceValue } from './formats/readJsonTraceValue.js';
import {
  countOtlpJsonLineSpans,
  scanOtlpJsonLine,
  scanOtlpJsonLineInto,
} from './formats/fastPath/scanOtlpJsonLine.js';
import { createReadStats, reportProblem } from './readStats.js';
import { splitLines } from './bytes/splitLines.js';
import type { ReadStats } from './types.js';
import type { TraceRecord } from '../record/types.js';

/** Options of a read. */
export interface ReadOptions {
  /** The stream read for the input '-' @default process.stdin */
  stdin?: NodeJS.ReadableStream;
  /** Called as raw bytes are read (about every MiB and at the end of each input). */
  onProgress?: (p: { file: string; bytesRead: number; totalBytes?: number }) => void;
  /**
   * The record builder, and with it the duplicate filter, to share with other reads (the CLI shares one
   * between files and trace stores, so a span found in both counts once). It must count into `stats`.
   * @default a fresh one
   */
  builder?: TraceRecordBuilder;
  /** How agentfootprint event logs are judged. @default DEFAULT_EVENT_LOG_OPTIONS */
  events?: EventLogOptions;
}

/** The longest JSON line read; a longer one is reported as a bad line and skipped without being buffered. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
/** The longest framed record (proto or zstd) read; a longer header means the framing is corrupt. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;
/** The largest single (pretty-printed) JSON document parsed whole. */
export const MAX_DOCUMENT_BYTES = 128 * 1024 * 1024;
/** Every routing key, span and event name contains this; a line without it holds no routing span. */
export const ROUTING_MARKER = 'agentfootprint.routing';

const SNIFF_BYTES = 64 * 1024;
const PROGRESS_EVERY = 1024 * 1024;
const MAX_NESTED_COMPRESSION = 2;
const ROUTING_MARKER_BYTES = Buffer.from(ROUTING_MARKER);
const OTLP_REQUEST_OPENER = Buffer.from('{"resourceSpans"');
/** A metrics, logs or profiles export request (the file exporter may share a file between pipelines). */
const OTHER_SIGNAL = /^\{\s*"resource(Metrics|Logs|Profiles)"/;
const ZSTD_MAGIC = 0xfd2fb528; // little-endian on the wire: 28 b5 2f fd
/** What routescope reads, for messages about an input it cannot. */
export const KNOWN_FORMATS =
  'routescope reads OTLP/JSON (JSON lines or one document, Jaeger v2 and Tempo wrappers), the Collector file ' +
  "exporter's proto and zstd output, gzip, Jaeger v1 JSON, and agentfootprint event logs (JSON lines of events)";

// The pre-filter is only sound while every routing string carries the marker; fail loudly at load otherwise.
for (const name of [...ROUTING_ATTRIBUTE_KEYS, ...ROUTING_SPAN_AND_EVENT_NAMES]) {
  if (!name.includes(ROUTING_MARKER)) throw new Error(`routing name ${name} lacks ${ROUTING_MARKER}`);
}

/** What one input file is, judged from its first bytes. */
type Sniffed =
  | {
      readonly kind:
        'empty' | 'gzip' | 'zstd' | 'framed' | 'json-lines' | 'json-array-lines' | 'json-document';
    }
  | { readonly kind: 'unknown'; readonly reason: string };

/** Per-file reading state. */
interface FileContext {
  readonly file: string;
  readonly named: boolean;
  readonly stats: ReadStats;
  readonly builder: TraceRecordBuilder;
  readonly events: EventLogOptions;
  /** The last line or record number started (problems after a stream error point just past it). */
  line: number;
  /**
   * A `--jobs` worker's hand-off: routing lines the scan can read are not parsed here. The request the scan
   * rebuilds (its slices checked, not parsed: scanOtlpJsonLineInto) is written to `sink` from byte `start`,
   * and the main thread reads it with readScannedLine.
   */
  readonly deferScanned?: { readonly sink: ByteSink; scanned(start: number, line: number): void };
}

function isJsonStart(byte: number | undefined): boolean {
  return byte === 0x7b || byte === 0x5b || byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function hasBom(buf: Buffer): boolean {
  return buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * JSON lines, a JSON array written one element per line, or the start of one pretty-printed document? Looks at
 * the first two non-blank lines (the second may be cut short by the end of the head).
 */
function sniffJsonText(head: Buffer, ended: boolean): Sniffed {
  const lines: string[] = [];
  let pos = hasBom(head) ? 3 : 0;
  let secondWhole = true;
  while (lines.length < 2 && pos < head.length) {
    let nl = head.indexOf(0x0a, pos);
    if (nl === -1 && !ended) {
      // The first line must be whole; of the second, its start is enough to tell an array's element.
      if (lines.length === 0) break;
      secondWhole = false;
    }
    if (nl === -1) nl = head.length;
    const line = head.toString('utf8', pos, nl).trimEnd();
    pos = nl + 1;
    if (line.trim() !== '') lines.push(line);
  }
  const first = lines[0]?.trim();
  const second = lines[1];
  if (first === undefined || second === undefined || !(first.startsWith('{') || first.startsWith('[')))
    return { kind: 'json-lines' };
  if (parsesAsJson(first)) return { kind: 'json-lines' };
  // `[` (or `[` and the first element, with its comma), then elements unindented, one a line: a script's or
  // Jaeger's anonymizer's array. Pretty-printed, the next line would be indented or a lone `{`.
  if (first.startsWith('[') && (first === '[' || first.endsWith(',')) && /^\{\s*"/.test(second))
    return { kind: 'json-array-lines' };
  if (!secondWhole) return { kind: 'json-lines' };
  // In JSON lines the next line is another whole object; in a document it is a key or a nested opener.
  const next = second.trim();
  return { kind: next.startsWith('{') && next !== '{' ? 'json-lines' : 'json-document' };
}

function sniff(head: Buffer, ended: boolean): Sniffed {
  if (head.length === 0) return { kind: 'empty' };
  if (head[0] === 0x1f && head[1] === 0x8b) return { kind: 'gzip' };
  if (head.length >= 4 && head.readUInt32LE(0) === ZSTD_MAGIC) return { kind: 'zstd' };
  if (hasBom(head) || isJsonStart(head[0])) {
    let i = hasBom(head) ? 3 : 0;
    while (i < head.length && isJsonStart(head[i]) && head[i] !== 0x7b && head[i] !== 0x5b) i++;
    if (i === head.length) return ended ? { kind: 'empty' } : { kind: 'json-lines' };
    if (head[i] !== 0x7b && head[i] !== 0x5b) {
      // Protobuf's first tag byte is a newline; the bytes after it tell it from text.
      if (looksLikeOtlpProto(head)) {
        return {
          kind: 'unknown',
          reason:
            "binary protobuf (an OTLP export request, it seems) without the file exporter's 4-byte length framing; export it with the file exporter's format: proto, or as OTLP/JSON",
        };
      }
      return { kind: 'unknown', reason: 'text that is not JSON (it does not start with { or [)' };
    }
    return sniffJsonText(head, ended);
  }
  if (head.length >= 5 && head.readUInt32BE(0) <= MAX_RECORD_BYTES) {
    if (head.length >= 8 && head.readUInt32LE(4) === ZSTD_MAGIC) return { kind: 'framed' };
    if (head[4] === 0x0a) return { kind: 'framed' };
  }
  // Garbage first (a torn write at the start), then lines that open like JSON: JSON lines, line 1 reported.
  for (let nl = head.indexOf(0x0a); nl !== -1 && nl + 1 < head.length; nl = head.indexOf(0x0a, nl + 1)) {
    if (head[nl + 1] === 0x7b || head[nl + 1] === 0x5b) return { kind: 'json-lines' };
  }
  const start = head.subarray(0, 64);
  if (start.every((b) => b >= 0x20 || b === 0x09 || b === 0x0a || b === 0x0d)) {
    const text = start.toString('utf8').split('\n')[0]!.slice(0, 24);
    return { kind: 'unknown', reason: `text that is not JSON (it starts with ${quoteForProblem(text)})` };
  }
  const shown = [...head.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  return { kind: 'unknown', reason: `an unknown format (first bytes ${shown})` };
}

/** Field 1 (`resource_spans`), length-delimited, with a length that fits: how a protobuf request starts. */
function looksLikeOtlpProto(head: Buffer): boolean {
  if (head[0] !== 0x0a) return false;
  let length = 0;
  for (let i = 1, shift = 1; i < Math.min(head.length, 6); i++, shift *= 128) {
    length += (head[i]! & 0x7f) * shift;
    if ((head[i]! & 0x80) === 0) return length > 0 && length <= MAX_RECORD_BYTES && head[i + 1] === 0x0a;
  }
  return false;
}

/** A named file in no known format is an input error; one found in a folder is reported and skipped. */
function rejectFormat(ctx: FileContext, reason: string): void {
  if (ctx.named) {
    throw new InputError(
      `${ctx.file}: ${reason}. ${KNOWN_FORMATS}; export traces in one of those.`,
      ctx.file,
    );
  }
  reportProblem(ctx.stats, { file: ctx.file, line: 0, kind: 'unsupported', reason: `${reason}; skipped` });
}

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;
}

function badLine(ctx: FileContext, line: number, reason: string): void {
  reportProblem(ctx.stats, { file: ctx.file, line, kind: 'bad-line', reason });
}

/**
 * Parse one JSON text (a line, a decompressed record) and push its records. A wrong shape is reported here;
 * when the text is not valid JSON at all the reason is returned for the caller to report (or recover from).
 */
function readJsonText(ctx: FileContext, text: string, line: number, out: TraceRecord[]): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return `not valid JSON (truncated or corrupt): ${sanitizeMessage(message, 120)}`;
  }
  readJsonValue(ctx, value, line, out);
  return undefined;
}

/** Read one parsed JSON text (or the selective scan's equivalent); a wrong shape is reported here. */
function readJsonValue(ctx: FileContext, value: unknown, line: number, out: TraceRecord[]): void {
  let reason: string | undefined;
  try {
    reason = readJsonTraceValue(value, { file: ctx.file, line }, ctx.builder, out);
    // Not a trace export: an agentfootprint event log line? (Checked only here, so OTLP lines never pay.)
    if (reason !== undefined && isAgentfootprintEvent(value)) {
      readAgentfootprintEvent(value, { file: ctx.file, line }, ctx.events, ctx.stats, ctx.builder, out);
      reason = undefined;
    }
  } catch (error) {
    // Pathological input (nesting deep enough to exhaust the stack): this line only, never the file.
    const message = error instanceof Error ? error.message : String(error);
    reason = `could not be read: ${sanitizeMessage(message, 120)}`;
  }
  if (reason !== undefined) badLine(ctx, line, reason);
}

/**
 * A crash leaves a request cut short, and the next write lands on the same line. When a broken line holds a
 * later request opener, the cut part is reported and the last request is read on its own: a good write is
 * not lost to the bad one before it.
 */
function recoverGluedRequest(ctx: FileContext, body: Buffer, line: number, out: TraceRecord[]): boolean {
  const last = body.lastIndexOf(OTLP_REQUEST_OPENER);
  if (last <= 0) return false;
  badLine(
    ctx,
    line,
    `a request cut short (truncated write) with another glued after it; the one from byte ${last} was read on its own`,
  );
  readJsonBody(ctx, body.subarray(last), line, out, false);
  return true;
}

/**
 * One JSON line: skipped cheaply when it cannot hold a routing span, parsed otherwise. Every routing key and
 * name contains ROUTING_MARKER, so a line without it is not parsed: in the Collector's plain request shape
 * its spans are counted by the scan's walk (countOtlpJsonLineSpans: every item of every `spans` list, exactly
 * as a parse counts them, and the line's tokens and brackets checked), so truncation, glued writes and garbage
 * are reported; a flipped byte inside a string or number is not seen (the price of not parsing). Any other
 * line is parsed, so a wrong shape (JSON that is not a trace) is reported; metrics and logs requests sharing
 * the file are skipped. In an array written one element per line (`array`), the `[`, `]` and the commas
 * after elements are the array's, not the elements'.
 */
function readJsonLine(
  ctx: FileContext,
  raw: Buffer,
  line: number,
  out: TraceRecord[],
  array?: ArrayLines,
): void {
  let start = line === 1 && hasBom(raw) ? 3 : 0;
  let end = raw.length;
  while (start < end && isSpace(raw[start])) start++;
  while (end > start && isSpace(raw[end - 1])) end--;
  if (start === end) return;
  ctx.stats.lines++;
  if (array !== undefined) {
    const problems = ctx.stats.problems.length + ctx.stats.problemsDropped;
    readArrayElementLine(ctx, raw, start, end, line, out, array);
    array.lastLineBad = ctx.stats.problems.length + ctx.stats.problemsDropped > problems;
    return;
  }
  readJsonBody(ctx, raw.subarray(start, end), line, out, true);
}

/** Where the reading of an array written one element per line stands. */
interface ArrayLines {
  state: 'before' | 'inside' | 'after';
  /** The last non-blank line read gave a problem (a cut there is reported once, not twice). */
  lastLineBad: boolean;
}

function readArrayElementLine(
  ctx: FileContext,
  raw: Buffer,
  start: number,
  end: number,
  line: number,
  out: TraceRecord[],
  array: ArrayLines,
): void {
  if (array.state === 'after') {
    badLine(ctx, line, 'text after the closing ] of the JSON array; not read');
    return;
  }
  if (array.state === 'before') {
    // The sniff saw the `[` first: it opens this line, alone or before the first element.
    array.state = 'inside';
    if (raw[start] === 0x5b) start++;
    while (start < end && isSpace(raw[start])) start++;
    if (start === end) return;
  }
  if (end - start === 1 && raw[start] === 0x5d) {
    array.state = 'after';
    return;
  }
  if (raw[end - 1] === 0x2c) {
    end--;
  } else if (raw[end - 1] === 0x5d) {
    // The last element with the array's `]` after it, when what is before the `]` is one whole value.
    let last = end - 1;
    while (last > start && isSpace(raw[last - 1])) last--;
    if (isWholeJsonContainer(raw.subarray(start, last))) {
      end = last;
      array.state = 'after';
    }
  }
  while (end > start && isSpace(raw[end - 1])) end--;
  if (start === end) {
    badLine(ctx, line, 'an empty element (a comma with nothing before it) in the JSON array');
    return;
  }
  readJsonBody(ctx, raw.subarray(start, end), line, out, true);
}

function readJsonBody(
  ctx: FileContext,
  body: Buffer,
  line: number,
  out: TraceRecord[],
  recover: boolean,
): void {
  if (body.indexOf(ROUTING_MARKER_BYTES) === -1) {
    // Cut mid-string, the next write's quotes can re-pair by chance: two requests on one line means glued.
    const opener = body.indexOf(OTLP_REQUEST_OPENER);
    const glued = opener !== -1 && body.indexOf(OTLP_REQUEST_OPENER, opener + 1) !== -1;
    const spans = glued ? undefined : countOtlpJsonLineSpans(body, ROUTING_MARKER_BYTES);
    if (spans !== undefined) {
      if (spans > 0) ctx.builder.countPlainSpans(spans);
      return;
    }
    // Metrics and logs sharing the file: skipped unparsed, but a cut one is still reported.
    if (OTHER_SIGNAL.test(body.toString('latin1', 0, 40)) && isWholeJsonContainer(body)) return;
    // Any other shape is parsed: its spans are counted exactly, and JSON that is not a trace is reported.
  } else if (body[0] === 0x7b) {
    // A routing line: parse only the spans that carry the marker, when it is in the Collector's plain shape.
    const defer = ctx.deferScanned;
    if (defer !== undefined) {
      const start = defer.sink.length;
      if (scanOtlpJsonLineInto(body, ROUTING_MARKER_BYTES, defer.sink)) {
        defer.scanned(start, line);
        return;
      }
      // Declined: scanOtlpJsonLine would decline too (the same walk; isJsonValue agrees with JSON.parse),
      // so the line is read whole, as it would be.
    } else {
      const selective = scanOtlpJsonLine(body, ROUTING_MARKER_BYTES);
      if (selective !== undefined) {
        readJsonValue(ctx, selective, line, out);
        return;
      }
    }
  }
  const unparseable = readJsonText(ctx, body.toString('utf8'), line, out);
  if (unparseable === undefined) return;
  if (recover && recoverGluedRequest(ctx, body, line, out)) return;
  badLine(
    ctx,
    line,
    body[0] === 0x7b || body[0] === 0x5b
      ? unparseable
      : 'not JSON (garbage where a JSON object was expected)',
  );
}

async function* readJsonLines(
  ctx: FileContext,
  stream: ByteStream,
  array?: ArrayLines,
): AsyncGenerator<TraceRecord> {
  const out: TraceRecord[] = [];
  for await (const raw of splitLines(stream, MAX_LINE_BYTES)) {
    if (typeof raw === 'number') {
      ctx.line += raw;
      continue;
    }
    const line = ++ctx.line;
    if (raw === null) {
      ctx.stats.lines++;
      badLine(ctx, line, `line longer than ${MAX_LINE_BYTES} bytes; skipped without reading it`);
      continue;
    }
    readJsonLine(ctx, raw, line, out, array);
    if (out.length > 0) {
      yield* out;
      out.length = 0;
    }
  }
  if (array?.state === 'inside' && !array.lastLineBad) {
    badLine(
      ctx,
      ctx.line + 1,
      'the JSON array ends without its closing ] (the file was cut short?); every element before it was read',
    );
  }
}

async function* readJsonDocument(ctx: FileContext, stream: ByteStream): AsyncGenerator<TraceRecord> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > MAX_DOCUMENT_BYTES) {
      rejectFormat(
        ctx,
        `a single JSON document larger than ${MAX_DOCUMENT_BYTES} bytes, too big to parse whole; convert it to JSON lines first (jq -c '.data[]' for Jaeger, jq -c '.' for OTLP) and read that`,
      );
      return;
    }
    chunks.push(chunk);
  }
  const all = Buffer.concat(chunks, size);
  chunks.length = 0;
  let lines = 1;
  for (let at = all.indexOf(0x0a); at !== -1; at = all.indexOf(0x0a, at + 1)) lines++;
  ctx.stats.lines += lines;
  let value: unknown;
  const text = all.toString('utf8', hasBom(all) ? 3 : 0);
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (holdsJsonLines(all) || (firstNonBlank(all) === 0x7b && !isIndented(all))) {
      // Not one document after all: JSON lines whose first lines were broken. Read it line by line, so each
      // broken line is reported at its own number.
      ctx.stats.lines -= lines;
      yield* readJsonLines(
        ctx,
        (async function* () {
          yield all;
        })(),
      );
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    badLine(
      ctx,
      lineOfJsonError(all),
      `the JSON document is not valid (truncated or corrupt) from this line on, nothing in it was read: ${sanitizeMessage(message, 120)}`,
    );
    return;
  }
  const out: TraceRecord[] = [];
  let reason: string | undefined;
  try {
    reason = readJsonTraceValue(value, { file: ctx.file, line: 0 }, ctx.builder, out);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    badLine(ctx, 0, `the JSON document could not be read: ${sanitizeMessage(message, 120)}`);
    return;
  }
  if (reason !== undefined) {
    rejectFormat(ctx, `JSON that is not a trace: ${reason}`);
    return;
  }
  yield* out;
}

function firstNonBlank(all: Buffer): number | undefined {
  let i = hasBom(all) ? 3 : 0;
  while (i < all.length && isSpace(all[i])) i++;
  return all[i];
}

/** Is any line indented, as in a pretty-printed document (and never in JSON lines)? */
function isIndented(all: Buffer): boolean {
  return all.indexOf('\n ') !== -1 || all.indexOf('\n\t') !== -1;
}

/** The 1-based line where a document stops being JSON (its last non-blank line when it ends too soon). */
function lineOfJsonError(all: Buffer): number {
  let last = all.length;
  while (last > 0 && isSpace(all[last - 1])) last--;
  const at = Math.min(findJsonError(all, hasBom(all) ? 3 : 0, all.length), last);
  let line = 1;
  for (let nl = all.indexOf(0x0a); nl !== -1 && nl < at; nl = all.indexOf(0x0a, nl + 1)) line++;
  return line;
}

/** Does a text that failed to parse as one document hold a whole JSON value on a line of its own, unindented? */
function holdsJsonLines(all: Buffer): boolean {
  let start = all.indexOf(0x0a) + 1;
  while (start > 0 && start < all.length) {
    const nl = all.indexOf(0x0a, start);
    let end = nl === -1 ? all.length : nl;
    while (end > start && isSpace(all[end - 1])) end--;
    // Inside a pretty-printed document every line but the first and last is indented.
    if (end - start > 2 && isWholeJsonContainer(all.subarray(start, end))) return true;
    start = nl + 1;
  }
  return false;
}

/** The Collector's length-framed files: each record is a protobuf request, or a zstd frame of JSON or protobuf. */
async function* readFramed(ctx: FileContext, stream: ByteStream): AsyncGenerator<TraceRecord> {
  // Loaded when a framed file is met: most runs read JSON lines and need neither protobuf nor zstd.
  const { readLengthFramed } = await import('./formats/readLengthFramed.js');
  const { countOtlpProtoSpans, decodeOtlpProtoRequest } = await import('./formats/decodeOtlpProto.js');
  const { decompressZstdFrame } = await import('./bytes/decompressStream.js');
  const out: TraceRecord[] = [];
  for await (const item of readLengthFramed(stream, MAX_RECORD_BYTES)) {
    const record = ++ctx.line;
    ctx.stats.lines++;
    if (item.kind === 'broken') {
      badLine(ctx, record, item.reason);
      return;
    }
    let payload = item.bytes;
    if (payload.length >= 4 && payload.readUInt32LE(0) === ZSTD_MAGIC) {
      try {
        payload = decompressZstdFrame(payload, MAX_LINE_BYTES);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        badLine(ctx, record, `record is not a valid zstd frame: ${sanitizeMessage(message, 120)}`);
        continue;
      }
    }
    let first = 0;
    let last = payload.length;
    while (first < last && isSpace(payload[first])) first++;
    while (last > first && isSpace(payload[last - 1])) last--;
    if (payload[first] === 0x7b || payload[first] === 0x5b) {
      readJsonBody(ctx, payload.subarray(first, last), record, out, false);
    } else {
      try {
        // Protobuf keeps strings as raw UTF-8, so the marker test holds here too; the rest are only counted.
        if (payload.indexOf(ROUTING_MARKER_BYTES) === -1)
          ctx.builder.countPlainSpans(countOtlpProtoSpans(payload));
        else decodeOtlpProtoRequest(payload, { file: ctx.file, line: record }, ctx.builder, out);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        badLine(
          ctx,
          record,
          `record is not a valid protobuf ExportTraceServiceRequest: ${sanitizeMessage(message, 120)}`,
        );
      }
    }
    if (out.length > 0) {
      yield* out;
      out.length = 0;
    }
  }
}

async function* readStream(
  ctx: FileContext,
  source: ByteStream,
  depth: number,
  compressed?: 'gzip' | 'zstd',
): AsyncGenerator<TraceRecord> {
  const { head, ended, stream } = await peekStream(source, SNIFF_BYTES);
  const sniffed = sniff(head, ended);
  switch (sniffed.kind) {
    case 'empty':
      return;
    case 'gzip':
    case 'zstd':
      if (depth >= MAX_NESTED_COMPRESSION) {
        rejectFormat(ctx, 'compressed more than twice over');
        return;
      }
      {
        const { gunzipStream, unzstdStream } = await import('./bytes/decompressStream.js');
        yield* readStream(
          ctx,
          sniffed.kind === 'gzip' ? gunzipStream(ownChunks(stream)) : unzstdStream(ownChunks(stream)),
          depth + 1,
          sniffed.kind,
        );
        return;
      }
    case 'framed':
      yield* readFramed(ctx, ownChunks(stream));
      return;
    case 'json-lines':
      yield* readJsonLines(ctx, stream);
      return;
    case 'json-array-lines':
      yield* readJsonLines(ctx, stream, { state: 'before', lastLineBad: false });
      return;
    case 'json-document':
      yield* readJsonDocument(ctx, ownChunks(stream));
      return;
    case 'unknown':
      rejectFormat(
        ctx,
        compressed === undefined ? sniffed.reason : `${compressed} holding ${sniffed.reason}`,
      );
      return;
  }
}

async function* countBytes(
  source: ByteStream,
  file: string,
  totalBytes: number | undefined,
  onProgress: ReadOptions['onProgress'],
): AsyncGenerator<Buffer> {
  let bytesRead = 0;
  let reported = 0;
  for await (const chunk of source) {
    bytesRead += chunk.length;
    if (onProgress !== undefined && bytesRead - reported >= PROGRESS_EVERY) {
      reported = bytesRead;
      onProgress({ file, bytesRead, ...(totalBytes === undefined ? {} : { totalBytes }) });
    }
    yield chunk;
  }
  onProgress?.({ file, bytesRead, ...(totalBytes === undefined ? {} : { totalBytes }) });
}

async function* readOneInput(
  ctx: FileContext,
  source: ByteStream,
  totalBytes: number | undefined,
  options: ReadOptions,
): AsyncGenerator<TraceRecord> {
  ctx.stats.files++;
  try {
    yield* readStream(ctx, countBytes(source, ctx.file, totalBytes, options.onProgress), 0);
  } catch (error) {
    if (error instanceof InputError) throw error;
    // A corrupt compressed stream or a read failure part-way: keep what was read, say where it stopped.
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown } | null)?.code;
    badLine(
      ctx,
      ctx.line + 1,
      code === 'Z_BUF_ERROR'
        ? 'stopped reading here: the gzip stream ends before its end (the file was truncated); everything before was read'
        : `stopped reading here: ${sanitizeMessage(message, 120)} (truncated or corrupt); the rest of the file was not read`,
    );
  }
}

/**
 * Open one input file for `ctx`; a failure is an InputError that says what to do, except for a file found in
 * a folder: that one is reported (`unreadable`) and skipped, and the rest of the folder is read.
 */
async function openForReading(ctx: FileContext, input: string): Promise<FileHandle | undefined> {
  try {
    return await openInputFile(ctx.file, input);
  } catch (error) {
    if (!(error instanceof InputError) || ctx.named) throw error;
    const prefix = `${ctx.file}: `;
    const why = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    reportProblem(ctx.stats, {
      file: ctx.file,
      line: 0,
      kind: 'unreadable',
      reason: `${why} Skipped; the other files were read`,
    });
    return undefined;
  }
}

/** A folder entry that is not read (see listInputFiles), reported with why. */
function reportSkipped(stats: ReadStats, file: string, reason: string): void {
  reportProblem(stats, { file, line: 0, kind: 'unsupported', reason: `${reason}; skipped` });
}

/** Open one input file; a failure is an InputError that says what to do. */
export async function openInputFile(path: string, input: string): Promise<FileHandle> {
  try {
    return await open(path, 'r');
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    throw new InputError(
      code === 'EACCES' || code === 'EPERM'
        ? `${path}: permission denied. Make it readable for this user, or copy it.`
        : `${path}: cannot be opened (${error instanceof Error ? error.message : String(error)}).`,
      input,
    );
  }
}

/**
 * Stream records from files, folders (every file inside, sorted by name) and '-' (stdin). Formats are
 * detected from content. Fills `stats` as it goes. Throws InputError when an input cannot be read at all
 * (missing, unreadable, unknown format); bad lines are reported into stats.problems, never thrown.
 */
export async function* readTraceInputs(
  inputs: readonly string[],
  stats: ReadStats,
  options: ReadOptions = {},
): AsyncGenerator<TraceRecord> {
  const builder = options.builder ?? createTraceRecordBuilder(stats);
  const events = options.events ?? DEFAULT_EVENT_LOG_OPTIONS;
  // Expand and check every path before reading any: a typo in the last input fails at once, not after hours.
  const expanded: Array<{ input: string; files: InputFile[] | undefined }> = [];
  for (const input of inputs) {
    expanded.push({ input, files: input === '-' ? undefined : await listInputFiles(input) });
  }
  for (const { input, files } of expanded) {
    if (files === undefined) {
      const stdin = options.stdin ?? process.stdin;
      const ctx: FileContext = { file: '-', named: true, stats, builder, events, line: 0 };
      yield* readOneInput(ctx, toByteStream(stdin as AsyncIterable<unknown>), undefined, options);
      continue;
    }
    for (const file of files) {
      if (file.skip !== undefined) {
        reportSkipped(stats, file.path, file.skip);
        continue;
      }
      const ctx: FileContext = { file: file.path, named: file.named, stats, builder, events, line: 0 };
      const handle = await openForReading(ctx, input);
      if (handle === undefined) continue;
      let totalBytes: number | undefined;
      try {
        const info = await handle.stat();
        if (info.isFile()) totalBytes = info.size;
      } catch {
        // Size is only for progress (and a file that cannot be stat'ed is read in order, as a pipe is).
      }
      try {
        // Only a regular file is read by position; a pipe or device is read in order from where it stands.
        const chunks = readFileChunks(handle, totalBytes === undefined ? null : 0);
        yield* readOneInput(ctx, chunks, totalBytes, options);
      } finally {
        await handle.close();
      }
    }
  }
}

/** A piece of work for one reader thread: a whole file, or a byte range of a JSON-lines file cut at line ends. */
export interface ReadUnit {
  readonly file: string;
  readonly named: boolean;
  /** Byte range [start, end); a whole file when `start` is 0 and `end` undefined and `split` false. */
  readonly start: number;
  readonly end?: number;
  /** A range of a JSON-lines file (read as lines without sniffing the format again). */
  readonly split: boolean;
  /** The file's size, for progress. */
  readonly size?: number;
  /** Why this folder entry is not read (listInputFiles); the unit only reports it. */
  readonly skip?: string;
  /** How agentfootprint event logs are judged. @default DEFAULT_EVENT_LOG_OPTIONS */
  readonly events?: EventLogOptions;
}

/**
 * Read on the main thread a routing line a worker scanned (ReadUnitResult): the same records, problems and
 * counts as reading that line in one thread, into `stats` through `builder`.
 */
export function readScannedLine(
  file: string,
  named: boolean,
  bytes: Buffer,
  entry: ScannedEntry,
  line: number,
  stats: ReadStats,
  builder: TraceRecordBuilder,
  out: TraceRecord[],
): void {
  const ctx: FileContext = { file, named, stats, builder, events: DEFAULT_EVENT_LOG_OPTIONS, line };
  // The worker checked every slice (isJsonValue), so this parses; were they ever to disagree, the line is
  // reported as one that does not parse, as a single thread would report it.
  const reason = readJsonText(ctx, bytes.toString('utf8', entry.start, entry.end), line, out);
  if (reason !== undefined) badLine(ctx, line, reason);
}

/** A routing line a worker scanned: its rebuilt request is bytes [start, end) of the unit's `scanned`. */
export interface ScannedEntry {
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly problemsBefore: number;
}

/** One entry of a unit's result: a candidate span worked out in the worker, or a scanned line to read. */
export type UnitEntry = { readonly outcome: SpanOutcome; readonly problemsBefore: number } | ScannedEntry;

/** What reading one unit found, to be merged in unit order (see readInParallel.ts). */
export interface ReadUnitResult {
  /** Counters and problems; line numbers of a split unit are relative (1 = the unit's first line). */
  readonly stats: ReadStats;
  /**
   * What each candidate routing span gives and each scanned routing line holds, in order; `problemsBefore`
   * problems of this unit came first.
   */
  readonly spans: UnitEntry[];
  /** The requests of the scanned lines, one after another (transferred from a worker, not copied). */
  readonly scanned: Uint8Array;
  /** Lines started in this unit (blank ones too). */
  readonly lines: number;
  /** The number the unit's lines were counted from: its line `lineBase + k` is its k-th line. */
  readonly lineBase: number;
  /** An input that cannot be read at all (the InputError's message and input). */
  readonly inputError?: { readonly message: string; readonly input: string };
}

/**
 * Read one unit up to the duplicate check: each candidate span's records and problems are worked out here
 * (classifySpan), and the caller applies them through its one record builder in input order, so duplicates
 * across units are caught exactly as in a single-threaded read. Routing lines the scan reads are only
 * scanned: their rebuilt requests go into `scanned` (written over `reuse`, a buffer handed back, if given),
 * for the caller to parse and read with readScannedLine.
 */
export async function readInputUnit(unit: ReadUnit, reuse?: Buffer): Promise<ReadUnitResult> {
  const stats = createReadStats();
  const spans: UnitEntry[] = [];
  const sink = new ByteSink(reuse);
  const forward: TraceRecordBuilder = {
    countPlainSpans(count) {
      stats.spans += count;
      stats.nonRoutingSpans += count;
    },
    addSpan(span, resource, source) {
      spans.push({
        outcome: classifySpan(span, resource, source),
        problemsBefore: stats.problems.length + stats.problemsDropped,
      });
    },
    applySpanOutcome(outcome) {
      spans.push({ outcome, problemsBefore: stats.problems.length + stats.problemsDropped });
    },
  };
  // A later part starts its count at 1, so its first line is never taken for the file's first (BOM) line.
  const lineBase = unit.split && unit.start > 0 ? 1 : 0;
  const ctx: FileContext = {
    file: unit.file,
    named: unit.named,
    stats,
    builder: forward,
    events: unit.events ?? DEFAULT_EVENT_LOG_OPTIONS,
    line: lineBase,
    deferScanned: {
      sink,
      scanned(start, line) {
        const problemsBefore = stats.problems.length + stats.problemsDropped;
        spans.push({ start, end: sink.length, line, problemsBefore });
      },
    },
  };
  // What was read so far; an input that cannot be read (or stops being readable) ends the unit with its error.
  const result = (error?: InputError): ReadUnitResult => ({
    stats,
    spans,
    scanned: sink.bytes.subarray(0, sink.length),
    lines: ctx.line - lineBase,
    lineBase,
    ...(error === undefined ? {} : { inputError: { message: error.message, input: error.input } }),
  });
  if (unit.skip !== undefined) {
    reportSkipped(stats, unit.file, unit.skip);
    return result();
  }
  let handle: FileHandle | undefined;
  try {
    handle = await openForReading(ctx, unit.file);
  } catch (error) {
    if (error instanceof InputError) return result(error);
    throw error;
  }
  if (handle === undefined) return result();
  // A unit without a size is not a regular file (a pipe or device, never split): read it in order.
  const stream = readFileChunks(handle, unit.size === undefined ? null : unit.start, unit.end);
  try {
    const records = unit.split ? readSplitUnit(ctx, stream) : readOneInput(ctx, stream, undefined, {});
    for await (const record of records) void record;
  } catch (error) {
    if (error instanceof InputError) return result(error);
    throw error;
  } finally {
    await handle.close();
  }
  return result();
}

async function* readSplitUnit(ctx: FileContext, stream: ByteStream): AsyncGenerator<TraceRecord> {
  try {
    yield* readJsonLines(ctx, stream);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    badLine(
      ctx,
      ctx.line + 1,
      `stopped reading here: ${sanitizeMessage(message, 120)} (truncated or corrupt); the rest of this part of the file was not read`,
    );
  }
}

/** Is a file with these first bytes plain (uncompressed) JSON lines, so that it can be cut at line ends? */
export function isPlainJsonLines(head: Buffer, ended: boolean): boolean {
  return sniff(head, ended).kind === 'json-lines';
}
