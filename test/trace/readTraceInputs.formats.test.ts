/**
 * readTraceInputs — every input format, written from real SDK spans the way its producer writes it, reads back
 * to the same records: each decision equal to the call that made it, turns, misroute marks, context and stats.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { beforeAll, describe, expect, it } from 'vitest';
import { SPAN_ROUTING_FEEDBACK } from '../../src/semconv/semconv.js';
import { readInParallel } from '../../src/trace/parallel/readInParallel.js';
import { readTraceInputs, type ReadOptions } from '../../src/trace/readTraceInputs.js';
import { createReadStats } from '../../src/trace/readStats.js';
import type { DecisionRecord, MisrouteRecord, TraceRecord, TurnRecord } from '../../src/record/types.js';
import type { ReadStats } from '../../src/trace/types.js';
import { expectDecodedDecision } from '../helpers/otelSdk.js';
import {
  AGENT,
  SERVICE,
  frameRecords,
  recordScenario,
  toJaegerV1,
  toOtlpJson,
  toOtlpProto,
  withTempDir,
  zstdCompress,
  type Scenario,
} from './traceScenario.js';

let scenario: Scenario;
let batches: ReadableSpan[][];

beforeAll(async () => {
  scenario = await recordScenario();
  // Three export batches, as a batch processor would cut them.
  const all = scenario.spans;
  const third = Math.ceil(all.length / 3);
  batches = [all.slice(0, third), all.slice(third, 2 * third), all.slice(2 * third)];
});

async function readAll(
  inputs: string[],
  options?: ReadOptions,
): Promise<{ records: TraceRecord[]; stats: ReadStats }> {
  const stats = createReadStats();
  const records: TraceRecord[] = [];
  for await (const r of readTraceInputs(inputs, stats, options)) records.push(r);
  return { records, stats };
}

function startMs(spanId: string): number {
  const span = scenario.spans.find((s) => s.spanContext().spanId === spanId)!;
  return span.startTime[0] * 1e3 + span.startTime[1] / 1e6;
}

/** The one check every format must pass: the records are the scenario, nothing lost, nothing invented. */
function expectScenario(records: TraceRecord[], stats: ReadStats, precisionMs = 1e-6): void {
  expect(stats.problems).toEqual([]);
  expect(stats.spans).toBe(scenario.spans.length);
  expect(stats.routingSpans).toBe(scenario.calls.length);
  expect(stats.turnSpans).toBe(scenario.turns.length);
  expect(stats.nonRoutingSpans).toBe(scenario.plainSpans);
  expect(stats.duplicates).toBe(0);

  const decisions = records.filter((r): r is DecisionRecord => r.kind === 'decision');
  expect(decisions).toHaveLength(scenario.calls.length);
  for (const c of scenario.calls) {
    const d = decisions.find((r) => r.spanId === c.spanId);
    expect(d, `decision of span ${c.spanId}`).toBeDefined();
    expectDecodedDecision(d!, c.call, c.verdict);
    expect(d!.traceId).toBe(c.traceId);
    expect(d!.service).toBe(SERVICE);
    expect(d!.agentName).toBe(AGENT);
    expect(d!.router).toBe('support');
    expect(d!.scorer).toBe(c.scorerName);
    expect(d!.conversationId).toBe(`conv-${c.call.incumbentId ?? 'cold'}`);
    expect(d!.error).toBe(false);
    expect(d!.parentSpanId).toBeUndefined();
    expect(Math.abs(d!.timeUnixMs - startMs(c.spanId))).toBeLessThanOrEqual(precisionMs);
    if (c.spanId === scenario.markedSpanId) {
      expect(d!.misroutes).toHaveLength(1);
      expect(d!.misroutes[0]).toMatchObject({
        expected: 'refunds',
        reason: 'user said so',
        source: 'user-feedback',
      });
      expect(d!.misroutes[0]!.timeUnixMs).toBeGreaterThanOrEqual(d!.timeUnixMs - precisionMs);
    } else {
      expect(d!.misroutes).toEqual([]);
    }
  }

  const turns = records.filter((r): r is TurnRecord => r.kind === 'turn');
  expect(turns).toHaveLength(scenario.turns.length);
  const entry = turns.find((t) => t.by === 'entry')!;
  expect(entry).toMatchObject({
    to: 'billing',
    witnessKeyword: 'invoice',
    conversationId: 'conv-entry',
    error: false,
  });
  expect(entry.witnessText).toBeUndefined();
  const decider = turns.find((t) => t.by === 'decider')!;
  expect(decider).toMatchObject({
    offered: ['billing', 'refunds'],
    from: 'shipping',
    decider: { provider: 'openai', model: 'gpt-4o-mini', picked: 'refunds' },
    error: true,
    service: SERVICE,
  });

  const marks = records.filter((r): r is MisrouteRecord => r.kind === 'misroute');
  expect(marks).toHaveLength(scenario.feedback.length);
  const menu = scenario.calls[0]!;
  expect(marks[0]).toMatchObject({
    traceId: menu.traceId,
    parentSpanId: menu.spanId,
    mark: { expected: 'refunds', reason: 'picked the wrong menu item', source: 'eval' },
    misroutes: [],
  });
  const feedbackSpan = scenario.spans.find((s) => s.name === SPAN_ROUTING_FEEDBACK)!;
  expect(marks[0]!.spanId).toBe(feedbackSpan.spanContext().spanId);
}

