/**
 * readTraceInputs streams: a generated input of about 300 MB (real SDK export requests, one routing batch
 * per 20 lines) is read in one pass with the heap staying flat. The figures are printed; the only bound
 * asserted is a generous one on heap growth (no timing is asserted — speed is for bench/).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createReadStats } from '../../src/trace/readStats.js';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import { recordPlainSpans, recordScenario, toOtlpJson, withTempDir } from './traceScenario.js';

const TARGET_BYTES = 300 * 1024 * 1024;
const ROUTING_EVERY = 20;
const HEAP_GROWTH_BOUND = 150 * 1024 * 1024;

it('reads ~300 MB of OTLP/JSON lines with bounded heap, every decision found', async () => {
  const scenario = await recordScenario();
  const routingLine = toOtlpJson(scenario.spans);
  const routingTraceIds = [...new Set(scenario.spans.map((s) => s.spanContext().traceId))];
  const plainSpansPerLine = 400;
  const plainLine = toOtlpJson(await recordPlainSpans(plainSpansPerLine)) + '\n';

  await withTempDir(async (dir) => {
    const file = join(dir, 'big.jsonl');
    const out = createWriteStream(file);
    let written = 0;
    let routingLines = 0;
    let plainLines = 0;
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

    const stats = createReadStats();
    const baseline = process.memoryUsage();
    let peakHeap = baseline.heapUsed;
    let peakRss = baseline.rss;
    const sample = (): void => {
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed);
      peakRss = Math.max(peakRss, m.rss);
    };
    let decisions = 0;
    let others = 0;
    const started = performance.now();
    for await (const r of readTraceInputs([file], stats, { onProgress: sample })) {
      if (r.kind === 'decision') decisions++;
      else others++;
    }
    const seconds = (performance.now() - started) / 1000;
    const mb = (b: number): string => (b / 1024 / 1024).toFixed(1);
    console.log(
      `streamed ${mb(written)} MB (${routingLines + plainLines} lines, ${stats.spans} spans) in ${seconds.toFixed(1)} s ` +
        `(${(written / 1024 / 1024 / seconds).toFixed(0)} MB/s): heapUsed ${mb(baseline.heapUsed)} → peak ${mb(peakHeap)} MB ` +
        `(growth ${mb(peakHeap - baseline.heapUsed)} MB), rss peak ${mb(peakRss)} MB`,
    );

    expect(stats.problems).toEqual([]);
    expect(stats.lines).toBe(routingLines + plainLines);
    expect(decisions).toBe(routingLines * scenario.calls.length);
    expect(others).toBe(routingLines * (scenario.turns.length + scenario.feedback.length));
    expect(stats.spans).toBe(plainLines * plainSpansPerLine + routingLines * scenario.spans.length);
    expect(stats.nonRoutingSpans).toBe(plainLines * plainSpansPerLine + routingLines * scenario.plainSpans);
    expect(stats.duplicates).toBe(0);
    expect(peakHeap - baseline.heapUsed).toBeLessThan(HEAP_GROWTH_BOUND);
  });
});
