/**
 * ingestPayload — one received body, already decompressed, through the CLI's own readers, staged until it is kept.
 *
 * `serve` reads nothing its own way. An OTLP/JSON request is read as a line of a file is: through the fast path
 * (fastPath/readWithoutParsing, which parses only the routing spans of a request in the exporters' plain
 * shape), else parsed whole and read by readJsonTraceValue. A protobuf one goes through decodeOtlpProtoSteps (a slice at a time),
 * and an agentfootprint event log (JSON lines) through readOneInput. All of them go through the one record
 * builder the server keeps, so a span an exporter retried counts once, exactly as a span written twice into
 * files does. What the body held is told back for the OTLP response: spans accepted, and spans rejected (a
 * routing span that could not be decoded) with the first reason, which is the partial success of the OTLP/HTTP
 * protocol. A body that is not what its route reads is an `invalid` outcome with the reason.
 *
 * Reading changes nothing: the readers write into a staging builder (each span classified, classifySpan being
 * pure) and statistics of the body's own, and only `commit` applies the body to the duplicate filter and the
 * running statistics, in input order, as one reading. So a body the receiver refuses after reading it (its
 * `--out` line could not be written, serve is stopping) leaves no trace anywhere, and an exporter's corrected
 * resend is read as new. No I/O.
 */
import { InputError } from '../trace/inputError.js';
import { classifySpan, type SpanOutcome, type TraceRecordBuilder } from '../trace/buildTraceRecords.js';
import { decodeOtlpProtoSteps, ProtoWireError } from '../trace/formats/decodeOtlpProto.js';
import type { FileContext } from '../trace/formats/fileContext.js';
import type { EventLogOptions } from '../trace/formats/readAgentfootprintEvent.js';
import { readJsonTraceValue } from '../trace/formats/readJsonTraceValue.js';
import { readWithoutParsingSteps } from '../trace/formats/fastPath/readWithoutParsing.js';
import { readOneInput } from '../trace/formats/readOneInput.js';
import { addReadCounts, countProblems, createReadStats } from '../trace/readStats.js';
import type { ReadStats } from '../trace/types.js';
import type { TraceRecord } from '../record/types.js';
import { createSlicer } from './sliceWork.js';

/** What a body is, by its route and content type. */
export type PayloadKind = 'otlp-json' | 'otlp-protobuf' | 'event-log';

/** What one body gave, once kept. */
export interface CommittedReading {
  readonly records: readonly TraceRecord[];
  /** Spans (or events) the body held. */
  readonly items: number;
  /** Of those, the ones that could not be read (bad routing spans, bad lines). */
  readonly rejected: number;
  /** The first rejection's reason. */
  readonly message?: string;
}

/** A body read and not yet kept: nothing outside it has changed. */
export interface StagedReading {
  /** Spans (or events) the body held. */
  readonly items: number;
  /** Keep it: the duplicate filter and the running statistics take the body, and its records come out. Once. */
  commit(): CommittedReading;
}

/** What reading one body gave. */
export type IngestOutcome =
  | { readonly kind: 'staged'; readonly reading: StagedReading }
  | { readonly kind: 'invalid'; readonly reason: string };

/** Where a body's records come from, and what they count into. */
export interface IngestContext {
  readonly builder: TraceRecordBuilder;
  readonly stats: ReadStats;
  readonly events: EventLogOptions;
}

/** Read one body. `label` names it in problems and record sources (`POST /v1/traces #12`). */
export async function ingestPayload(
  kind: PayloadKind,
  body: Buffer,
  label: string,
  ctx: IngestContext,
): Promise<IngestOutcome> {
  const staging = createStagingBuilder();
  const local: IngestContext = { builder: staging, stats: createReadStats(), events: ctx.events };
  // The readers push no record themselves: every record comes from a span or event outcome, staged.
  const out: TraceRecord[] = [];
  const source = { file: label, line: 0 };
  try {
    switch (kind) {
      case 'otlp-protobuf': {
        // A slice at a time: 16 MiB of tiny spans is millions of them.
        const slicer = createSlicer(undefined, 1);
        const steps = decodeOtlpProtoSteps(body, source, local.builder, out);
        while (steps.next().done !== true) {
          const pause = slicer.pause();
          if (pause !== undefined) await pause;
        }
        break;
      }
      case 'otlp-json': {
        // A file's line goes the same way: the fast path parses only the routing spans of a request in the
        // exporters' plain shape; anything else (or any doubt) is parsed whole.
        let shape: string | undefined;
        const file = fileContext(label, local);
        // The reader hands over the context to read into (its own, while it holds a request's outcomes back).
        const steps = readWithoutParsingSteps(file, body, 0, out, (reading, value, __, into) => {
          shape = readJsonTraceValue(value, source, reading.builder, into);
        });
        // A slice at a time: a request of thousands of routing spans takes hundreds of milliseconds.
        const slicer = createSlicer(undefined, 1);
        let step = steps.next();
        while (step.done !== true) {
          const pause = slicer.pause();
          if (pause !== undefined) await pause;
          step = steps.next();
        }
        const scanned = step.value;
        if (!scanned) {
          let value: unknown;
          const text = body.toString('utf8');
          try {
            value = JSON.parse(text);
          } catch (error) {
            return { kind: 'invalid', reason: describeUnparsedBody(text, (error as Error).message) };
          }
          shape = readJsonTraceValue(value, source, local.builder, out);
        }
        if (shape !== undefined) return { kind: 'invalid', reason: shape };
        break;
      }
      case 'event-log': {
        const file = fileContext(label, local);
        for await (const record of readOneInput(file, slicedChunks(body), body.length)) out.push(record);
        break;
      }
    }
  } catch (error) {
    if (error instanceof ProtoWireError)
      return { kind: 'invalid', reason: `not an OTLP protobuf request: ${error.message}` };
    if (error instanceof InputError) return { kind: 'invalid', reason: error.message };
    throw error;
  }
  if (out.length > 0) throw new Error('a reader pushed records past the staging builder');
  const scratch = local.stats;
  let committed = false;
  return {
    kind: 'staged',
    reading: {
      items: staging.spans + scratch.events,
      commit() {
        if (committed) throw new Error('a staged reading was committed twice');
        committed = true;
        return commitReading(staging.ops, scratch, ctx);
      },
    },
  };
}

