/**
 * readTraceInputs — stream normalized routing records out of trace files, folders and stdin, in one pass.
 *
 * Formats are recognized from the first bytes, not the name: gzip and zstd are decompressed and looked at
 * again; a 4-byte big-endian length before a zstd frame or a protobuf `resource_spans` field is the Collector
 * file exporter's framing (`format: proto`, legacy `compression: zstd`); text opening with `{`/`[` is JSON
 * lines, unless its first line is an unfinished pretty-printed document, parsed whole up to MAX_DOCUMENT_BYTES.
 * Memory follows the longest line (MAX_LINE_BYTES) or record, never the file, and a line that cannot hold a
 * routing span is counted without being parsed (see readJsonLine). Bad lines, broken records and incomplete
 * routing spans go to `stats.problems` with file and line; only an input that cannot be read at all, or a
 * named file in no known format, throws InputError.
 */
import { ROUTING_ATTRIBUTE_KEYS, ROUTING_SPAN_AND_EVENT_NAMES } from '../instrument/semconv.js';
import { open, type FileHandle } from 'node:fs/promises';
import {
  classifySpan,
  createTraceRecordBuilder,
  type SpanOutcome,
  type TraceRecordBuilder,
} from './buildTraceRecords.js';
import { ByteSink } from './byteSink.js';
import { isWholeJsonContainer } from './checkJsonStructure.js';
import { InputError } from './inputError.js';
import { listInputFiles, type InputFile } from './listInputFiles.js';
import { quoteForProblem, sanitizeMessage } from './normalizeSpanFields.js';
import { peekStream, toByteStream, type ByteStream } from './peekStream.js';
import {
  DEFAULT_EVENT_LOG_OPTIONS,
  isAgentfootprintEvent,
  readAgentfootprintEvent,
  type EventLogOptions,
} from './readAgentfootprintEvent.js';
import { ownChunks, readFileChunks } from './readFileChunks.js';
import { readJsonTraceValue } from './readJsonTraceValue.js';
import { scanOtlpJsonLine, scanOtlpJsonLineInto } from './scanOtlpJsonLine.js';
import { createReadStats, reportProblem } from './readStats.js';
import { splitLines } from './splitLines.js';
import type { ReadStats, TraceRecord } from './types.js';

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
const OTLP_SPAN_MARKER = Buffer.from('"startTimeUnixNano"');
const JAEGER_SPAN_MARKER = Buffer.from('"operationName"');
const OTLP_REQUEST_OPENER = Buffer.from('{"resourceSpans"');
/** A metrics, logs or profiles export request (the file exporter may share a file between pipelines). */
const OTHER_SIGNAL = /^\{\s*"resource(Metrics|Logs|Profiles)"/;
const ZSTD_MAGIC = 0xfd2fb528; // little-endian on the wire: 28 b5 2f fd
const KNOWN_FORMATS =
  'routescope reads OTLP/JSON (JSON lines or one document, Jaeger v2 and Tempo wrappers), the Collector file ' +
  "exporter's proto and zstd output, gzip, and Jaeger v1 JSON";

// The pre-filter is only sound while every routing string carries the marker; fail loudly at load otherwise.
for (const name of [...ROUTING_ATTRIBUTE_KEYS, ...ROUTING_SPAN_AND_EVENT_NAMES]) {
  if (!name.includes(ROUTING_MARKER)) throw new Error(`routing name ${name} lacks ${ROUTING_MARKER}`);
}

/** What one input file is, judged from its first bytes. */
type Sniffed =
  | { readonly kind: 'empty' | 'gzip' | 'zstd' | 'framed' | 'json-lines' | 'json-document' }
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

/** JSON lines, or the start of one pretty-printed document? Looks at the first two non-empty lines. */
function looksLikeDocument(head: Buffer, ended: boolean): boolean {
  const lines: string[] = [];
  let pos = hasBom(head) ? 3 : 0;
  while (lines.length < 2 && pos < head.length) {
    let nl = head.indexOf(0x0a, pos);
    if (nl === -1) {
      if (!ended) break;
      nl = head.length;
    }
    const line = head.toString('utf8', pos, nl).trim();
    pos = nl + 1;
    if (line !== '') lines.push(line);
  }
  const first = lines[0];
  if (first === undefined) return false;
  const second = lines[1];
  if (second === undefined || !(first.startsWith('{') || first.startsWith('['))) return false;
  if (parsesAsJson(first)) return false;
  // In JSON lines the next line is another whole object; in a document it is a key or a nested opener.
  return !(second.startsWith('{') && second !== '{');
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
      return { kind: 'unknown', reason: 'text that is not JSON (it does not start with { or [)' };
    }
    return { kind: looksLikeDocument(head, ended) ? 'json-document' : 'json-lines' };
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

function countOccurrences(buf: Buffer, pattern: Buffer): number {
  let count = 0;
  let at = buf.indexOf(pattern);
  while (at !== -1) {
    count++;
    at = buf.indexOf(pattern, at + pattern.length);
  }
  return count;
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
 * name contains ROUTING_MARKER, so a line without it is not parsed; its spans are counted by occurrences of
 * `"startTimeUnixNano"` (exactly one per OTLP span: events say `timeUnixNano`, links carry no time, and an
 * escaped quote inside a string cannot match) or else `"operationName"` (one per Jaeger span). Its brackets
 * must still balance (checkJsonStructure) and it must hold one request, so truncation, glued writes and
 * garbage are reported; a flipped byte inside it is not seen (the price of not parsing). A line with no span
 * marker at all is parsed, so a wrong shape is reported; metrics and logs requests sharing the file are skipped.
 */
function readJsonLine(ctx: FileContext, raw: Buffer, line: number, out: TraceRecord[]): void {
  let start = line === 1 && hasBom(raw) ? 3 : 0;
  let end = raw.length;
  while (start < end && isSpace(raw[start])) start++;
  while (end > start && isSpace(raw[end - 1])) end--;
  if (start === end) return;
  ctx.stats.lines++;
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
    if (
      !isWholeJsonContainer(body) ||
      (opener !== -1 && body.indexOf(OTLP_REQUEST_OPENER, opener + 1) !== -1)
    ) {
      if (recover && recoverGluedRequest(ctx, body, line, out)) return;
      badLine(
        ctx,
        line,
        body[0] === 0x7b || body[0] === 0x5b
          ? 'not one whole JSON object (truncated, or glued to the next write: its brackets do not balance)'
          : 'not JSON (garbage where a JSON object was expected)',
      );
      return;
    }
    if (OTHER_SIGNAL.test(body.toString('latin1', 0, 40))) return;
    let spans = countOccurrences(body, OTLP_SPAN_MARKER);
    if (spans === 0) spans = countOccurrences(body, JAEGER_SPAN_MARKER);
    if (spans > 0) {
      ctx.builder.countPlainSpans(spans);
      return;
    }
    // No span marker at all: cheap to parse, and a wrong shape gets reported.
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
  badLine(ctx, line, unparseable);
}

async function* readJsonLines(ctx: FileContext, stream: ByteStream): AsyncGenerator<TraceRecord> {
  const out: TraceRecord[] = [];
  for await (const raw of splitLines(stream, MAX_LINE_BYTES)) {
    const line = ++ctx.line;
    if (raw === null) {
      ctx.stats.lines++;
      badLine(ctx, line, `line longer than ${MAX_LINE_BYTES} bytes; skipped without reading it`);
      continue;
    }
    readJsonLine(ctx, raw, line, out);
    if (out.length > 0) {
      yield* out;
      out.length = 0;
    }
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
  try {
    value = JSON.parse(all.toString('utf8', hasBom(all) ? 3 : 0));
  } catch (error) {
    if (holdsJsonLines(all)) {
      // Not one document after all: JSON lines whose first lines were broken. Read it line by line.
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
      0,
      `the JSON document is not valid (truncated or corrupt), nothing in it was read: ${sanitizeMessage(message, 120)}`,
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
  const { readLengthFramed } = await import('./readLengthFramed.js');
  const { countOtlpProtoSpans, decodeOtlpProtoRequest } = await import('./decodeOtlpProto.js');
  const { decompressZstdFrame } = await import('./decompressStream.js');
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

async function* readStream(ctx: FileContext, source: ByteStream, depth: number): AsyncGenerator<TraceRecord> {
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
        const { gunzipStream, unzstdStream } = await import('./decompressStream.js');
        yield* readStream(
          ctx,
          sniffed.kind === 'gzip' ? gunzipStream(ownChunks(stream)) : unzstdStream(ownChunks(stream)),
          depth + 1,
        );
        return;
      }
    case 'framed':
      yield* readFramed(ctx, ownChunks(stream));
      return;
    case 'json-lines':
      yield* readJsonLines(ctx, stream);
      return;
    case 'json-document':
      yield* readJsonDocument(ctx, ownChunks(stream));
      return;
    case 'unknown':
      rejectFormat(ctx, depth > 0 ? `compressed ${sniffed.reason}` : sniffed.reason);
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
    badLine(
      ctx,
      ctx.line + 1,
      `stopped reading here: ${sanitizeMessage(message, 120)} (truncated or corrupt); the rest of the file was not read`,
    );
  }
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
      const handle = await openInputFile(file.path, input);
      let totalBytes: number | undefined;
      try {
        const info = await handle.stat();
        if (info.isFile()) totalBytes = info.size;
      } catch {
        // Size is only for progress (and a file that cannot be stat'ed is read in order, as a pipe is).
      }
      const ctx: FileContext = { file: file.path, named: file.named, stats, builder, events, line: 0 };
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
  let handle: FileHandle;
  try {
    handle = await openInputFile(unit.file, unit.file);
  } catch (error) {
    if (error instanceof InputError) return result(error);
    throw error;
  }
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
