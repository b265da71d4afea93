/**
 * prometheusServer — a real Prometheus for end-to-end tests: the Debian `prometheus` binary on a free loopback
 * port, temp storage, scraping its targets every second with its rules files loaded; instant queries through its
 * HTTP API. The process is an engine like the others (engines/engineProcess.ts): polling with a deadline, and a
 * stop that kills it if it lingers. Fails, never skips, without the
 * binary: a skipped end-to-end test would let broken rules pass.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { engineDir, startEngine } from './engines/engineProcess.js';

/**
 * A port free on loopback right now, for an engine that must be told its port before it starts (the listener
 * that checked it is closed before it is handed out). It is drawn below the kernel's ephemeral range
 * (`ip_local_port_range`), where no other process's port 0 can land between the check and the engine's bind
 * (a Jaeger once lost its query port that way); where that range leaves no room, the kernel picks, as before.
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  for (let attempt = 0; low > FIXED_PORT_FLOOR + 1000 && attempt < 50; attempt++) {
    const port = FIXED_PORT_FLOOR + Math.floor(Math.random() * (low - FIXED_PORT_FLOOR));
    // Never the same port twice in one process: ports picked together are all free at once.
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
  return listenOnce(0);
}

const handedOut = new Set<number>();

/** The lowest port tests draw fixed ports from. */
const FIXED_PORT_FLOOR = 20_000;

/** The first port of the kernel's ephemeral range; 0 when it cannot be read (then the kernel picks). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) ? low : 0;
  } catch {
    return 0;
  }
}

async function canListen(port: number): Promise<boolean> {
  try {
    return (await listenOnce(port)) === port;
  } catch {
    return false;
  }
}

/** Listen on `port` of loopback (0: any), close, and give the port that was bound. */
function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** One series of an instant query's answer. */
export interface Sample {
  readonly metric: Record<string, string>;
  readonly time: number;
  readonly value: number;
}

/** A running Prometheus. */
export interface PrometheusServer {
  /** Its HTTP API's base URL. */
  readonly url: string;
  /** An instant query; the result as samples (a scalar comes back as one sample). */
  query(promql: string): Promise<{ time: number; samples: Sample[] }>;
  /** Poll `check` until it gives a value, at most `waitMs`; on timeout fail saying what was awaited and why. */
  waitFor<T>(what: string, check: () => Promise<T | undefined>): Promise<T>;
  /** Stop it (TERM, then KILL after 5 s) and remove its storage. */
  stop(): Promise<void>;
}

export interface PrometheusOptions {
  /** The `host:port` it scrapes, or several (one job, one `instance` label each). */
  readonly target: string | readonly string[];
  readonly jobName: string;
  /** The rules files it loads. */
  readonly rules: string | readonly string[];
  /** How long waitFor polls before it fails. */
  readonly waitMs: number;
  /** Store exemplars (`--enable-feature=exemplar-storage`, off by default in Prometheus). */
  readonly exemplars?: boolean;
  /** An Alertmanager (`host:port`) to send firing alerts to. */
  readonly alertmanager?: string;
}

/** Start Prometheus scraping `target` every second with `rules` loaded, once it says it is ready. */
export async function startPrometheus(options: PrometheusOptions): Promise<PrometheusServer> {
  const found = spawnSync('prometheus', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new Error(
      'prometheus not found on PATH: the end-to-end metrics tests run a real Prometheus server. Install the ' +
        'Debian package `prometheus` (bash test/setup/install-tools.sh) and run the tests again.',
    );
  }
  const dir = engineDir('prometheus');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // JSON is YAML: Prometheus reads it as its config file.
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    rule_files: typeof options.rules === 'string' ? [options.rules] : options.rules,
    scrape_configs: [
      {
        job_name: options.jobName,
        static_configs: [{ targets: typeof options.target === 'string' ? [options.target] : options.target }],
      },
    ],
    ...(options.alertmanager === undefined
      ? {}
      : { alerting: { alertmanagers: [{ static_configs: [{ targets: [options.alertmanager] }] }] } }),
  };
  const configFile = path.join(dir, 'prometheus.yml');
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  const targetHealth = async (): Promise<string> => {
    try {
      const response = await fetch(`${url}/api/v1/targets`, { signal: AbortSignal.timeout(2_000) });
      const body = (await response.json()) as {
        data?: { activeTargets?: { health: string; lastError: string; scrapeUrl: string }[] };
      };
      return JSON.stringify(body.data?.activeTargets?.map((t) => [t.scrapeUrl, t.health, t.lastError]));
    } catch (err) {
      return `targets unavailable (${(err as Error).message})`;
    }
  };

  const engine = startEngine(
    'prometheus',
    'prometheus',
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
      ...(options.exemplars === true ? ['--enable-feature=exemplar-storage'] : []),
    ],
    dir,
    {},
    async () => `targets: ${await targetHealth()}`,
  );

  const server: PrometheusServer = {
    url,
    async query(promql) {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`, {
        signal: AbortSignal.timeout(5_000),
      });
      const body = (await response.json()) as {
        status: string;
        error?: string;
        data?: { resultType: string; result: unknown };
      };
      if (body.status !== 'success' || body.data === undefined) {
        throw new Error(`Prometheus refused ${promql}: ${body.error ?? response.status}`);
      }
      const now = Date.now() / 1000;
      if (body.data.resultType === 'scalar') {
        const [time, value] = body.data.result as [number, string];
        return { time, samples: [{ metric: {}, time, value: Number(value) }] };
      }
      const result = body.data.result as { metric: Record<string, string>; value: [number, string] }[];
      const samples = result.map((r) => ({ metric: r.metric, time: r.value[0], value: Number(r.value[1]) }));
      return { time: samples[0]?.time ?? now, samples };
    },
    waitFor: (what, check) => engine.waitFor(what, check, options.waitMs),
    stop: () => engine.stop(),
  };
  try {
    await server.waitFor('Prometheus to be ready', async () => {
      const response = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1_000) });
      return response.ok ? true : undefined;
    });
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}