/** What the readers did with one body, in order: span outcomes, and counts of plain spans. */
type StagedOp = SpanOutcome | number;

/** A record builder that only writes down what it is given (see the module comment). */
function createStagingBuilder(): TraceRecordBuilder & { readonly ops: StagedOp[]; readonly spans: number } {
  const ops: StagedOp[] = [];
  let spans = 0;
  return {
    ops,
    get spans() {
      return spans;
    },
    countPlainSpans(count) {
      spans += count;
      ops.push(count);
    },
    addSpan(span, resource, source) {
      spans++;
      ops.push(classifySpan(span, resource, source));
    },
    applySpanOutcome(outcome) {
      if (outcome.kind !== 'event') spans++;
      ops.push(outcome);
    },
  };
}

/** Apply one staged body to the running builder and statistics, as reading it there would have. */
function commitReading(ops: readonly StagedOp[], scratch: ReadStats, ctx: IngestContext): CommittedReading {
  const { stats, builder } = ctx;
  const apply = builder.applySpanOutcome;
  if (apply === undefined) throw new Error("serve's record builder must take span outcomes");
  const spansBefore = stats.spans;
  const eventsBefore = stats.events;
  const keptBefore = stats.problems.length;
  const problemsBefore = countProblems(stats);
  addReadCounts(stats, scratch);
  const records: TraceRecord[] = [];
  for (const op of ops) {
    if (typeof op === 'number') builder.countPlainSpans(op);
    else apply(op, records);
  }
  const problems = countProblems(stats) - problemsBefore;
  const reason =
    problems === 0
      ? undefined
      : (stats.problems[keptBefore]?.reason ??
        `${problems} could not be read (each is a line on serve's stderr)`);
  return {
    records,
    items: stats.spans - spansBefore + (stats.events - eventsBefore),
    rejected: problems,
    ...(reason === undefined ? {} : { message: reason }),
  };
}

function fileContext(label: string, ctx: IngestContext): FileContext {
  return { file: label, named: true, stats: ctx.stats, builder: ctx.builder, events: ctx.events, line: 0 };
}

/** Bytes of an event log read between two pauses (a few thousand lines: about 15 ms). */
const EVENT_LOG_SLICE = 256 * 1024;

/** The body in pieces, the event loop given back between them (the reader joins lines cut between two). */
async function* slicedChunks(body: Buffer): AsyncGenerator<Buffer> {
  if (body.length === 0) yield body;
  for (let at = 0; at < body.length; at += EVENT_LOG_SLICE) {
    if (at > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    yield body.subarray(at, at + EVENT_LOG_SLICE);
  }
}

/**
 * Why a JSON body did not parse, in the words that help: a file of JSON lines posted whole (a Collector file
 * export, a demo's traces.jsonl, an event log) is the usual cause, and says what to do instead of a parser position.
 */
export function describeUnparsedBody(text: string, parserMessage: string): string {
  // The non-blank lines, counted, and the first of them; no array of every line of a 16 MiB body.
  let count = 0;
  let firstLine = '';
  for (let at = 0; at <= text.length;) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end === -1 ? text.length : end);
    if (line.trim() !== '') {
      if (count++ === 0) firstLine = line;
    }
    if (end === -1) break;
    at = end + 1;
  }
  if (count > 1) {
    let first: unknown;
    try {
      first = JSON.parse(firstLine);
    } catch {
      first = undefined;
    }
    if (first !== null && typeof first === 'object') {
      const type = (first as { type?: unknown }).type;
      if (typeof type === 'string' && type.startsWith('agentfootprint.'))
        return `the body is ${count} lines of agentfootprint events: post an event log to /agentfootprint/events (content-type application/x-ndjson), or read it with routescope analyze`;
      return `the body is ${count} lines of JSON, and /v1/traces takes one OTLP request per body (as an exporter sends them); for a file of requests use routescope analyze FILE, or post its lines one at a time`;
    }
  }
  return `the body is not JSON: ${parserMessage}`;
}