/** Each record points at the line (or framed record) of the batch its span was exported in. */
function expectLinesFollowBatches(records: TraceRecord[], file: string): void {
  for (const r of records) {
    const line = batches.findIndex((b) => b.some((s) => s.spanContext().spanId === r.spanId)) + 1;
    expect(r.source).toEqual({ file, line });
  }
}

describe('readTraceInputs: the Collector file exporter', () => {
  it('format: json — OTLP/JSON lines, one export request per line, line numbers kept', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'traces.jsonl');
      writeFileSync(file, batches.map((b) => toOtlpJson(b) + '\n').join(''));
      const { records, stats } = await readAll([file]);
      expectScenario(records, stats);
      expect(stats.files).toBe(1);
      expect(stats.lines).toBe(3);
      expectLinesFollowBatches(records, file);
    });
  });

  it('a named pipe (as `<(zcat traces.gz)` gives) is read in order from where it stands, across chunks', async () => {
    await withTempDir(async (dir) => {
      const fifo = join(dir, 'traces.pipe');
      execFileSync('mkfifo', [fifo]);
      // A 3 MiB line of spaces between the batches: the pipe is read in several chunks, a line spans them.
      const text = [
        toOtlpJson(batches[0]!),
        ' '.repeat(3 * 1024 * 1024),
        toOtlpJson(batches[1]!),
        toOtlpJson(batches[2]!),
      ]
        .map((line) => `${line}\n`)
        .join('');
      // Opening a pipe for writing waits for its reader: write and read at the same time.
      const [, { records, stats }] = await Promise.all([writeFile(fifo, text), readAll([fifo])]);
      expectScenario(records, stats);
      expect(stats.lines).toBe(3);
      expect(stats.problems).toEqual([]);
      // The same through --jobs: a pipe is one unit, never cut, and is read in order as well.
      const parallelStats = createReadStats();
      const parallel: TraceRecord[] = [];
      const reading = (async () => {
        for await (const r of readInParallel([fifo], parallelStats, { jobs: 2 })) parallel.push(r);
      })();
      await Promise.all([writeFile(fifo, text), reading]);
      expect(parallel).toEqual(records);
      expect(parallelStats).toEqual(stats);
    });
  });

  it('rotated files in a folder are read in name order (rotated first, the live file last)', async () => {
    await withTempDir(async (dir) => {
      const names = [
        'traces.json',
        'traces-2022-09-14T05-02-14.173.json',
        'traces-2022-09-14T06-00-00.000.json',
      ];
      // The live file holds the newest batch; each rotated one an older batch.
      writeFileSync(join(dir, names[1]!), toOtlpJson(batches[0]!) + '\n');
      writeFileSync(join(dir, names[2]!), toOtlpJson(batches[1]!) + '\n');
      writeFileSync(join(dir, names[0]!), toOtlpJson(batches[2]!) + '\n');
      const progress: string[] = [];
      const last = new Map<string, { bytesRead: number; totalBytes?: number }>();
      const { records, stats } = await readAll([dir], {
        onProgress: (p) => {
          if (progress.at(-1) !== p.file) progress.push(p.file);
          last.set(p.file, p);
        },
      });
      // The last report of each file says it was read to the end.
      for (const [file, p] of last) expect(p.bytesRead, file).toBe(statSync(file).size);
      expect([...last.values()].every((p) => p.bytesRead === p.totalBytes)).toBe(true);
      expectScenario(records, stats);
      expect(stats.files).toBe(3);
      expect(progress).toEqual([names[1], names[2], names[0]].map((n) => join(dir, n!)));
      const files = [...new Set(records.map((r) => r.source.file))];
      expect(files).toEqual(progress.filter((f) => records.some((r) => r.source.file === f)));
    });
  });

  it('format: proto — length-framed protobuf requests, recognized by content whatever the name', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'traces.json'); // misleading name on purpose
      writeFileSync(file, frameRecords(batches.map(toOtlpProto)));
      const { records, stats } = await readAll([file]);
      expectScenario(records, stats);
      expect(stats.lines).toBe(3);
      expectLinesFollowBatches(records, file);
    });
  });

  it('compression: zstd, legacy framing — each record its own zstd frame of a JSON request', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'traces.zst.json');
      writeFileSync(file, frameRecords(batches.map((b) => zstdCompress(Buffer.from(toOtlpJson(b))))));
      const { records, stats } = await readAll([file]);
      expectScenario(records, stats);
    });
  });

  it('compression: zstd, legacy framing — each record a zstd frame of a protobuf request', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'traces.pb.zst');
      writeFileSync(file, frameRecords(batches.map((b) => zstdCompress(toOtlpProto(b)))));
      const { records, stats } = await readAll([file]);
      expectScenario(records, stats);
    });
  });

  it('compression: zstd, native — one standard zstd stream of JSON lines (several frames too)', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'traces.jsonl.zst');
      const first = zstdCompress(Buffer.from(toOtlpJson(batches[0]!) + '\n'));
      const rest = zstdCompress(
        Buffer.from(
          batches
            .slice(1)
            .map((b) => toOtlpJson(b) + '\n')
            .join(''),
        ),
      );
      writeFileSync(file, Buffer.concat([first, rest]));
      const { records, stats } = await readAll([file]);
      expectScenario(records, stats);
      expect(stats.lines).toBe(3);
    });
  });

  it('plain .gz of JSON lines (and of a framed proto file)', async () => {
    await withTempDir(async (dir) => {
      const lines = join(dir, 'traces.jsonl.gz');
      writeFileSync(lines, gzipSync(batches.map((b) => toOtlpJson(b) + '\n').join('')));
      const a = await readAll([lines]);
      expectScenario(a.records, a.stats);
      const framed = join(dir, 'traces.bin.gz');
      writeFileSync(framed, gzipSync(frameRecords(batches.map(toOtlpProto))));
      const b = await readAll([framed]);
      expectScenario(b.records, b.stats);
    });
  });
});

