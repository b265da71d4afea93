/**
 * readInParallel — `--jobs N`: the same records and stats as readTraceInputs, read by N worker threads.
 *
 * Each file is a unit; a plain JSON-lines file of 2·SPLIT_MIN_BYTES or more is cut at line ends into parts of
 * about size ÷ 16N. Workers read each unit as one thread reads (readInputUnit) up to the duplicate check, and
 * hand what each candidate span gives over packed as bytes, moved without a copy (and handed back to be
 * reused); objects cost more to hand over than they save. The main thread unpacks and merges strictly in unit
 * order through one record builder and its one duplicate filter, with line numbers shifted by the parts
 * before, so records, order, problems and duplicates are those of `--jobs 1`.
 * Read on one thread instead: stdin ('-'), and inputs under PARALLEL_MIN_BYTES in all. Without the compiled
 * worker script (tests run the sources) units run on this thread through the same code. At most 2N + 2 units
 * are read ahead of the merge.
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Mutable } from '../../policy/readEventFields.js';
import type { SpanOutcome } from '../buildTraceRecords.js';
import { InputError } from '../inputError.js';
import { listInputFiles } from '../listInputFiles.js';
import { reportProblem } from '../readStats.js';
import { markBeforeFile, noteFileWithoutTraces, type FileReadMark } from '../filesWithoutTraces.js';
import { isPlainJsonLines } from '../formats/sniffFormat.js';
import { MAX_LINE_BYTES } from '../formats/readLimits.js';
import { openInputFile } from '../openInputFile.js';
import { readInputUnit, type ReadUnit, type ReadUnitResult } from './readInputUnit.js';
import { readPackedValue } from '../bytes/packedValues.js';
import { createHoldingBuilder, readTraceInputs, releaseHeld, type ReadOptions } from '../readTraceInputs.js';
import type { ReadProblem, ReadStats } from '../types.js';
import type { RecordSource, TraceRecord } from '../../record/types.js';

/** Files smaller than this are never cut; parts are at least this long. */
export const SPLIT_MIN_BYTES = 8 * 1024 * 1024;
/**
 * Inputs smaller than this in all are read on one thread whatever `jobs` says: below it, starting the threads
 * and warming up each one's JIT cost more than they save (measured break-even on 2 cores: 300–500 MB;
 * docs/performance.md). The report is the same either way.
 */
export const PARALLEL_MIN_BYTES = 512 * 1024 * 1024;
const HEAD_BYTES = 64 * 1024;
const SEEK_STEP = 64 * 1024;

/** Reads units somewhere (worker threads, or this thread) and closes down when done. */
export interface UnitRunner {
  run(unit: ReadUnit): Promise<ReadUnitResult>;
  /** A merged unit's `packed` bytes, given back to be written over by a later unit. */
  recycle?(packed: Uint8Array): void;
  close(): Promise<void>;
}

/** Options of a parallel read. */
export interface ParallelReadOptions extends ReadOptions {
  /** Worker threads (1 reads on this thread, as readTraceInputs). */
  jobs: number;
  /** Where units run; default worker threads (or this thread without a compiled worker script). */
  runner?: UnitRunner;
  /** Override SPLIT_MIN_BYTES (tests cut small files). */
  splitMinBytes?: number;
  /** Override PARALLEL_MIN_BYTES (tests read small files in parallel). */
  parallelMinBytes?: number;
}

/** Units run on this thread, one at a time. */
export function createInThreadRunner(): UnitRunner {
  const spare: Buffer[] = [];
  return {
    run: (unit) => readInputUnit(unit, spare.pop()),
    recycle(packed) {
      // A few are enough: units read ahead take one each, and a merged unit gives its one back.
      if (spare.length < 4) spare.push(Buffer.from(packed.buffer, packed.byteOffset));
    },
    close: async () => {},
  };
}

