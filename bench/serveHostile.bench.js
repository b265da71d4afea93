// bench/serveHostile.bench.js — `routescope serve` at its default settings under the worst inputs of issue 44's
// second part: its peak RSS, and how long its receiver's /healthz waited (the event loop held) meanwhile.
//
// Each attack gets a serve of its own (the shipped executable, one thread, loopback ports it picks), so the peak
// RSS (VmHWM from /proc) is that attack's. While the attack runs, this process asks the receiver's /healthz every
// 20 ms and keeps the longest answer. Prints figures; asserts nothing; the targets go to `npm run bench`'s table.
/* global fetch */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import { TextDecoder } from 'node:util';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { decideTier2, instrumentDecideTier2 } from '../dist/index.js';
import { reportTarget } from './targets.js';

const BIN = fileURLToPath(new URL('../dist/bin/routescope.js', import.meta.url));

/** serve in a child, as a user starts it, with `args`; its URLs from what it prints. */
async function startServe(args = []) {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--ui-port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const urls = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const endpoint = /OTEL_EXPORTER_OTLP_ENDPOINT=(\S+)\)/.exec(out)?.[1];
      const page = /live page\s+(\S+)/.exec(out)?.[1];
      if (endpoint !== undefined && page !== undefined) resolve({ endpoint, page });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code} before listening: ${out}`)));
  });
  const peakMiB = () =>
    Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
  const stop = () =>
    new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
  return { ...urls, child, peakMiB, stop };
}

/** Ask `url` every 20 ms until stopped; the longest answer, in ms. */
function probe(url) {
  let longest = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(url).then(
        (r) => r.arrayBuffer(),
        () => undefined,
      );
      longest = Math.max(longest, performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return longest;
  };
}

function post(url, body, headers) {
  return fetch(url, { method: 'POST', body, headers }).then(async (r) => {
    await r.arrayBuffer();
    return r.status;
  });
}

/** One OTLP/JSON request of one real routing span (the package's wrapper, the real SDK and serializer). */
async function routingRequestJson() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const decide = instrumentDecideTier2(decideTier2, {
    tracerProvider: provider,
    routerName: 'desk',
    scorerName: 'keyword',
    context: () => ({ conversationId: 'CONVERSATION' }),
  });
  decide(
    [
      { id: 'billing', score: 0.9 },
      { id: 'refunds', score: 0.85 },
    ],
    undefined,
    { nearTieMargin: 0.1, menuSize: 2 },
    {},
  );
  await provider.forceFlush();
  const span = exporter.getFinishedSpans()[0];
  return {
    json: new TextDecoder().decode(JsonTraceSerializer.serializeRequest([span])),
    spanId: span.spanContext().spanId,
  };
}

/** `count` turn_routed events, `perConversation` to a conversation. */
function eventLog(count, perConversation, from = 0) {
  const lines = [];
  for (let i = from; i < from + count; i++)
    lines.push(
      JSON.stringify({
        type: 'agentfootprint.skill.turn_routed',
        payload: {
          by: 'intent',
          to: 'billing',
          scorer: 'keyword',
          scores: [
            { id: 'billing', score: 0.5, relevance: 0.4 },
            { id: 'returns', score: 0.48, relevance: 0.35 },
            { id: 'tech', score: 0.1, relevance: 0.25 },
          ],
          decisive: false,
          policy: { nearTieMargin: 0.15, menuSize: 3, floor: 0 },
        },
        meta: {
          wallClockMs: 1796283797308 + i * 1000,
          runId: `run-${i}`,
          sessionId: `conv-${Math.floor(i / perConversation)}`,
        },
      }),
    );
  return `${lines.join('\n')}\n`;
}

/** 10,000 decisions into the window, `per` to a conversation, as event logs of 500 lines. */
async function fill(serve, per) {
  for (let from = 0; from < 10_000; from += 500)
    await post(`${serve.endpoint}/agentfootprint/events`, eventLog(500, per, from), {
      'content-type': 'application/x-ndjson',
    });
}

const rows = [];
/** One attack on a fresh serve: `prepare` (filling the window) is not timed, `run` is. */
async function attack(name, args, run, prepare = async () => {}) {
  const serve = await startServe(args);
  await prepare(serve);
  // serve's own event-loop delay gauge is since the previous scrape: a scrape here starts it for the attack.
  const lag = async () => {
    const text = await (await fetch(`${serve.endpoint}/metrics`)).text();
    return Number(/^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)?.[1]) * 1000;
  };
  await lag();
  const stopProbe = probe(`${serve.endpoint}/healthz`);
  const started = performance.now();
  const note = await run(serve);
  const seconds = (performance.now() - started) / 1000;
  const longest = await stopProbe();
  const held = await lag();
  const peak = serve.peakMiB();
  await serve.stop();
  rows.push({ name, peak, held, longest, seconds, note });
  console.log(
    `${name}: peak RSS ${peak.toFixed(0)} MiB, event loop held at most ${held.toFixed(0)} ms (/healthz answered within ${longest.toFixed(0)} ms), ${seconds.toFixed(1)} s; ${note}`,
  );
}

const template = await routingRequestJson();

await attack('idle (for reference)', [], async () => {
  await new Promise((r) => setTimeout(r, 1000));
  return 'nothing sent';
});

await attack('50 gzip requests, each one decision with a 15 MiB conversation id', [], async (serve) => {
  const statuses = [];
  for (let i = 0; i < 50; i++) {
    const body = template.json
      .replace('"CONVERSATION"', `"${'c'.repeat(15 * 1024 * 1024)}${i}"`)
      .replace(template.spanId, (i + 1).toString(16).padStart(16, '0'));
    statuses.push(
      await post(`${serve.endpoint}/v1/traces`, gzipSync(body), {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      }),
    );
  }
  const metrics = await (await fetch(`${serve.endpoint}/metrics`)).text();
  const live = /^routescope_serve_window_live_bytes (\d+)/m.exec(metrics)?.[1];
  return `${statuses.filter((s) => s === 200).length} answered 200; the window holds ${(Number(live) / 1024).toFixed(0)} KiB`;
});

const outDir = mkdtempSync(join(tmpdir(), 'rs-hostile-'));
/** A protobuf request of `mib` MiB of empty spans (two bytes each), gzipped. */
const emptySpans = (mib) => {
  const field = (n, bytes) => {
    const len = [];
    let v = bytes.length;
    while (v >= 0x80) {
      len.push((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    len.push(v);
    return Buffer.concat([Buffer.from([(n << 3) | 2, ...len]), bytes]);
  };
  return gzipSync(field(1, field(2, Buffer.alloc(mib * 1024 * 1024 - 64, Buffer.from([0x12, 0x00])))), {
    level: 9,
  });
};
for (const [name, mib, args] of [
  [
    '20 requests of 4 KiB gzip holding 2 M empty protobuf spans each, with --out',
    4,
    ['--out', join(outDir, 'out.jsonl')],
  ],
  [
    '20 requests of 16 KiB gzip holding 8 M empty protobuf spans each (--max-body), with --out',
    16,
    ['--out', join(outDir, 'out.jsonl')],
  ],
  ['the same without --out', 16, []],
])
  await attack(name, args, async (serve) => {
    const body = emptySpans(mib);
    const statuses = [];
    for (let i = 0; i < 20; i++)
      statuses.push(
        await post(`${serve.endpoint}/v1/traces`, body, {
          'content-type': 'application/x-protobuf',
          'content-encoding': 'gzip',
        }),
      );
    return `${(body.length / 1024).toFixed(1)} KiB each; answered ${[...new Set(statuses)].join(', ')}`;
  });

for (const [name, per] of [
  ['six explains at once, six times, over 10,000 decisions of 10 conversations', 1000],
  ['six explains at once, six times, of one conversation of 10,000 decisions', 10_000],
])
  await attack(
    name,
    [],
    async (serve) => {
      const statuses = [];
      for (let round = 0; round < 6; round++)
        statuses.push(
          ...(await Promise.all(
            Array.from({ length: 6 }, (_, i) =>
              fetch(`${serve.page}explain/conv-${per === 10_000 ? 0 : i}`).then(async (r) => [
                r.status,
                (await r.arrayBuffer()).byteLength,
              ]),
            ),
          )),
        );
      const largest = Math.max(...statuses.map(([, n]) => n));
      const counts = {};
      for (const [s] of statuses) counts[s] = (counts[s] ?? 0) + 1;
      return `answers ${JSON.stringify(counts)}, the largest page ${(largest / 1024).toFixed(0)} KiB`;
    },
    (serve) => fill(serve, per),
  );

await attack(
  '100 clients that ask for the page and explain and never read, over 10,000 decisions',
  [],
  async (serve) => {
    const url = new URL(serve.page);
    const sockets = [];
    for (let i = 0; i < 100; i++) {
      const socket = connect(Number(url.port), url.hostname);
      socket.pause();
      socket.write(
        `GET ${i % 2 === 0 ? '/' : `/explain/conv-${i % 10}`} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
      );
      sockets.push(socket);
    }
    await new Promise((r) => setTimeout(r, 5000));
    const status = await fetch(serve.page).then((r) => r.status);
    for (const s of sockets) s.destroy();
    return `a real page meanwhile: ${status}`;
  },
  (serve) => fill(serve, 1000),
);