describe('readTraceInputs: single documents and trace stores', () => {
  const wrappers: Array<[string, (request: unknown) => unknown]> = [
    ['a pretty-printed OTLP/JSON document', (r) => r],
    ['the Jaeger v2 {"result": …} wrapper', (r) => ({ result: r })],
    ['Tempo\'s {"trace": …} response', (r) => ({ trace: r })],
    [
      'Tempo\'s {"batches": […]} response',
      (r) => ({ batches: (r as { resourceSpans: unknown }).resourceSpans }),
    ],
  ];
  for (const [name, wrap] of wrappers) {
    it(`${name} is read whole, records at line 0`, async () => {
      await withTempDir(async (dir) => {
        const file = join(dir, 'trace.json');
        const request: unknown = JSON.parse(toOtlpJson(scenario.spans));
        writeFileSync(file, JSON.stringify(wrap(request), null, 2));
        const { records, stats } = await readAll([file]);
        expectScenario(records, stats);
        expect(records.every((r) => r.source.line === 0)).toBe(true);
      });
    });
  }

  it('Jaeger v1 {"data": […]}: typed tags, arrays as JSON text, events as logs, unpadded ids', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'jaeger.json');
      const doc = toJaegerV1(scenario.spans);
      writeFileSync(file, JSON.stringify(doc, null, 2));
      const { records, stats } = await readAll([file]);
      expectScenario(records, stats, 1e-3);
    });
  });

  it('Jaeger v1: a single trace object without the data envelope, one per line too', async () => {
    await withTempDir(async (dir) => {
      const { data } = toJaegerV1(scenario.spans);
      const single = join(dir, 'one-trace.json');
      const menuTrace = data.find((t) => (t as { traceID: string }).traceID === scenario.calls[0]!.traceId)!;
      writeFileSync(single, JSON.stringify(menuTrace, null, 2));
      const one = await readAll([single]);
      expect(one.stats.problems).toEqual([]);
      expect(one.records.map((r) => r.kind).sort()).toEqual(['decision', 'misroute']);

      const lines = join(dir, 'traces.jsonl');
      writeFileSync(lines, data.map((t) => JSON.stringify(t) + '\n').join(''));
      const all = await readAll([lines]);
      expectScenario(all.records, all.stats, 1e-3);
    });
  });

  it('Jaeger v1: the parent is the CHILD_OF reference inside the same trace', async () => {
    await withTempDir(async (dir) => {
      const menu = scenario.calls[0]!;
      const doc = toJaegerV1(scenario.spans) as {
        data: Array<{ traceID: string; spans: Array<{ spanID: string; references: unknown[] }> }>;
      };
      const trace = doc.data.find((t) => t.traceID === menu.traceId)!;
      const span = trace.spans.find((s) => s.spanID === menu.spanId.replace(/^0+/, ''))!;
      span.references = [
        { refType: 'CHILD_OF', traceID: 'ff', spanID: 'ff' },
        { refType: 'FOLLOWS_FROM', traceID: menu.traceId, spanID: '3' },
        { refType: 'CHILD_OF', traceID: menu.traceId.toUpperCase(), spanID: '2' },
      ];
      const file = join(dir, 'refs.json');
      writeFileSync(file, JSON.stringify(doc));
      const { records } = await readAll([file]);
      const decision = records.find((r) => r.kind === 'decision' && r.spanId === menu.spanId);
      expect(decision?.parentSpanId).toBe('0000000000000002');
    });
  });

  it("stdin ('-') through options.stdin, in any format", async () => {
    const jsonl = Buffer.from(batches.map((b) => toOtlpJson(b) + '\n').join(''));
    const a = await readAll(['-'], { stdin: Readable.from([jsonl.subarray(0, 1000), jsonl.subarray(1000)]) });
    expectScenario(a.records, a.stats);
    expect(a.records.every((r) => r.source.file === '-')).toBe(true);
    const zst = zstdCompress(frameRecords(batches.map(toOtlpProto)));
    const b = await readAll(['-'], { stdin: Readable.from([zst]) });
    expectScenario(b.records, b.stats);
  });
});

