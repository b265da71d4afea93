/**
 * readJsonDocument — one pretty-printed JSON document (an OTLP/JSON request, a Jaeger download), parsed whole.
 *
 * Held in memory up to MAX_DOCUMENT_BYTES (a larger one is rejected with how to convert it to JSON lines). Text
 * that does not parse as one document and is not indented like one is JSON lines after all, so each broken line
 * is reported at its own number; a damaged document is reported at the line where it stops being JSON.
 */
import type { ByteStream } from '../bytes/peekStream.js';
import { sanitizeMessage } from '../normalizeSpanFields.js';
import type { TraceRecord } from '../../record/types.js';
import { isWholeJsonContainer } from './fastPath/checkJsonStructure.js';
import { findJsonError } from './fastPath/isJsonValue.js';
import { badLine, rejectFormat, type FileContext } from './fileContext.js';
import { isJsonSpace } from './jsonBytes.js';
import { readJsonLines } from './readJsonLines.js';
import { readJsonTraceValue } from './readJsonTraceValue.js';
import { MAX_DOCUMENT_BYTES } from './readLimits.js';
import { hasBom } from './sniffFormat.js';

/** Read one whole JSON document; see the module comment for what is reported where. */
export async function* readJsonDocument(ctx: FileContext, stream: ByteStream): AsyncGenerator<TraceRecord> {
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
  while (i < all.length && isJsonSpace(all[i])) i++;
  return all[i];
}

/** Is any line indented, as in a pretty-printed document (and never in JSON lines)? */
function isIndented(all: Buffer): boolean {
  return all.indexOf('\n ') !== -1 || all.indexOf('\n\t') !== -1;
}

/** The 1-based line where a document stops being JSON (its last non-blank line when it ends too soon). */
function lineOfJsonError(all: Buffer): number {
  let last = all.length;
  while (last > 0 && isJsonSpace(all[last - 1])) last--;
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
    while (end > start && isJsonSpace(all[end - 1])) end--;
    // Inside a pretty-printed document every line but the first and last is indented.
    if (end - start > 2 && isWholeJsonContainer(all.subarray(start, end))) return true;
    start = nl + 1;
  }
  return false;
}
