/**
 * ingestPayload — one received body, already decompressed, through the CLI's own readers into records.
 *
 * `serve` reads nothing its own way. An OTLP/JSON request is read as a line of a file is: through the fast path
 * (fastPath/readWithoutParsing, which parses only the routing spans of a request in the exporters' plain
 * shape), else parsed whole and read by readJsonTraceValue. A protobuf one goes through decodeOtlpProtoRequest,
 * and an agentfootprint event log (JSON lines) through readOneInput. All of them go through the one record
 * builder the server keeps, so a span an exporter retried counts once, exactly as a span written twice into
 * files does. What the body held is told back for the OTLP response: spans accepted, and spans rejected (a
 * routing span that could not be decoded) with the first reason, which is the partial success of the OTLP/HTTP
 * protocol. A body that is not what its route reads is an `invalid` outcome with the reason; nothing is
 * half-counted then. No I/O.
 */
import { InputError } from '../trace/inputError.js';
import type { TraceRecordBuilder } from '../trace/buildTraceRecords.js';
import { decodeOtlpProtoRequest, ProtoWireError } from '../trace/formats/decodeOtlpProto.js';
import type { FileContext } from '../trace/formats/fileContext.js';
import type { EventLogOptions } from '../trace/formats/readAgentfootprintEvent.js';
import { readJsonTraceValue } from '../trace/formats/readJsonTraceValue.js';
import { readWithoutParsing } from '../trace/formats/fastPath/readWithoutParsing.js';
import { readOneInput } from '../trace/formats/readOneInput.js';
import { countProblems } from '../trace/readStats.js';
import type { ReadStats } from '../trace/types.js';
import type { TraceRecord } from '../record/types.js';

/** What a body is, by its route and content type. */
export type PayloadKind = 'otlp-json' | 'otlp-protobuf' | 'event-log';

/** What one body gave. */
export type IngestOutcome =
  | {
      readonly kind: 'accepted';
      readonly records: readonly TraceRecord[];
      /** Spans (or events) the body held. */
      readonly items: number;
      /** Of those, the ones that could not be read (bad routing spans, bad lines). */
      readonly rejected: number;
      /** The first rejection's reason. */
      readonly message?: string;
    }
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
  const { stats } = ctx;
  const spansBefore = stats.spans;
  const eventsBefore = stats.events;
  const keptBefore = stats.problems.length;
  const problemsBefore = countProblems(stats);
  const out: TraceRecord[] = [];
  const source = { file: label, line: 0 };
  try {
    switch (kind) {
      case 'otlp-protobuf':
        decodeOtlpProtoRequest(body, source, ctx.builder, out);
        break;
      case 'otlp-json': {
        // A file's line goes the same way: the fast path parses only the routing spans of a request in the
        // exporters' plain shape; anything else (or any doubt) is parsed whole.
        let shape: string | undefined;
        const file = fileContext(label, ctx);
        // The reader hands over the context to read into (its own, while it holds a request's outcomes back).
        const scanned = readWithoutParsing(file, body, 0, out, (reading, value, __, into) => {
          shape = readJsonTraceValue(value, source, reading.builder, into);
        });
        if (!scanned) {
          let value: unknown;
          try {
            value = JSON.parse(body.toString('utf8'));
          } catch (error) {
            return { kind: 'invalid', reason: `the body is not JSON: ${(error as Error).message}` };
          }
          shape = readJsonTraceValue(value, source, ctx.builder, out);
        }
        if (shape !== undefined) return { kind: 'invalid', reason: shape };
        break;
      }
      case 'event-log': {
        const file = fileContext(label, ctx);
        for await (const record of readOneInput(file, oneChunk(body), body.length)) out.push(record);
        break;
      }
    }
  } catch (error) {
    if (error instanceof ProtoWireError)
      return { kind: 'invalid', reason: `not an OTLP protobuf request: ${error.message}` };
    if (error instanceof InputError) return { kind: 'invalid', reason: error.message };
    throw error;
  }
  const problems = countProblems(stats) - problemsBefore;
  const reason =
    problems === 0
      ? undefined
      : (stats.problems[keptBefore]?.reason ??
        `${problems} could not be read (each is a line on serve's stderr)`);
  return {
    kind: 'accepted',
    records: out,
    items: stats.spans - spansBefore + (stats.events - eventsBefore),
    rejected: problems,
    ...(reason === undefined ? {} : { message: reason }),
  };
}

function fileContext(label: string, ctx: IngestContext): FileContext {
  return { file: label, named: true, stats: ctx.stats, builder: ctx.builder, events: ctx.events, line: 0 };
}

async function* oneChunk(body: Buffer): AsyncGenerator<Buffer> {
  yield body;
}
