/**
 * serve's /metrics scraped by a real Prometheus with the shipped direct rules: the routing counters serve
 * computes from received spans give the near-tie rate the test routed, through the alert's recording rule, and
 * the near-tie alert goes pending. Nothing but a scrape config points Prometheus at serve. And `promtool check
 * metrics` finds nothing to say about the exposition.
 *
 * The real `prometheus` binary (Debian package; fails, not skips, without it) runs on loopback with temp
 * storage, scraping every second. The spans come from the real SDK and OTLP/HTTP exporter.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROM_ROUTING_DECISIONS_TOTAL } from '../../src/semconv/metricNames.js';
import type { RunningServe } from '../../src/serve/startServe.js';
import { exportDecisions, startTestServe } from '../serve/serveHarness.js';

const RULES = fileURLToPath(new URL('../../dashboards/alerts/routing-direct.rules.yaml', import.meta.url));
const WAIT_MS = 30_000;

let serve: RunningServe;
let child: ChildProcess | undefined;
let dir: string | undefined;
let api = '';
let log = '';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a !== null ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

/** Poll until `check` gives a value; on timeout, fail with what was awaited and Prometheus' log. */
async function eventually<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`gave up waiting for ${what} (${last})\n${log.slice(-2000)}`);
}

async function instant(promql: string): Promise<{ metric: Record<string, string>; value: number }[]> {
  const r = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await r.json()) as {
    data: { result: { metric: Record<string, string>; value: [number, string] }[] };
  };
  return body.data.result.map((x) => ({ metric: x.metric, value: Number(x.value[1]) }));
}

beforeAll(async () => {
  const found = spawnSync('prometheus', ['--version']);
  if (found.error || found.status !== 0)
    throw new Error(
      'prometheus not found on PATH: install the Debian package (bash test/setup/install-tools.sh)',
    );
  serve = await startTestServe();
  dir = mkdtempSync(path.join(os.tmpdir(), 'routescope-serve-prom-'));
  const port = await freePort();
  api = `http://127.0.0.1:${port}`;
  const target = new URL(serve.endpoint).host;
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    rule_files: [RULES],
    scrape_configs: [{ job_name: 'routescope-serve', static_configs: [{ targets: [target] }] }],
  };
  writeFileSync(path.join(dir, 'prometheus.yml'), JSON.stringify(config));
  child = spawn(
    'prometheus',
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const keep = (c: Buffer) => void (log = (log + c.toString()).slice(-20_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  await eventually('Prometheus to be ready', async () =>
    (await fetch(`${api}/-/ready`)).ok ? true : undefined,
  );
}, 60_000);

afterAll(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child!.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  await serve?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('serve /metrics through a real Prometheus and the shipped rules', () => {
  it('the recording rule gives the routed near-tie rate, and the near-tie alert goes pending', async () => {
    // Two batches one scrape apart, so rate() sees every series grow by the same factor.
    const first = await exportDecisions(serve.endpoint, 60, 'json');
    await eventually('the first batch scraped', async () => {
      const [s] = await instant(`sum(${PROM_ROUTING_DECISIONS_TOTAL})`);
      return s?.value === 60 ? true : undefined;
    });
    const second = await exportDecisions(serve.endpoint, 60, 'protobuf');
    await eventually('both batches scraped', async () => {
      const [s] = await instant(`sum(${PROM_ROUTING_DECISIONS_TOTAL})`);
      return s?.value === 120 ? true : undefined;
    });
    expect(first.length + second.length).toBe(120);
    // Every third turn of exportDecisions is a near-tie.
    const ratio = await eventually('the near-tie recording rule', async () => {
      const [s] = await instant(
        'routescope:near_tie:ratio_rate5m{metrics_source="direct",agentfootprint_routing_router="desk"}',
      );
      return s === undefined ? undefined : s.value;
    });
    expect(ratio).toBeCloseTo(1 / 3, 6);
    const alert = await eventually('the near-tie alert', async () => {
      const r = await fetch(`${api}/api/v1/alerts`);
      const body = (await r.json()) as {
        data: { alerts: { labels: Record<string, string>; state: string }[] };
      };
      return body.data.alerts.find((a) => a.labels.alertname === 'RoutingNearTieRateOverBudget');
    });
    expect(alert.labels.agentfootprint_routing_router).toBe('desk');
    expect(['pending', 'firing']).toContain(alert.state);
  }, 90_000);

  it('/metrics passes `promtool check metrics`, the exposition lint, with every family serve writes', async () => {
    const text = await (await fetch(serve.metricsUrl)).text();
    for (const family of [
      PROM_ROUTING_DECISIONS_TOTAL,
      'agentfootprint_routing_gap_bucket',
      'routescope_serve_requests_total',
      'routescope_serve_window_bytes',
      'process_resident_memory_bytes',
    ])
      expect(text).toContain(`\n${family}`);
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(lint.status, `${lint.stdout}${lint.stderr}`).toBe(0);
    expect(`${lint.stdout}${lint.stderr}`.trim()).toBe('');
  });
});
