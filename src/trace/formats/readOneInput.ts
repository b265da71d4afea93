/**
 * readOneInput — one input's bytes into records: sniffed, decompressed when compressed, and handed to the reader
 * of its format.
 *
 * The one place that knows every format: gzip and zstd (up to twice over), the Collector's framed files, JSON
 * lines, a JSON array one element per line, and one pretty-printed document. A stream that fails part-way keeps
 * what was read and says where it stopped; only an input in no known format (named by the user) throws.
 */
import { ownChunks } from '../bytes/readFileChunks.js';
import { peekStream, type ByteStream } from '../bytes/peekStream.js';
import { InputError } from '../inputError.js';
import { sanitizeMessage } from '../normalizeSpanFields.js';
import type { TraceRecord } from '../../record/types.js';
import { badLine, rejectFormat, type FileContext } from './fileContext.js';
import { readFramed } from './readFramed.js';
import { readJsonDocument } from './readJsonDocument.js';
import { readJsonLines } from './readJsonLines.js';
import { SNIFF_BYTES, sniffFormat } from './sniffFormat.js';

/** Told as raw bytes are read (about every MiB and at the end of each input). */
export type ProgressListener = (p: { file: string; bytesRead: number; totalBytes?: number }) => void;

const PROGRESS_EVERY = 1024 * 1024;
const MAX_NESTED_COMPRESSION = 2;

async function* readStream(
  ctx: FileContext,
  source: ByteStream,
  depth: number,
  compressed?: 'gzip' | 'zstd',
): AsyncGenerator<TraceRecord> {
  const { head, ended, stream } = await peekStream(source, SNIFF_BYTES);
  const sniffed = sniffFormat(head, ended);
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
        const { gunzipStream, unzstdStream } = await import('../bytes/decompressStream.js');
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
  onProgress: ProgressListener | undefined,
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

/** Read one input (a file, stdin, a unit of one): its format found from its first bytes. */
export async function* readOneInput(
  ctx: FileContext,
  source: ByteStream,
  totalBytes: number | undefined,
  onProgress?: ProgressListener,
): AsyncGenerator<TraceRecord> {
  ctx.stats.files++;
  try {
    yield* readStream(ctx, countBytes(source, ctx.file, totalBytes, onProgress), 0);
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
