// bench/serve.bench.js — `routescope serve` driven by the real SDK and OTLP/HTTP exporter: sustained routing spans
// per second it takes, its peak RSS at the default window (100,000 decisions), and whether an agent's rate loses
// anything.
//
// serve runs as users run it, the shipped executable in a process of its own (one thread: one core), on loopback
// ports it picks. This process routes decisions through instrumentDecideTier2 with the real BasicTracerProvider,
// BatchSpanProcessor (maxExportBatchSize 512, a queue of 65,536, 100 ms delay) and OTLPTraceExporter (JSON), then:
//   1. flat out for SERVE_SECONDS (default 20), with the JSON exporter and then the protobuf one: spans taken per
//      second = serve's own decision counter over the time from the first to the last export answered;
//   2. 1,000 turns per second for 10 s, paced in 10 ms slices: the spans the processor dropped (its diag
//      warning) and whether serve's counter rose by exactly the decisions made.
// Peak RSS is the child's VmHWM from /proc. Prints figures; asserts nothing; the targets go to `npm run bench`'s table
// (the throughput one per CPU second of serve: see below).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { diag, DiagLogLevel } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { decideTier2, instrumentDecideTier2 } from '../dist/index.js';
import { createRandom } from './createRandom.js';
import { reportTarget } from './targets.js';

const BIN = fileURLToPath(new URL('../dist/bin/routescope.js', import.meta.url));
const SECONDS = Number(process.env.SERVE_SECONDS ?? 20);

const dropped = { spans: 0 };
diag.setLogger(
  {
    error: () => {},
    warn: (message) => {
      const m = /^Dropped (\d+) spans because maxQueueSize reached/.exec(String(message));
      if (m !== null) dropped.spans += Number(m[1]);
    },
    info: () => {},
    debug: () => {},
    verbose: () => {},
  },
  { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
);

// serve in a child, as a user starts it; read its URLs from what it prints.
// SERVE_NODE_ARGS (e.g. `--cpu-prof`) go to serve's node, SERVE_ARGS to serve itself.
const words = (name) => (process.env[name] ?? '').split(' ').filter(Boolean);
const child = spawn(
  process.execPath,
  [...words('SERVE_NODE_ARGS'), BIN, 'serve', '--port', '0', ...words('SERVE_ARGS')],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const { endpoint, metrics } = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
    const e = /OTEL_EXPORTER_OTLP_ENDPOINT=(\S+)\)/.exec(out)?.[1];
    const m = /metrics\s+(\S+\/metrics)/.exec(out)?.[1];
    if (e !== undefined && m !== undefined) resolve({ endpoint: e, metrics: m });
  });
  child.on('exit', (code) => reject(new Error(`serve exited ${code} before listening: ${out}`)));
});

const peakRssMiB = () => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
  return m === null ? NaN : Number(m[1]) / 1024;
};
/**
 * serve's resident memory by where it lies (/proc smaps): the node executable and libraries' pages, the C
 * allocator's heap (Node's socket and Buffer memory below the allocator's mmap threshold), and anonymous
 * mappings (V8's heap pages, and larger Buffers such as the window's chunks).
 */
