/**
 * readInputUnit — what one `--jobs` reader thread does with one unit: a whole file, or a byte range of a
 * JSON-lines file cut at line ends.
 *
 * A unit is read as one thread reads a file (the skipping read, each routing span decoded from its bytes) up
 * to the duplicate check, so the main thread can merge units in input order through its one record builder
 * (readInParallel): what each candidate span gives (classifySpan's outcome: its records and problems) is worked
 * out here and packed into bytes (packedRecords), which move to the main thread without a copy, with the
 * packer's tables beside them. Structured cloning the outcomes as objects cost the main thread more than
 * reading the spans itself; unpacking one costs it about 5 µs, decoding one about 20 (docs/performance.md).
 */
import type { FileHandle } from 'node:fs/promises';
import { classifySpan, type SpanOutcome, type TraceRecordBuilder } from '../buildTraceRecords.js';
import { createRecordPacker, type PackerTables } from '../bytes/packedRecords.js';
import { ByteSink } from '../bytes/byteSink.js';
import type { ByteStream } from '../bytes/peekStream.js';
import { readFileChunks } from '../bytes/readFileChunks.js';
import { badLine, type FileContext } from '../formats/fileContext.js';
import { DEFAULT_EVENT_LOG_OPTIONS, type EventLogOptions } from '../formats/readAgentfootprintEvent.js';
import { readJsonLines } from '../formats/readJsonLines.js';
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

/** What one candidate span gave: packed into bytes [start, end) of the unit's `packed`. */
export interface PackedOutcome {
  readonly start: number;
  readonly end: number;
  /** Problems of the unit reported before this span. */
  readonly problemsBefore: number;
}

/** What reading one unit found, to be merged in unit order (see readInParallel.ts). */
export interface ReadUnitResult {
  /** Counters and problems; line numbers of a split unit are relative (1 = the unit's first line). */
  readonly stats: ReadStats;
  /** What each candidate span gives (its SpanOutcome), in order. */
  readonly spans: PackedOutcome[];
  /** The outcomes, packed one after another (transferred from a worker, not copied). */
  readonly packed: Uint8Array;
  /** The packer's tables, to read `packed` with (readPackedValue). */
  readonly tables: PackerTables;
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
 * across units are caught exactly as in a single-threaded read. The outcomes are packed into `packed`
 * (written over `reuse`, a buffer handed back, if given).
 */
export async function readInputUnit(unit: ReadUnit, reuse?: Buffer): Promise<ReadUnitResult> {
  const stats = createReadStats();
  const spans: PackedOutcome[] = [];
  const sink = new ByteSink(reuse);
  const packer = createRecordPacker();
  const keep = (outcome: SpanOutcome): void => {
    const start = sink.length;
    const packed = packer.pack(outcome);
    sink.writeBytes(packed, 0, packed.length);
    spans.push({ start, end: sink.length, problemsBefore: countProblems(stats) });
  };
  const forward: TraceRecordBuilder = {
    countPlainSpans(count) {
      stats.spans += count;
      stats.nonRoutingSpans += count;
    },
    addSpan(span, resource, source) {
      keep(classifySpan(span, resource, source));
    },
    applySpanOutcome: keep,
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
  };
  // What was read so far; an input that cannot be read (or stops being readable) ends the unit with its error.
  const result = (error?: InputError): ReadUnitResult => ({
    stats,
    spans,
    packed: sink.bytes.subarray(0, sink.length),
    tables: packer.tables(),
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
