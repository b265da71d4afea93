// bench/load.bench.js — 100,000 decisions per second for 30 seconds against a stalled collector: RSS over time.
//
// The real SDK, a BatchSpanProcessor with the SDK's default limits (maxQueueSize 2048, maxExportBatchSize
// 512, scheduledDelayMillis 5000, exportTimeoutMillis 30000) and the real OTLP/HTTP exporter (timeoutMillis
// 10000), pointed at a loopback server in this process that accepts every request and never answers. Calls
// are paced to the target rate in 10 ms slices; when the machine cannot keep up the achieved rate is printed
// as it is. Prints RSS and heap once a second, then the final figures and the spans the processor dropped
// (from its own diag warning). Env: LOAD_RATE (per second), LOAD_SECONDS. Asserts nothing; the achieved rate goes
// to the targets table of `npm run bench`.
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep, setImmediate as yieldTurn } from 'node:timers/promises';
import { diag, DiagLogLevel } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { decideTier2, instrumentDecideTier2 } from '../dist/index.js';
import { createRandom } from './createRandom.js';
import { reportTarget } from './targets.js';

const RATE = Number(process.env.LOAD_RATE ?? 100_000);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 30);
const SLICE_MS = 10;
const MiB = 1024 * 1024;

/** Deterministic inputs (mulberry32): 12 candidates, some near-ties, some cold starts. */
function makeInputs(count, seed) {
  const random = createRandom(seed);
  const policy = { nearTieMargin: 0.15, menuSize: 3 };
  return Array.from({ length: count }, () => ({
    scores: Array.from({ length: 12 }, (_, i) => ({ id: `skill-${i}`, score: random() * 2 - 0.5 })),
    incumbentId: random() < 0.5 ? undefined : `skill-${Math.floor(random() * 12)}`,
    policy,
    scorer: { floor: 0 },
  }));
}

const dropped = { warnings: 0, spans: 0 };
diag.setLogger(
  {
    error: () => {},
    warn: (message) => {
      const m = /^Dropped (\d+) spans because maxQueueSize reached/.exec(String(message));
      if (m !== null) {
        dropped.warnings++;
        dropped.spans += Number(m[1]);
      }
    },
    info: () => {},
    debug: () => {},
    verbose: () => {},
  },
  { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
);

let requests = 0;
const server = createServer((req) => {
  requests++;
  req.resume(); // read the body, never answer
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/v1/traces`;

const provider = new BasicTracerProvider({
  spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
});
const wrapped = instrumentDecideTier2(decideTier2, { tracerProvider: provider, routerName: 'load' });
const inputs = makeInputs(4096, 7);
const mask = inputs.length - 1;

let done = 0;
let moves = 0;
const route = (n) => {
  for (let i = 0; i < n; i++) {
    const c = inputs[(done + i) & mask];
    if (wrapped(c.scores, c.incumbentId, c.policy, c.scorer).kind === 'move') moves++;
  }
  done += n;
};

route(20_000); // warm-up, not counted below
done = 0;
await yieldTurn();
const baseline = process.memoryUsage();
console.log(
  `target ${RATE}/s for ${SECONDS} s against a collector that never answers; ` +
    `baseline RSS ${(baseline.rss / MiB).toFixed(0)} MiB, heap ${(baseline.heapUsed / MiB).toFixed(0)} MiB`,
);
console.log('second  decisions  rate/s   rss MiB  heap MiB');

const start = performance.now();
let nextReport = 1;
let peakRss = baseline.rss;
for (;;) {
  const elapsed = (performance.now() - start) / 1000;
  if (elapsed >= SECONDS) break;
  const due = Math.floor(RATE * Math.min(elapsed + SLICE_MS / 1000, SECONDS));
  if (due > done) route(Math.min(due - done, RATE / 20));
  if (elapsed >= nextReport) {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    console.log(
      `${String(nextReport).padStart(6)}  ${String(done).padStart(9)}  ${String(Math.round(done / elapsed)).padStart(6)}  ` +
        `${(m.rss / MiB).toFixed(0).padStart(7)}  ${(m.heapUsed / MiB).toFixed(0).padStart(8)}`,
    );
    nextReport++;
  }
  if (done >= due) await sleep(1);
  else await yieldTurn();
}
const seconds = (performance.now() - start) / 1000;
const final = process.memoryUsage();
peakRss = Math.max(peakRss, final.rss);
console.log(
  `final: ${done} decisions in ${seconds.toFixed(1)} s (${Math.round(done / seconds)}/s achieved, target ${RATE}/s); ` +
    `RSS baseline ${(baseline.rss / MiB).toFixed(0)} MiB, peak ${(peakRss / MiB).toFixed(0)} MiB, ` +
    `final ${(final.rss / MiB).toFixed(0)} MiB (growth ${((final.rss - baseline.rss) / MiB).toFixed(0)} MiB); ` +
    `heap ${(final.heapUsed / MiB).toFixed(0)} MiB; ${moves} moves; export requests sent ${requests}; ` +
    `spans dropped and reported through diag ${dropped.spans} (in ${dropped.warnings} warnings, more are counted once a span fits again)`,
);
reportTarget(
  `load: ${RATE} decisions/s for ${SECONDS} s against a stalled collector`,
  `${Math.round(done / seconds)}/s, peak RSS ${(peakRss / MiB).toFixed(0)} MiB`,
  done / seconds >= RATE,
);
await Promise.race([provider.shutdown().catch(() => undefined), sleep(500)]);
server.closeAllConnections();
server.close();
process.exit(0);
