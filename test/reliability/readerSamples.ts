/**
 * readerSamples — small real trace files in every format, for truncation and bit-flip fuzzing.
 *
 * Built from the reader tests' scenario (real SDK, real instrumentation): a few routing spans, a turn, a
 * feedback span and plain spans, cut into two export requests, then written as each producer writes them.
 * Kept small (a few KB) so that every byte can be a truncation point.
 */
import { gzipSync } from 'node:zlib';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  frameRecords,
  recordScenario,
  toJaegerV1,
  toOtlpJson,
  toOtlpProto,
  zstdCompress,
} from '../trace/traceScenario.js';

/** One sample file: its bytes, and where each record (line or frame) ends. */
export interface Sample {
  readonly name: string;
  readonly bytes: Buffer;
  /** Byte offsets just past each record, in order (lines: past the `\n`; frames: past the payload). */
  readonly recordEnds: readonly number[];
  /** Decisions in each record, in order. */
  readonly decisionsPerRecord: readonly number[];
  /** How records can be told apart: lines and frames are independent; a document or a compressed stream is not. */
  readonly layout: 'lines' | 'frames' | 'whole';
}

function isRoutingTier2(span: ReadableSpan): boolean {
  return span.name === 'agentfootprint.routing.tier2';
}

/** The samples, all carrying the same spans. */
export async function buildSamples(): Promise<Sample[]> {
  const scenario = await recordScenario();
  const spans = scenario.spans;
  // A move marked misrouted and a plain span in the first request; an unmatched with a NaN score and a
  // floorless stay in the second. Three routing spans keep every-byte truncation quick.
  const routing = spans.filter(isRoutingTier2);
  const plain = spans.find((s) => !isRoutingTier2(s) && !s.name.startsWith('agentfootprint.'))!;
  const batches = [
    [routing[1]!, plain],
    [routing[2]!, routing[3]!],
  ];
  const decisionsPerRecord = batches.map((b) => b.filter(isRoutingTier2).length);

  const lines = batches.map((b) => `${toOtlpJson(b)}\n`);
  const linesBytes = Buffer.from(lines.join(''));
  const lineEnds: number[] = [];
  let at = 0;
  for (const l of lines) lineEnds.push((at += Buffer.byteLength(l)));

  const protos = batches.map(toOtlpProto);
  const frameEnds: number[] = [];
  at = 0;
  for (const p of protos) frameEnds.push((at += 4 + p.length));

  const zstdFrames = batches.map((b) => zstdCompress(Buffer.from(toOtlpJson(b))));
  const zstdFrameEnds: number[] = [];
  at = 0;
  for (const z of zstdFrames) zstdFrameEnds.push((at += 4 + z.length));

  const total = decisionsPerRecord.reduce((a, b) => a + b, 0);
  const whole = (name: string, bytes: Buffer): Sample => ({
    name,
    bytes,
    recordEnds: [bytes.length],
    decisionsPerRecord: [total],
    layout: 'whole',
  });
  return [
    { name: 'OTLP/JSON lines', bytes: linesBytes, recordEnds: lineEnds, decisionsPerRecord, layout: 'lines' },
    {
      name: 'framed protobuf',
      bytes: frameRecords(protos),
      recordEnds: frameEnds,
      decisionsPerRecord,
      layout: 'frames',
    },
    {
      name: 'framed zstd records',
      bytes: frameRecords(zstdFrames),
      recordEnds: zstdFrameEnds,
      decisionsPerRecord,
      layout: 'frames',
    },
    whole('Jaeger v1 document', Buffer.from(JSON.stringify(toJaegerV1(batches.flat()), null, 1))),
    whole('zstd stream of JSON lines', zstdCompress(linesBytes)),
    whole('gzip of JSON lines', gzipSync(linesBytes)),
  ];
}