await attack('40 senders trickling a body at 1 byte / 2 s, and a real sender', [], async (serve) => {
  const url = new URL(serve.endpoint);
  const sockets = [];
  for (let i = 0; i < 40; i++) {
    const socket = connect(Number(url.port), url.hostname);
    socket.on('error', () => {});
    socket.write(
      'POST /v1/traces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
    );
    sockets.push(socket);
  }
  const trickle = setInterval(() => sockets.forEach((s) => s.writable && s.write(' ')), 2000);
  const statuses = [];
  for (let i = 0; i < 20; i++) {
    statuses.push(
      await post(
        `${serve.endpoint}/v1/traces`,
        template.json.replace(template.spanId, (i + 1).toString(16).padStart(16, '0')),
        { 'content-type': 'application/json' },
      ),
    );
    await new Promise((r) => setTimeout(r, 200));
  }
  clearInterval(trickle);
  for (const s of sockets) s.destroy();
  const counts = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return `the real sender's answers ${JSON.stringify(counts)}`;
});

await attack('64 event streams that never read, then a real page', [], async (serve) => {
  const url = new URL(serve.page);
  const sockets = [];
  for (let i = 0; i < 64; i++) {
    const socket = connect(Number(url.port), url.hostname);
    socket.pause();
    socket.write('GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    sockets.push(socket);
  }
  await new Promise((r) => setTimeout(r, 500));
  const answer = await new Promise((resolve) => {
    const req = request(`${serve.page}events`, (res) => {
      res.once('data', (d) => {
        resolve(
          `${res.statusCode}, first event ${JSON.stringify(
            String(d)
              .split('\n')
              .find((l) => l.startsWith('event')),
          )}`,
        );
        req.destroy();
      });
    });
    req.on('error', (e) => resolve(e.message));
    req.end();
  });
  for (const s of sockets) s.destroy();
  return `the real page: ${answer}`;
});

const worst = rows.slice(1).reduce((a, b) => (b.peak > a.peak ? b : a));
const slowest = rows.slice(1).reduce((a, b) => (b.held > a.held ? b : a));
console.log(
  `\nworst peak RSS: ${worst.peak.toFixed(0)} MiB (${worst.name}); the event loop held longest: ${slowest.held.toFixed(0)} ms (${slowest.name})`,
);
reportTarget(
  'serve under hostile inputs: peak RSS ≤ 256 MiB at the defaults',
  `${worst.peak.toFixed(0)} MiB (${worst.name})`,
  worst.peak <= 256,
);
reportTarget(
  'serve under hostile inputs: event loop held ≤ ~100 ms',
  `${slowest.held.toFixed(0)} ms (${slowest.name})`,
  slowest.held <= 150,
);
rmSync(outDir, { recursive: true, force: true });
