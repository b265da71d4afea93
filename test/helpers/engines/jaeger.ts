/**
 * jaeger — collector-config/stack/jaeger.yaml (the compose stack's Jaeger v2: OTLP in, memory storage, the Monitor
 * tab reading span metrics from Prometheus) run on the real Jaeger build, for a test. As for the Collector, only
 * what a test must own changes: every listening address moves to a free loopback port, and the metrics backend
 * points at the test's Prometheus.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { freePort } from '../prometheusServer.js';
import { engine } from './engineBuild.js';
import { engineDir, getOk, startEngine, type EngineProcess } from './engineProcess.js';

const CONFIG = fileURLToPath(new URL('../../../collector-config/stack/jaeger.yaml', import.meta.url));

/** The ports a Jaeger will listen on, picked before it starts (a Collector may need to know where to send). */
export interface JaegerPorts {
  readonly otlpGrpc: number;
  readonly otlpHttp: number;
  readonly query: number;
  readonly queryGrpc: number;
  readonly telemetry: number;
}

/** A running Jaeger. */
export interface RunningJaeger extends EngineProcess {
  /** Where a Collector sends OTLP/gRPC (`host:port`). */
  readonly otlpGrpc: string;
  /** The query service's base URL (the UI's address: /api/traces, /api/v3/traces, /api/metrics/*). */
  readonly queryUrl: string;
}

/** Free loopback ports for a Jaeger. */
export async function jaegerPorts(): Promise<JaegerPorts> {
  const [otlpGrpc, otlpHttp, query, queryGrpc, telemetry] = await Promise.all(
    Array.from({ length: 5 }, () => freePort()),
  );
  return {
    otlpGrpc: otlpGrpc!,
    otlpHttp: otlpHttp!,
    query: query!,
    queryGrpc: queryGrpc!,
    telemetry: telemetry!,
  };
}

/** Start the stack's Jaeger on `ports`, its Monitor tab reading `prometheusUrl`; resolves once its API answers. */
export async function startJaeger(ports: JaegerPorts, prometheusUrl: string): Promise<RunningJaeger> {
  const { binary } = engine('jaeger');
  const config = parseYaml(readFileSync(CONFIG, 'utf8')) as {
    receivers: { otlp: { protocols: Record<string, { endpoint: string }> } };
    extensions: {
      jaeger_query: Record<string, unknown>;
      jaeger_storage: { metric_backends: Record<string, { prometheus: { endpoint: string } }> };
    };
    service: Record<string, unknown>;
  };
  config.receivers.otlp.protocols.grpc!.endpoint = `127.0.0.1:${ports.otlpGrpc}`;
  config.receivers.otlp.protocols.http!.endpoint = `127.0.0.1:${ports.otlpHttp}`;
  config.extensions.jaeger_query.http = { endpoint: `127.0.0.1:${ports.query}` };
  config.extensions.jaeger_query.grpc = { endpoint: `127.0.0.1:${ports.queryGrpc}` };
  for (const backend of Object.values(config.extensions.jaeger_storage.metric_backends))
    backend.prometheus.endpoint = prometheusUrl;
  config.service.telemetry = {
    metrics: {
      readers: [{ pull: { exporter: { prometheus: { host: '127.0.0.1', port: ports.telemetry } } } }],
    },
  };
  const dir = engineDir('jaeger');
  const file = path.join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  const process = startEngine('jaeger', binary, [`--config=${file}`], dir);
  const running: RunningJaeger = {
    ...process,
    otlpGrpc: `127.0.0.1:${ports.otlpGrpc}`,
    queryUrl: `http://127.0.0.1:${ports.query}`,
  };
  try {
    await running.waitFor(
      'Jaeger to answer /api/services',
      () => getOk(`${running.queryUrl}/api/services`),
      60_000,
    );
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}