const residentByKind = () => {
  const kinds = { code: 0, malloc: 0, anonymous: 0 };
  let kind = 'anonymous';
  for (const line of readFileSync(`/proc/${child.pid}/smaps`, 'utf8').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping !== null) {
      const name = mapping[1];
      kind = name === '[heap]' ? 'malloc' : name.startsWith('/') ? 'code' : 'anonymous';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss !== null) kinds[kind] += Number(rss[1]) / 1024;
  }
  return `executable and libraries ${kinds.code.toFixed(0)} MiB, C allocator's heap ${kinds.malloc.toFixed(0)} MiB, anonymous (V8 heap, large buffers) ${kinds.anonymous.toFixed(0)} MiB`;
};
/** CPU seconds the serve process has used (user + system, from /proc). */
const serveCpuSeconds = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const metricsText = () =>
  new Promise((resolve, reject) => {
    get(metrics, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
const decisionsTaken = async () => {
  const text = await metricsText();
  let sum = 0;
  for (const m of text.matchAll(/^agentfootprint_routing_decisions_total\{[^}]*\} (\d+)$/gm))
    sum += Number(m[1]);
  return sum;
};

const random = createRandom(7);
const inputs = Array.from({ length: 4096 }, () => ({
  scores: Array.from({ length: 8 }, (_, i) => ({ id: `skill-${i}`, score: random() * 2 - 0.5 })),
  incumbentId: random() < 0.5 ? undefined : `skill-${Math.floor(random() * 8)}`,
}));
const policy = { nearTieMargin: 0.15, menuSize: 3 };

function makeAgent(Exporter = OTLPTraceExporter) {
  const provider = new BasicTracerProvider({
    spanProcessors: [
      new BatchSpanProcessor(new Exporter({ url: `${endpoint}/v1/traces` }), {
        maxExportBatchSize: 512,
        maxQueueSize: 65_536,
        scheduledDelayMillis: 100,
      }),
    ],
  });
  const decide = instrumentDecideTier2(decideTier2, { tracerProvider: provider, routerName: 'bench' });
  return { provider, decide };
}

// 1. Flat out: make spans as fast as this process can for SECONDS, in slices that let the exporter run; once
// with the JSON exporter, once with the protobuf one.
async function flatOut(encoding, Exporter) {
  const { provider, decide } = makeAgent(Exporter);
  const before = await decisionsTaken();
  const cpuBefore = serveCpuSeconds();
  const started = performance.now();
  let made = 0;
  // Rounds of 10 batches: the next round is made while the last one is exported (at most 20 exports in flight,
  // under the exporter's limit of 30), so serve is never idle waiting for this process.
  let exporting = Promise.resolve();
  while (performance.now() - started < SECONDS * 1000) {
    for (let i = 0; i < 5120; i++, made++) {
      const input = inputs[made & 4095];
      decide(input.scores, input.incumbentId, policy, { floor: 0 });
    }
    await exporting;
    exporting = provider.forceFlush();
  }
  await exporting;
  await provider.forceFlush();
  const seconds = (performance.now() - started) / 1000;
  const taken = (await decisionsTaken()) - before;
  await provider.shutdown();
  const rate = taken / seconds;
  const cpu = serveCpuSeconds() - cpuBefore;
  console.log(
    `flat out, ${encoding}: ${made} decisions made, ${taken} taken by serve in ${seconds.toFixed(1)} s = ${Math.round(rate)} routing spans/s; serve busy ${((100 * cpu) / seconds).toFixed(0)}% of one core (${Math.round(taken / cpu)} spans per CPU second); dropped by the exporter ${dropped.spans}; serve peak RSS ${peakRssMiB().toFixed(0)} MiB`,
  );
  // "On one core": serve's own thread, so spans per CPU second serve used. The wall-clock rate is bounded by
  // this process, which makes and exports the spans on the machine's other core.
  return { perCpu: taken / cpu, rate };
}
{
  const json = await flatOut('JSON', OTLPTraceExporter);
  const protobuf = await flatOut('protobuf', OTLPProtoTraceExporter);
  const text = await metricsText();
  const figure = (name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
  console.log(
    `serve now: window ${figure('routescope_serve_window_bytes').toFixed(1)} MiB packed, V8 heap in use ${figure('nodejs_heap_size_used_bytes').toFixed(0)} of ${figure('nodejs_heap_size_total_bytes').toFixed(0)} MiB, external ${figure('nodejs_external_memory_bytes').toFixed(0)} MiB, RSS ${figure('process_resident_memory_bytes').toFixed(0)} MiB: ${residentByKind()}`,
  );
  const worst = Math.min(json.perCpu, protobuf.perCpu);
  reportTarget(
    'serve: ≥ 100,000 routing spans per CPU second (JSON and protobuf)',
    `JSON ${Math.round(json.perCpu)}, protobuf ${Math.round(protobuf.perCpu)} per CPU second (wall clock ${Math.round(json.rate)}/s and ${Math.round(protobuf.rate)}/s, bounded by this driver)`,
    worst >= 100_000,
  );
  reportTarget(
    'serve: peak RSS ≤ 150 MiB at the default window',
    `${peakRssMiB().toFixed(0)} MiB`,
    peakRssMiB() <= 150,
  );
}

// 2. An agent's rate: 1,000 turns per second for 10 s.
{
  dropped.spans = 0;
  const { provider, decide } = makeAgent();
  const before = await decisionsTaken();
  const started = performance.now();
  let made = 0;
  for (let slice = 0; slice < 1000; slice++) {
    for (let i = 0; i < 10; i++, made++) {
      const input = inputs[made & 4095];
      decide(input.scores, input.incumbentId, policy, { floor: 0 });
    }
    const due = started + (slice + 1) * 10;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
  }
  await provider.forceFlush();
  await provider.shutdown();
  const taken = (await decisionsTaken()) - before;
  const text = await metricsText();
  const window = Number(/^routescope_serve_window_decisions (\d+)$/m.exec(text)?.[1]);
  const rss = Number(/^process_resident_memory_bytes (\d+)$/m.exec(text)?.[1]) / 2 ** 20;
  console.log(
    `1,000 turns/s for 10 s: ${made} made, ${taken} taken by serve, ${dropped.spans} dropped by the exporter; serve's RSS at the end ${rss.toFixed(0)} MiB with ${window} decisions in the window`,
  );
  reportTarget(
    'serve: at 1,000 turns/s the exporter drops nothing',
    `${made - taken} lost, ${dropped.spans} dropped`,
    taken === made && dropped.spans === 0,
  );
}

child.kill('SIGINT');
await new Promise((resolve) => child.on('exit', resolve));
