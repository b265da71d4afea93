/**
 * readTraceInputs — stream normalized routing records out of trace files, folders and stdin, in one pass.
 *
 * Each file is opened (openInputFile), its format found from its first bytes and read by that format's reader
 * (formats/readOneInput: sniffFormat, then JSON lines, one JSON document, or the Collector's framed records,
 * decompressed first when gzip or zstd). Memory follows the longest line or record, never the file
 * (formats/readLimits). Bad lines, broken records and incomplete routing spans go to `stats.problems` with file
 * and line, and a file that held no span or event at all is named in `stats.filesWithoutTraces`; only an input that cannot be read at all, or a named file in no known format, throws InputError.
 * Trace stores and `--jobs` are beside this: readAllInputs puts files and stores into one stream.
 */
import { createTraceRecordBuilder, DEDUPE_GENERATION, type TraceRecordBuilder } from './buildTraceRecords.js';
import { DEFAULT_HELD_EVENT_RECORDS } from './crossSourceFilter.js';
import { markBeforeFile, noteFileWithoutTraces } from './filesWithoutTraces.js';
import { toByteStream } from './bytes/peekStream.js';
import { readFileChunks } from './bytes/readFileChunks.js';
import type { FileContext } from './formats/fileContext.js';
import { DEFAULT_EVENT_LOG_OPTIONS, type EventLogOptions } from './formats/readAgentfootprintEvent.js';
import { readOneInput, type ProgressListener } from './formats/readOneInput.js';
import { listInputFiles, type InputFile } from './listInputFiles.js';
import { openForReading, reportSkipped } from './openInputFile.js';
import type { ReadStats, ScannerChoice } from './types.js';
import type { TraceRecord } from '../record/types.js';

/** Options of a read. */
export interface ReadOptions {
  /** The stream read for the input '-' @default process.stdin */
  stdin?: NodeJS.ReadableStream;
  /** Called as raw bytes are read (about every MiB and at the end of each input). */
  onProgress?: ProgressListener;
  /**
   * The record builder, and with it the duplicate filter, to share with other reads (the CLI shares one
   * between files and trace stores, so a span found in both counts once). It must count into `stats`, and
   * whoever passes it releases what it holds at the end (`releaseHeld`).
   * @default a fresh one, holding event-log records for their span twins and releasing them at the end
   */
  builder?: TraceRecordBuilder;
  /** How agentfootprint event logs are judged. @default DEFAULT_EVENT_LOG_OPTIONS */
  events?: EventLogOptions;
  /**
   * Walk every byte of every JSON line instead of skipping to the routing spans of lines in the Collector's
   * shape: slower, and sees damage in the middle of a line that the skipping read cannot
   * (fastPath/skipToRoutingSpans). @default false
   */
  exact?: boolean;
  /**
   * Which scanner indexes the lines the fast path skips through: the WebAssembly SIMD one where this runtime can
   * run it (else the JavaScript one, and stats.scan says why), or the JavaScript one. @default 'simd'
   */
  scanner?: ScannerChoice;
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
  // A builder of our own holds event-log records back for a span twin, and releases them at the end.
  const own = options.builder === undefined;
  const builder = options.builder ?? createHoldingBuilder(stats);
  const events = options.events ?? DEFAULT_EVENT_LOG_OPTIONS;
  const exact = options.exact === true;
  const scanner = options.scanner ?? 'simd';
  if (exact) stats.scan.exact = true;
  // Expand and check every path before reading any: a typo in the last input fails at once, not after hours.
  const expanded: Array<{ input: string; files: InputFile[] | undefined }> = [];
  for (const input of inputs) {
    expanded.push({ input, files: input === '-' ? undefined : await listInputFiles(input) });
  }
  for (const { input, files } of expanded) {
    if (files === undefined) {
      const stdin = options.stdin ?? process.stdin;
      const ctx: FileContext = { file: '-', named: true, stats, builder, events, exact, scanner, line: 0 };
      yield* readOneInput(ctx, toByteStream(stdin as AsyncIterable<unknown>), undefined, options.onProgress);
      continue;
    }
    for (const file of files) {
      if (file.skip !== undefined) {
        reportSkipped(stats, file.path, file.skip);
        continue;
      }
      const ctx: FileContext = {
        file: file.path,
        named: file.named,
        stats,
        builder,
        events,
        exact,
        scanner,
        line: 0,
      };
      const handle = await openForReading(ctx, input);
      if (handle === undefined) continue;
      let totalBytes: number | undefined;
      try {
        const info = await handle.stat();
        if (info.isFile()) totalBytes = info.size;
      } catch {
        // Size is only for progress (and a file that cannot be stat'ed is read in order, as a pipe is).
      }
      const before = markBeforeFile(stats);
      try {
        // Only a regular file is read by position; a pipe or device is read in order from where it stands.
        const chunks = readFileChunks(handle, totalBytes === undefined ? null : 0);
        yield* readOneInput(ctx, chunks, totalBytes, options.onProgress);
      } finally {
        await handle.close();
      }
      noteFileWithoutTraces(stats, file.path, before);
    }
  }
  if (own) yield* releaseHeld(builder);
}

/** A builder that holds event-log records for their span twins (crossSourceFilter); release them at the end. */
export function createHoldingBuilder(stats: ReadStats): TraceRecordBuilder {
  return createTraceRecordBuilder(stats, DEDUPE_GENERATION, { holdEventRecords: DEFAULT_HELD_EVENT_RECORDS });
}

/** The records `builder` still holds, in the order they arrived. */
export function releaseHeld(builder: TraceRecordBuilder): TraceRecord[] {
  const out: TraceRecord[] = [];
  builder.releaseHeld?.(out);
  return out;
}
