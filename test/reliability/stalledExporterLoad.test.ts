/**
 * A burst against a stalled collector keeps memory bounded (the suite's short version of bench/load.bench.js).
 *
 * 200,000 decisions as fast as the machine routes them, through the real SDK, a BatchSpanProcessor and the
 * real OTLP/HTTP exporter, to a loopback collector that accepts requests and never answers. What bounds memory
 * is the processor's queue (MAX_QUEUE spans waiting, MAX_BATCH in the one export in flight); everything past
 * it is dropped and counted. RSS is sampled every CHUNK calls; the test asserts its growth stays under a
 * generous bound (RSS_GROWTH_LIMIT, far below what keeping every span would cost), that the heap left after a
 * full GC is about the queue's worth (RETAINED_HEAP_LIMIT), and prints the samples.
 */
import { setImmediate as yieldTurn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { decideTier2 } from '../../src/policy/routingPolicy.js';
import { tier2CallArb } from '../instrument/tier2Call.arbitrary.js';
import {
  installDiagRecorder,
  startFaultyCollector,
  watchUnhandledRejections,
  type FaultyCollector,
} from './faultyCollector.js';

const DECISIONS = 200_000;
const CHUNK = 5_000;
const MAX_QUEUE = 2_048; // the SDK default
const MAX_BATCH = 512; // the SDK default
const MiB = 1024 * 1024;
/** A span of a 12-candidate decision holds a few KiB: keeping 200,000 would cost several hundred MiB. */
const RSS_GROWTH_LIMIT = 256 * MiB;
/** What may stay live after a full GC: the queue and the batch in flight, with room to spare. */
const RETAINED_HEAP_LIMIT = 48 * MiB;

/** A full garbage collection, so retained memory can be told from garbage not yet collected. */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

let collector: FaultyCollector | undefined;
afterAll(async () => collector?.close());

describe('a burst against a stalled exporter', () => {
  it(`${DECISIONS} decisions: verdicts unchanged, RSS growth bounded, drops reported`, async () => {
    collector = await startFaultyCollector('hang');
    const recorder = installDiagRecorder();
    const rejections = watchUnhandledRejections();
    const provider = new BasicTracerProvider({
      spanProcessors: [
        new BatchSpanProcessor(new OTLPTraceExporter({ url: collector.url, timeoutMillis: 2_000 }), {
          maxQueueSize: MAX_QUEUE,
          maxExportBatchSize: MAX_BATCH,
          scheduledDelayMillis: 50,
          exportTimeoutMillis: 3_000,
        }),
      ],
    });
    const wrapped = instrumentDecideTier2(decideTier2, { tracerProvider: provider, routerName: 'load' });
    const calls = fc.sample(tier2CallArb(12), { numRuns: 1_000, seed: 99 });
    const samples: Array<{ decisions: number; rssMiB: number; heapMiB: number }> = [];
    const sample = (decisions: number): void => {
      const m = process.memoryUsage();
      samples.push({ decisions, rssMiB: Math.round(m.rss / MiB), heapMiB: Math.round(m.heapUsed / MiB) });
    };

    // Warm up (JIT, first allocations) before the baseline, so the bound measures growth under load only.
    for (const c of calls) wrapped(c.scores, c.incumbentId, c.policy, c.scorer);
    await yieldTurn();
    collectGarbage();
    const baselineHeap = process.memoryUsage().heapUsed;
    const baseline = process.memoryUsage().rss;
    sample(0);
    let mismatches = 0;
    const t0 = performance.now();
    try {
      for (let done = 0; done < DECISIONS; done += CHUNK) {
        for (let i = 0; i < CHUNK; i++) {
          const c = calls[(done + i) % calls.length]!;
          const got = wrapped(c.scores, c.incumbentId, c.policy, c.scorer);
          // A cheap identity check on the hot loop; the fault tests compare every verdict in full.
          if (got.kind !== decideTier2(c.scores, c.incumbentId, c.policy, c.scorer).kind) mismatches++;
        }
        sample(done + CHUNK);
        await yieldTurn();
      }
      const seconds = (performance.now() - t0) / 1000;
      const peak = Math.max(...samples.map((s) => s.rssMiB));
      collectGarbage();
      const retained = process.memoryUsage().heapUsed - baselineHeap;
      console.log(
        `stalled exporter: ${DECISIONS} decisions in ${seconds.toFixed(1)} s ` +
          `(${Math.round(DECISIONS / seconds)}/s); RSS baseline ${Math.round(baseline / MiB)} MiB, ` +
          `peak ${peak} MiB, final ${samples.at(-1)!.rssMiB} MiB; heap retained after GC ${(retained / MiB).toFixed(1)} MiB`,
      );
      console.log(
        samples
          .filter((_, i) => i % 8 === 0 || i === samples.length - 1)
          .map((s) => JSON.stringify(s))
          .join('\n'),
      );

      expect(mismatches).toBe(0);
      expect(peak * MiB - baseline).toBeLessThan(RSS_GROWTH_LIMIT);
      expect(retained).toBeLessThan(RETAINED_HEAP_LIMIT);
      expect(collector.requests()).toBeGreaterThan(0);
      // Drops happened (most of the burst) and the SDK reported them on the diag channel.
      expect(recorder.matching('debug', /maxQueueSize reached, dropping spans/).length).toBeGreaterThan(0);
    } finally {
      await provider.shutdown().catch(() => undefined);
      rejections.stop();
      recorder.uninstall();
    }
    expect(rejections.seen).toEqual([]);
  });
});
