/**
 * serveHarness — a real `serve` on loopback ports picked by the system, and a real SDK exporting to it.
 *
 * The SDK is the one a user runs: BasicTracerProvider, BatchSpanProcessor and the OTLP/HTTP exporter (JSON
 * or protobuf), with the instrumented decideTier2 wrapper routing real calls. Nothing is registered globally.
 * `until` (poll with a deadline) and `post` are the helpers every serve test shares.
 */
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { OtlpJsonLinesFileExporter } from '../../src/demo/otlpJsonLinesFileExporter.js';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { decideTier2 } from '../../src/policy/routingPolicy.js';
import { startServe, type RunningServe, type ServeOptions } from '../../src/serve/startServe.js';

/** Start serve on free loopback ports; problems it logs are kept in `logged`. */
export async function startTestServe(
  options: Partial<ServeOptions> = {},
): Promise<RunningServe & { logged: string[] }> {
  const logged: string[] = [];
  const running = await startServe({
    host: '127.0.0.1',
    port: 0,
    uiPort: 0,
    schemaVersion: 1,
    log: (line) => logged.push(line),
    ...options,
  });
  return Object.assign(running, { logged });
}

/**
 * Route `turns` decisions through the real SDK and exporter to `endpoint`, then flush; returns the verdict
 * kinds. With `alsoTo`, the same spans are written to that file too (OTLP/JSON lines), for `analyze` to read.
 */
export async function exportDecisions(
  endpoint: string,
  turns: number,
  encoding: 'json' | 'protobuf',
  service = 'serve-test',
  alsoTo?: string,
  names: { readonly router?: string; readonly skills?: readonly [string, string, string] } = {},
): Promise<string[]> {
  const url = `${endpoint}/v1/traces`;
  const exporter = encoding === 'json' ? new JsonExporter({ url }) : new ProtoExporter({ url });
  const processors: SpanProcessor[] = [
    new BatchSpanProcessor(exporter, { maxExportBatchSize: 64, scheduledDelayMillis: 20 }),
  ];
  if (alsoTo !== undefined)
    processors.push(new SimpleSpanProcessor(new OtlpJsonLinesFileExporter({ path: alsoTo })));
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors: processors,
  });
  const decide = instrumentDecideTier2(decideTier2, {
    tracerProvider: provider,
    routerName: names.router ?? 'desk',
    scorerName: 'keyword',
  });
  const kinds: string[] = [];
  for (let i = 0; i < turns; i++) {
    // Every third turn a near-tie, the rest decisive.
    const gap = i % 3 === 0 ? 0.01 : 0.5;
    const [a, b, c] = names.skills ?? ['billing', 'refunds', 'shipping'];
    const verdict = decide(
      [
        { id: a, score: 1 },
        { id: b, score: 1 - gap },
        { id: c, score: 0.1 },
      ],
      b,
      { nearTieMargin: 0.05, menuSize: 2 },
      { floor: 0 },
    );
    kinds.push(verdict.kind);
  }
  await provider.forceFlush();
  await provider.shutdown();
  return kinds;
}

/** Wait (polling every 10 ms, no fixed sleep) until `condition` holds; fails after `ms` instead of hanging. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what = 'the condition',
  ms = 20_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** POST `body` to `url`; the status, the body as text and the headers. */
export async function post(
  url: string,
  body: Buffer | string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; headers: Headers }> {
  const response = await fetch(url, { method: 'POST', body, headers });
  return { status: response.status, body: await response.text(), headers: response.headers };
}
