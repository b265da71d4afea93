/**
 * readJsonLines — JSON lines (and a JSON array written one element per line) into records, one line at a time.
 *
 * Each line is one JSON text: JSON.parse, then readJsonTraceValue, or readAgentfootprintEvent for an event
 * log's line. Before parsing, a line goes through the fast path (fastPath/readWithoutParsing): a line that
 * cannot hold a routing span is only counted, and a routing line in the Collector's plain shape is read by
 * parsing only its routing spans; whatever the fast path declines is parsed whole here. A bad line is reported
 * with its number and never stops the read; a line longer than MAX_LINE_BYTES is skipped unbuffered.
 */
import type { ByteStream } from '../bytes/peekStream.js';
import { splitLines } from '../bytes/splitLines.js';
import { sanitizeMessage } from '../normalizeSpanFields.js';
import type { TraceRecord } from '../../record/types.js';
import { readWithoutParsing } from './fastPath/readWithoutParsing.js';
import { isWholeJsonContainer } from './fastPath/checkJsonStructure.js';
import { badLine, type FileContext } from './fileContext.js';
import { isJsonSpace } from './jsonBytes.js';
import { isAgentfootprintEvent, readAgentfootprintEvent } from './readAgentfootprintEvent.js';
import { readJsonTraceValue } from './readJsonTraceValue.js';
import { MAX_LINE_BYTES, OTLP_REQUEST_OPENER } from './readLimits.js';
import { hasBom } from './sniffFormat.js';
import { countProblems } from '../readStats.js';

/**
 * Parse one JSON text (a line, a decompressed record) and push its records. A wrong shape is reported here;
 * when the text is not valid JSON at all the reason is returned for the caller to report (or recover from).
 */
export function readJsonText(
  ctx: FileContext,
  text: string,
  line: number,
  out: TraceRecord[],
): string | undefined {
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
 * One JSON line: trimmed, counted, and read as one JSON body (readJsonBody). In an array written one element
 * per line (`array`), the `[`, `]` and the commas after elements are the array's, not the elements'.
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
  while (start < end && isJsonSpace(raw[start])) start++;
  while (end > start && isJsonSpace(raw[end - 1])) end--;
  if (start === end) return;
  ctx.stats.lines++;
  if (array !== undefined) {
    const problems = countProblems(ctx.stats);
    readArrayElementLine(ctx, raw, start, end, line, out, array);
    array.lastLineBad = countProblems(ctx.stats) > problems;
    return;
  }
  readJsonBody(ctx, raw.subarray(start, end), line, out, true);
}

/** Where the reading of an array written one element per line stands. */
export interface ArrayLines {
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
    while (start < end && isJsonSpace(raw[start])) start++;
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
    while (last > start && isJsonSpace(raw[last - 1])) last--;
    if (isWholeJsonContainer(raw.subarray(start, last))) {
      end = last;
      array.state = 'after';
    }
  }
  while (end > start && isJsonSpace(raw[end - 1])) end--;
  if (start === end) {
    badLine(ctx, line, 'an empty element (a comma with nothing before it) in the JSON array');
    return;
  }
  readJsonBody(ctx, raw.subarray(start, end), line, out, true);
}

/**
 * Read one JSON body (a line, or a framed record's JSON): through the fast path when it can
 * (readWithoutParsing), else parsed whole, a cut request glued to a later one recovered (`recover`), and
 * what does not parse reported.
 */
export function readJsonBody(
  ctx: FileContext,
  body: Buffer,
  line: number,
  out: TraceRecord[],
  recover: boolean,
): void {
  if (readWithoutParsing(ctx, body, line, out, readJsonValue)) return;
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

export async function* readJsonLines(
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