/** A pool of `jobs` worker threads running readWorker.js; falls back to this thread without it. */
export function createWorkerRunner(jobs: number): UnitRunner {
  const script = new URL('./readWorker.js', import.meta.url);
  if (!existsSync(fileURLToPath(script))) return createInThreadRunner();
  const idle: Worker[] = [];
  const all: Worker[] = [];
  const waiting: Array<(worker: Worker) => void> = [];
  let nextId = 0;
  let recycled = 0;
  const take = (): Promise<Worker> => {
    const worker = idle.pop();
    if (worker !== undefined) return Promise.resolve(worker);
    if (all.length < jobs) {
      const fresh = new Worker(script);
      all.push(fresh);
      return Promise.resolve(fresh);
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const give = (worker: Worker): void => {
    const next = waiting.shift();
    if (next !== undefined) next(worker);
    else idle.push(worker);
  };
  return {
    async run(unit) {
      const worker = await take();
      const id = nextId++;
      try {
        return await new Promise<ReadUnitResult>((resolve, reject) => {
          const onMessage = (m: { id: number; result?: ReadUnitResult; error?: string }): void => {
            if (m.id !== id) return;
            worker.off('message', onMessage);
            worker.off('error', onError);
            if (m.result !== undefined) resolve(m.result);
            else reject(new Error(m.error ?? 'the reader thread failed'));
          };
          const onError = (error: Error): void => {
            worker.off('message', onMessage);
            reject(error);
          };
          worker.on('message', onMessage);
          worker.once('error', onError);
          worker.postMessage({ id, unit });
        });
      } finally {
        give(worker);
      }
    },
    recycle(packed) {
      // To the workers in turn: each keeps what it is given for its next units.
      const worker = all[recycled++ % all.length];
      const buffer = packed.buffer as ArrayBuffer;
      if (worker !== undefined && buffer.byteLength > 0) worker.postMessage({ recycle: buffer }, [buffer]);
    },
    async close() {
      await Promise.all(all.map((w) => w.terminate()));
    },
  };
}

/** The byte offset just past the first `\n` at or after `from`, or undefined (none within a line's bound). */
async function lineEndAfter(
  handle: Awaited<ReturnType<typeof openInputFile>>,
  from: number,
  size: number,
): Promise<number | undefined> {
  const buf = Buffer.allocUnsafe(SEEK_STEP);
  for (let at = from; at < size && at - from <= MAX_LINE_BYTES; at += SEEK_STEP) {
    const { bytesRead } = await handle.read(buf, 0, SEEK_STEP, at);
    if (bytesRead === 0) return undefined;
    const nl = buf.subarray(0, bytesRead).indexOf(0x0a);
    if (nl !== -1) return at + nl + 1;
  }
  return undefined;
}

/** The units of every input, in read order. */
async function planUnits(inputs: readonly string[], jobs: number, splitMin: number): Promise<ReadUnit[]> {
  const expanded: Array<{ input: string; files: Awaited<ReturnType<typeof listInputFiles>> }> = [];
  for (const input of inputs) expanded.push({ input, files: await listInputFiles(input) });
  const units: ReadUnit[] = [];
  for (const { input, files } of expanded) {
    for (const file of files) {
      if (file.skip !== undefined) {
        units.push({ file: file.path, named: false, start: 0, split: false, skip: file.skip });
        continue;
      }
      // A pipe or device is one unit, and not opened here: opening a pipe and closing it again before its
      // reader opens it would leave the writer with no reader (EPIPE) and lose what it had written.
      const kind = await stat(file.path).catch(() => undefined);
      if (kind !== undefined && !kind.isFile()) {
        units.push({ file: file.path, named: file.named, start: 0, split: false });
        continue;
      }
      let handle: Awaited<ReturnType<typeof openInputFile>>;
      try {
        handle = await openInputFile(file.path, input);
      } catch (error) {
        // One in a folder that cannot be opened: its unit fails to open it too, and reports it.
        if (file.named || !(error instanceof InputError)) throw error;
        units.push({ file: file.path, named: false, start: 0, split: false });
        continue;
      }
      try {
        const info = await handle.stat();
        const size = info.isFile() ? info.size : undefined;
        const whole: ReadUnit = {
          file: file.path,
          named: file.named,
          start: 0,
          split: false,
          ...(size === undefined ? {} : { size }),
        };
        if (!info.isFile() || info.size < 2 * splitMin) {
          units.push(whole);
          continue;
        }
        const head = Buffer.allocUnsafe(HEAD_BYTES);
        const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
        if (!isPlainJsonLines(head.subarray(0, bytesRead), bytesRead < HEAD_BYTES)) {
          units.push(whole);
          continue;
        }
        const part = Math.max(splitMin, Math.ceil(info.size / (16 * jobs)));
        let start = 0;
        while (start < info.size) {
          const end =
            start + part >= info.size ? undefined : await lineEndAfter(handle, start + part - 1, info.size);
          units.push({
            file: file.path,
            named: file.named,
            start,
            ...(end === undefined ? {} : { end }),
            split: true,
            size: info.size,
          });
          if (end === undefined) break;
          start = end;
        }
      } finally {
        await handle.close();
      }
    }
  }
  return units;
}

/** A problem of a part, its line shifted to the file's numbering (a part's line 1 is `offset + 1`). */
function shift(problem: ReadProblem, unit: ReadUnit, offset: number): ReadProblem {
  return unit.split && problem.line > 0 ? { ...problem, line: problem.line + offset } : problem;
}

/**
 * A part's outcome, just unpacked, with its line numbers shifted to the file's numbering in place: unpacking
 * made every object afresh and shares none between records, so nothing else sees them change.
 */
function shiftUnpacked(outcome: SpanOutcome, offset: number): SpanOutcome {
  if (outcome.kind === 'plain') return outcome;
  if (outcome.kind === 'problem') {
    (outcome.problem as Mutable<ReadProblem>).line += offset;
    return outcome;
  }
  for (const p of outcome.problems) (p as Mutable<ReadProblem>).line += offset;
  for (const r of outcome.records) (r.source as Mutable<RecordSource>).line += offset;
  return outcome;
}

/**
 * Stream records from files and folders with `jobs` threads; same records, order and stats as
 * readTraceInputs. Throws InputError as it does (a missing input before anything is read).
 */
export async function* readInParallel(
  inputs: readonly string[],
  stats: ReadStats,
  options: ParallelReadOptions,
): AsyncGenerator<TraceRecord> {
  if (options.jobs <= 1 || inputs.includes('-')) {
    yield* readTraceInputs(inputs, stats, options);
    return;
  }
  const units = await planUnits(inputs, options.jobs, options.splitMinBytes ?? SPLIT_MIN_BYTES);
  let total = 0;
  for (const unit of units) total += (unit.end ?? unit.size ?? Infinity) - unit.start;
  if (total < (options.parallelMinBytes ?? PARALLEL_MIN_BYTES)) {
    yield* readTraceInputs(inputs, stats, options);
    return;
  }
  if (options.exact === true) stats.scan.exact = true;
  const runner = options.runner ?? createWorkerRunner(options.jobs);
  const own = options.builder === undefined;
  const builder = options.builder ?? createHoldingBuilder(stats);
  const applyOutcome = builder.applySpanOutcome!;
  const pending: Array<Promise<ReadUnitResult>> = [];
  let launched = 0;
  const launch = (): void => {
    while (launched < units.length && pending.length < 2 * options.jobs + 2) {
      const unit = units[launched++]!;
      const promise = runner.run({
        ...unit,
        ...(options.events === undefined ? {} : { events: options.events }),
        ...(options.exact === true ? { exact: true } : {}),
        ...(options.scanner === undefined ? {} : { scanner: options.scanner }),
      });
      promise.catch(() => {}); // awaited in order below; keep an early failure from being unhandled
      pending.push(promise);
    }
  };
  let lineOffset = 0;
  let lastFile: string | undefined;
  // The counters before the current file's first unit, to name it when its units held nothing; undefined for
  // a unit that only reports a folder entry it skipped.
  let fileMark: FileReadMark | undefined;
  const endFile = (): void => {
    if (lastFile !== undefined && fileMark !== undefined) noteFileWithoutTraces(stats, lastFile, fileMark);
  };
  const out: TraceRecord[] = [];
  try {
    for (const unit of units) {
      launch();
      const result = await pending.shift()!;
      if (unit.file !== lastFile) {
        endFile();
        lastFile = unit.file;
        lineOffset = 0;
        fileMark = unit.skip === undefined ? markBeforeFile(stats) : undefined;
        if (unit.split) stats.files++;
      }
      const r = result.stats;
      stats.files += r.files;
      stats.lines += r.lines;
      stats.spans += r.spans;
      stats.nonRoutingSpans += r.nonRoutingSpans;
      stats.events += r.events;
      stats.otherEvents += r.otherEvents;
      stats.scan.simdLines += r.scan.simdLines;
      stats.scan.javascriptLines += r.scan.javascriptLines;
      stats.scan.simdUnavailable ??= r.scan.simdUnavailable;
      const offset = lineOffset - result.lineBase;
      let merged = 0;
      const mergeProblemsUpTo = (count: number): void => {
        for (; merged < count; merged++) {
          const problem = r.problems[merged];
          if (problem === undefined) stats.problemsDropped++;
          else reportProblem(stats, shift(problem, unit, offset));
        }
      };
      const packed = Buffer.from(result.packed.buffer, result.packed.byteOffset, result.packed.byteLength);
      const { keys, shared } = result.tables;
      for (const entry of result.spans) {
        mergeProblemsUpTo(entry.problemsBefore);
        const outcome = readPackedValue(packed, entry.start, entry.end, keys, shared) as SpanOutcome;
        applyOutcome(unit.split ? shiftUnpacked(outcome, offset) : outcome, out);
        if (out.length > 0) {
          yield* out;
          out.length = 0;
        }
      }
      mergeProblemsUpTo(r.problems.length + r.problemsDropped);
      // Every outcome has been unpacked into objects: the bytes can be written over.
      runner.recycle?.(result.packed);
      if (result.inputError !== undefined)
        throw new InputError(result.inputError.message, result.inputError.input);
      lineOffset += result.lines;
      const bytesRead = unit.end ?? unit.size;
      if (bytesRead !== undefined) {
        options.onProgress?.({
          file: unit.file,
          bytesRead,
          ...(unit.size === undefined ? {} : { totalBytes: unit.size }),
        });
      }
    }
    endFile();
    // Every unit has met the one builder: the event records it held for a span twin go out now.
    if (own) yield* releaseHeld(builder);
  } finally {
    await runner.close();
  }
}
