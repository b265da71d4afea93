/**
 * readTraceInputs streams: a generated input of about 300 MB (real SDK export requests, one routing batch
 * per 20 lines) is read in one pass with the heap staying flat — as plain JSON lines, as the Collector's
 * native zstd stream and as gzip. The figures are printed; the only bound asserted is a generous one on heap
 * growth (no timing is asserted — speed is for bench/).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReadStats } from '../../src/trace/readStats.js';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import { recordPlainSpans, recordScenario, toOtlpJson, type Scenario } from './traceScenario.js';

const TARGET_BYTES = 300 * 1024 * 1024;
const ROUTING_EVERY = 20;
const PLAIN_SPANS_PER_LINE = 400;
const HEAP_GROWTH_BOUND = 150 * 1024 * 1024;

let dir: string;
let file: string;
let scenario: Scenario;
let written = 0;
let routingLines = 0;
let plainLines = 0;

beforeAll(async () => {
  scenario = await recordScenario();
  const routingLine = toOtlpJson(scenario.spans);
  const routingTraceIds = [...new Set(scenario.spans.map((s) => s.spanContext().traceId))];
  const plainLine = toOtlpJson(await recordPlainSpans(PLAIN_SPANS_PER_LINE)) + '\n';
  dir = mkdtempSync(join(tmpdir(), 'routescope-stream-'));
  file = join(dir, 'big.jsonl');
  const out = createWriteStream(file);
  for (let n = 0; written < TARGET_BYTES; n++) {
    let text: string;
    if (n % ROUTING_EVERY === 0) {
      // Fresh trace ids each time, so the copies are distinct spans, not exporter retries.
      text = routingLine;
      for (const id of routingTraceIds) text = text.replaceAll(id, randomBytes(16).toString('hex'));
      text += '\n';
      routingLines++;
    } else {
      text = plainLine;
      plainLines++;
    }
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function readMeasured(input: string, label: string): Promise<void> {
  const stats = createReadStats();
  const baseline = process.memoryUsage();
  let peakHeap = baseline.heapUsed;
  let peakRss = baseline.rss;
  let peakBuffers = baseline.arrayBuffers;
  const sample = (): void => {
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
    peakBuffers = Math.max(peakBuffers, m.arrayBuffers);
  };
  let decisions = 0;
  let others = 0;
  const started = performance.now();
  for await (const r of readTraceInputs([input], stats, { onProgress: sample })) {
    if (r.kind === 'decision') decisions++;
    else others++;
    if ((decisions + others) % 1000 === 0) sample();
  }
  sample();
  const seconds = (performance.now() - started) / 1000;
  const mb = (b: number): string => (b / 1024 / 1024).toFixed(1);
  console.log(
    `${label}: ${mb(written)} MB of JSON lines (${stats.lines} lines, ${stats.spans} spans) in ${seconds.toFixed(1)} s ` +
      `(${(written / 1024 / 1024 / seconds).toFixed(0)} MB/s uncompressed); heapUsed ${mb(baseline.heapUsed)} → peak ` +
      `${mb(peakHeap)} MB (growth ${mb(peakHeap - baseline.heapUsed)} MB), buffers peak ${mb(peakBuffers)} MB, rss peak ${mb(peakRss)} MB`,
  );

  expect(stats.problems).toEqual([]);
  expect(stats.lines).toBe(routingLines + plainLines);
  expect(decisions).toBe(routingLines * scenario.calls.length);
  expect(others).toBe(routingLines * (scenario.turns.length + scenario.feedback.length));
  expect(stats.spans).toBe(plainLines * PLAIN_SPANS_PER_LINE + routingLines * scenario.spans.length);
  expect(stats.nonRoutingSpans).toBe(plainLines * PLAIN_SPANS_PER_LINE + routingLines * scenario.plainSpans);
  expect(stats.duplicates).toBe(0);
  expect(peakHeap - baseline.heapUsed).toBeLessThan(HEAP_GROWTH_BOUND);
  // Buffers live outside the heap: bound them too, or a reader holding chunks would pass unseen.
  expect(peakBuffers - baseline.arrayBuffers).toBeLessThan(HEAP_GROWTH_BOUND);
}

describe('streaming ~300 MB with a flat heap', () => {
  it('OTLP/JSON lines', async () => {
    await readMeasured(file, 'jsonl');
  });

  it('the same as a native zstd stream (zstd tool)', async () => {
    const zst = `${file}.zst`;
    execFileSync('zstd', ['-q', '-1', '-f', file, '-o', zst]);
    await readMeasured(zst, 'jsonl.zst');
    rmSync(zst);
  });

  it('the same gzipped (zlib, streaming)', async () => {
    const gz = `${file}.gz`;
    await pipeline(createReadStream(file), createGzip({ level: 1 }), createWriteStream(gz));
    await readMeasured(gz, 'jsonl.gz');
    rmSync(gz);
  });
});
