/**
 * collector — a kit file from collector-config/ run on the real Collector build, for a test.
 *
 * The file is run as shipped but for what a test must own: every listening address moves to a free loopback
 * port (the OTLP receiver, the Prometheus exporter, the health check, the Collector's own metrics), the folder
 * and endpoints come through the file's own environment variables, and span metrics flush every second instead
 * of every 15 (so a test waits seconds, not minutes). `edit` may change more (a test says what and why).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { freePort } from '../prometheusServer.js';
import { engine } from './engineBuild.js';
import { engineDir, getOk, startEngine, type EngineProcess } from './engineProcess.js';

const KIT = fileURLToPath(new URL('../../../collector-config/', import.meta.url));

/** A kit file parsed, for a test to read or change. */
export type CollectorConfig = Record<string, Record<string, unknown>>;

/** A kit file as the Collector will read it (YAML parsed; the `${env:…}` references left for the Collector). */
export function kitConfig(file: string): CollectorConfig {
  return parseYaml(readFileSync(path.join(KIT, file), 'utf8')) as CollectorConfig;
}

export interface CollectorOptions {
  /** The kit file (collector-config/<file>), or a name for `config`. */
  readonly file: string;
  /** A config of the test's own instead of the kit file (a sink that stores what it receives, say). */
  readonly config?: CollectorConfig;
  /** Environment for the file's `${env:…}` references (ROUTESCOPE_TRACE_DIR is set to a temp folder). */
  readonly env?: Record<string, string>;
  /** A change to the parsed config after the ports are set. */
  readonly edit?: (config: CollectorConfig) => void;
  /** Extra command-line arguments (feature gates). */
  readonly args?: readonly string[];
}

/** A running Collector. */
export interface RunningCollector extends EngineProcess {
  /** OTLP/HTTP base URL (POST `${otlpHttp}/v1/traces`). */
  readonly otlpHttp: string;
  /** OTLP/gRPC `host:port`. */
  readonly otlpGrpc: string;
  /** The Prometheus exporter's `host:port`, when the file has one. */
  readonly prometheusTarget: string | undefined;
  /** The Collector's own metrics (`otelcol_*`) as `host:port`. */
  readonly telemetryTarget: string;
  /** The folder ROUTESCOPE_TRACE_DIR points at. */
  readonly traceDir: string;
  /** The Collector's own metrics, as Prometheus text. */
  telemetry(): Promise<string>;
}

function section(config: Record<string, unknown>, name: string): Record<string, unknown> {
  const found = config[name];
  if (found === undefined || found === null || typeof found !== 'object')
    throw new Error(`the config has no ${name} section`);
  return found as Record<string, unknown>;
}

async function startOnce(options: CollectorOptions): Promise<RunningCollector> {
  const { binary } = engine('otelcol');
  const config = options.config === undefined ? kitConfig(options.file) : structuredClone(options.config);
  const [grpc, http, health, telemetry, prometheus] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const otlp = section(section(config, 'receivers'), 'otlp') as {
    protocols: Record<string, { endpoint: string }>;
  };
  otlp.protocols.grpc!.endpoint = `127.0.0.1:${grpc}`;
  otlp.protocols.http!.endpoint = `127.0.0.1:${http}`;
  const exporters = section(config, 'exporters');
  const hasPrometheus = exporters.prometheus !== undefined;
  if (hasPrometheus) (exporters.prometheus as { endpoint: string }).endpoint = `127.0.0.1:${prometheus}`;
  const extensions = (config.extensions ??= {});
  extensions.health_check = {
    ...(extensions.health_check as object | undefined),
    endpoint: `127.0.0.1:${health}`,
  };
  const service = section(config, 'service');
  const enabled = (service.extensions as string[] | undefined) ?? [];
  if (!enabled.includes('health_check')) service.extensions = [...enabled, 'health_check'];
  const connectors = config.connectors as Record<string, Record<string, unknown>> | undefined;
  if (connectors?.span_metrics !== undefined) connectors.span_metrics.metrics_flush_interval = '1s';
  service.telemetry = {
    metrics: { readers: [{ pull: { exporter: { prometheus: { host: '127.0.0.1', port: telemetry } } } }] },
  };
  options.edit?.(config);

  const dir = engineDir(`otelcol-${path.basename(options.file, '.yaml')}`);
  const traceDir = path.join(dir, 'traces');
  mkdirSync(traceDir);
  const configFile = path.join(dir, 'config.json');
  // JSON is YAML: the Collector reads it as its config file.
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  const process = startEngine('otelcol', binary, [`--config=${configFile}`, ...(options.args ?? [])], dir, {
    ROUTESCOPE_TRACE_DIR: traceDir,
    ...options.env,
  });
  const running: RunningCollector = {
    ...process,
    otlpHttp: `http://127.0.0.1:${http}`,
    otlpGrpc: `127.0.0.1:${grpc}`,
    prometheusTarget: hasPrometheus ? `127.0.0.1:${prometheus}` : undefined,
    telemetryTarget: `127.0.0.1:${telemetry}`,
    traceDir,
    async telemetry() {
      return (await getOk(`http://127.0.0.1:${telemetry}/metrics`)) ?? '';
    },
  };
  try {
    await running.waitFor('the Collector to report healthy', () => getOk(`http://127.0.0.1:${health}/`));
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}

/**
 * A Collector config of the tests' own that stores every span it receives as OTLP/JSON lines in its trace folder:
 * what a trace store would have been sent.
 */
export const SINK_CONFIG: CollectorConfig = {
  receivers: { otlp: { protocols: { grpc: { endpoint: '' }, http: { endpoint: '' } } } },
  exporters: {
    file: { path: '${env:ROUTESCOPE_TRACE_DIR}/received.jsonl', format: 'json', flush_interval: '200ms' },
  },
  service: { pipelines: { traces: { receivers: ['otlp'], exporters: ['file'] } } },
};

/**
 * Start a kit file on the real Collector and wait until its health check answers. A port taken between being
 * picked and being bound (another test's process got it first) is retried with new ports, twice.
 */
export async function startCollector(options: CollectorOptions): Promise<RunningCollector> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (error) {
      const message = (error as Error).message;
      if (attempt >= 3 || !/address already in use/.test(message)) throw error;
    }
  }
}

/** The value of one series of Prometheus text (`name{labels} value`) summed over every label set; 0 when absent. */
export function sumOfSeries(text: string, name: string, labelFilter: RegExp = /.*/): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (match === null || match[1] !== name) continue;
    if (!labelFilter.test(match[2] ?? '')) continue;
    total += Number(match[3]);
  }
  return total;
}
