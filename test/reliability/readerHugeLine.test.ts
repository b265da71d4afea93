/**
 * A single line of 2 GiB, streamed (never written to disk), then a good line: the reader skips the long
 * line without buffering it, reports it by its number, reads the line after it, and memory stays flat.
 *
 * The bytes are generated as the reader pulls them (1 MiB chunks, through the `stdin` option), so the test
 * needs no disk and the only way memory could grow is the reader holding on to the line. RSS is sampled as the
 * stream is pulled; the test asserts growth far below the line's size and prints the figures.
 */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { decideTier2 } from '../../src/policy/routingPolicy.js';
import { MAX_LINE_BYTES, ROUTING_MARKER } from '../../src/trace/formats/readLimits.js';
import { problemCount, readBytes } from './readerHarness.js';

const MiB = 2 ** 20;
const LINE_BYTES = 2048 * MiB;
/** Far below the line (2 GiB) and the reader's line limit (64 MiB): what a reader that buffered would exceed. */
const RSS_GROWTH_LIMIT = 160 * MiB;

function goodLine(): string {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  instrumentDecideTier2(decideTier2, { tracerProvider: provider })(
    [
      { id: 'billing', score: 0.9 },
      { id: 'refunds', score: 0.2 },
    ],
    undefined,
    { nearTieMargin: 0.15, menuSize: 3 },
  );
  return Buffer.from(JsonTraceSerializer.serializeRequest(exporter.getFinishedSpans())!).toString('utf8');
}

describe('a single multi-GB line', () => {
  it('2 GiB on one line (routing marker inside): skipped unbuffered, reported at line 2, the next line read', async () => {
    const first = goodLine();
    const after = goodLine();
    const filler = Buffer.alloc(MiB, 0x61);
    const samples: number[] = [];
    const baseline = process.memoryUsage().rss;
    let generated = 0;
    async function* stream(): AsyncGenerator<Buffer> {
      yield Buffer.from(`${first}\n{"resourceSpans":[{"${ROUTING_MARKER}":"`);
      while (generated < LINE_BYTES) {
        generated += filler.length;
        if ((generated / MiB) % 64 === 0) samples.push(process.memoryUsage().rss);
        yield filler;
      }
      yield Buffer.from(`"}]}\n${after}\n`);
    }
    const t0 = performance.now();
    const r = await readBytes(stream());
    const seconds = (performance.now() - t0) / 1000;
    const peak = Math.max(...samples);
    console.log(
      `huge line: ${(LINE_BYTES / MiB).toFixed(0)} MiB streamed in ${seconds.toFixed(1)} s; RSS baseline ` +
        `${(baseline / MiB).toFixed(0)} MiB, peak ${(peak / MiB).toFixed(0)} MiB (growth ${((peak - baseline) / MiB).toFixed(0)} MiB)`,
    );
    expect(generated).toBe(LINE_BYTES);
    expect(r.inputError).toBeUndefined();
    expect(r.decisions).toHaveLength(2);
    expect(problemCount(r.stats)).toBe(1);
    expect(r.stats.problems[0]).toMatchObject({ line: 2, kind: 'bad-line' });
    expect(r.stats.problems[0]!.reason).toContain(`longer than ${MAX_LINE_BYTES} bytes`);
    expect(peak - baseline).toBeLessThan(RSS_GROWTH_LIMIT);
  });
});