describe('readTraceInputs: the public fixtures', () => {
  const dir = join(import.meta.dirname, '..', 'fixtures', 'trace', 'public');

  it('the OTLP/JSON example (upper-case hex, numeric nanos) reads cleanly: no decision, one span', async () => {
    const { records, stats } = await readAll([join(dir, 'otlp-proto-example-trace.json')]);
    expect(records).toEqual([]);
    expect(stats).toMatchObject({ files: 1, spans: 1, nonRoutingSpans: 1, routingSpans: 0, problems: [] });
  });

  it('the Jaeger UI trace (no envelope, every tag type, a duplicated span id) reads cleanly: five spans', async () => {
    const { records, stats } = await readAll([join(dir, 'jaeger-ui-01.json')]);
    expect(records).toEqual([]);
    expect(stats).toMatchObject({ files: 1, spans: 5, nonRoutingSpans: 5, routingSpans: 0, problems: [] });
  });

  it('both at once through their folder: PROVENANCE.md is skipped as unsupported, not fatal', async () => {
    await withTempDir(async (tmp) => {
      for (const f of ['PROVENANCE.md', 'jaeger-ui-01.json', 'otlp-proto-example-trace.json']) {
        copyFileSync(join(dir, f), join(tmp, f));
      }
      mkdirSync(join(tmp, 'nested'));
      const { records, stats } = await readAll([tmp]);
      expect(records).toEqual([]);
      expect(stats.spans).toBe(6);
      expect(stats.problems).toEqual([
        expect.objectContaining({ file: join(tmp, 'PROVENANCE.md'), line: 0, kind: 'unsupported' }),
      ]);
    });
  });
});

describe('readTraceInputs: messages that say what a file is', () => {
  it('zstd holding unframed binary protobuf says so, not "text that is not JSON"', async () => {
    await withTempDir(async (tmp) => {
      const file = join(tmp, 'traces.zst');
      writeFileSync(file, zstdCompress(toOtlpProto(batches[0]!)));
      await expect(readAll([file])).rejects.toThrow(
        /zstd holding binary protobuf \(an OTLP export request, it seems\) without the file exporter's 4-byte length framing/,
      );
    });
  });

  it('gzip holding bytes in no known format says gzip, not "compressed an unknown format"', async () => {
    await withTempDir(async (tmp) => {
      const file = join(tmp, 'blob.gz');
      writeFileSync(file, gzipSync(Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03, 0x04, 0x05])));
      await expect(readAll([file])).rejects.toThrow(
        /gzip holding an unknown format \(first bytes de ad be ef/,
      );
    });
  });

  it('a truncated gzip file: the lines before are read, and the problem says truncated', async () => {
    await withTempDir(async (tmp) => {
      const file = join(tmp, 'traces.jsonl.gz');
      const whole = gzipSync(Buffer.from(batches.map((b) => toOtlpJson(b)).join('\n') + '\n'));
      writeFileSync(file, whole.subarray(0, Math.floor(whole.length * 0.9)));
      const { stats } = await readAll([file]);
      expect(stats.problems).toHaveLength(1);
      expect(stats.problems[0]!.reason).toMatch(
        /the gzip stream ends before its end \(the file was truncated\)/,
      );
    });
  });
});
