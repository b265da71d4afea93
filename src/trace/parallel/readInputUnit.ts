/**
 * readInputUnit — what one `--jobs` reader thread does with one unit: a whole file, or a byte range of a
 * JSON-lines file cut at line ends.
 *
 * A unit is read up to the duplicate check, so the main thread can merge units in input order through its one
 * record builder (readInParallel): each candidate span's outcome is worked out here (classifySpan), and routing
 * lines the scan can read are only scanned, their rebuilt requests handed over as bytes (readScannedLine reads
 * them on the main thread).
 */
import type { FileHandle } from 'node:fs/promises';
import { classifySpan, type SpanOutcome, type TraceRecordBuilder } from '../buildTraceRecords.js';
import { ByteSink } from '../bytes/byteSink.js';
import type { ByteStream } from '../bytes/peekStream.js';
import { readFileChunks } from '../bytes/readFileChunks.js';
import { badLine, type FileContext } from '../formats/fileContext.js';
import { DEFAULT_EVENT_LOG_OPTIONS, type EventLogOptions } from '../formats/readAgentfootprintEvent.js';
import { readJsonLines, readJsonText } from '../formats/readJsonLines.js';
import { readOneInput } from '../formats/readOneInput.js';
import { InputError } from '../inputError.js';
import { sanitizeMessage } from '../normalizeSpanFields.js';
import { openForReading, reportSkipped } from '../openInputFile.js';
import { countProblems, createReadStats } from '../readStats.js';
import type { ReadStats, ScannerChoice } from '../types.js';
import type { TraceRecord } from '../../record/types.js';

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
  /** Walk every byte of every line (ReadOptions.exact). */
  readonly exact?: boolean;
  /** The scanner that indexes lines (ReadOptions.scanner). @default 'simd' */
  readonly scanner?: ScannerChoice;
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
        problemsBefore: countProblems(stats),
      });
    },
    applySpanOutcome(outcome) {
      spans.push({ outcome, problemsBefore: countProblems(stats) });
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
    exact: unit.exact === true,
    scanner: unit.scanner ?? 'simd',
    line: lineBase,
    deferScanned: {
      sink,
      scanned(start, line) {
        const problemsBefore = countProblems(stats);
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
    const records = unit.split ? readSplitUnit(ctx, stream) : readOneInput(ctx, stream, undefined);
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
