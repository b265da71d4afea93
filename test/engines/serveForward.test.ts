/**
 * `routescope serve --forward` in front of the real Collector (single.yaml): the app exports to serve, serve
 * passes every request on, and the Collector counts every span serve took as accepted on its OTLP/HTTP receiver
 * (its own `otelcol_receiver_accepted_spans`), refuses none, and its file exporter holds every routing decision,
 * the same analysis as the app's own copy and as serve's window.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine } from '../helpers/engines/engineBuild.js';
import { startCollector, sumOfSeries, type RunningCollector } from '../helpers/engines/collector.js';
import { analyze, cliJson, withoutInput } from '../helpers/engines/analyzeCli.js';
import { runRoutingApp, type AppRun } from '../helpers/engines/routingApp.js';
import { spawnServeCli, type ServeAddresses, type ServeCli } from '../helpers/serveCli.js';
import { requireBuild } from '../helpers/requireBuild.js';

const BIN = fileURLToPath(new URL('../../dist/bin/routescope.js', import.meta.url));

let collector: RunningCollector | undefined;
let serve: ServeCli | undefined;
let addresses: ServeAddresses;
let appDir = '';
let app: AppRun;

beforeAll(async () => {
  requireBuild(BIN);
  engine('otelcol');
  collector = await startCollector({
    file: 'single.yaml',
    env: { TEMPO_OTLP_ENDPOINT: '127.0.0.1:9', JAEGER_OTLP_ENDPOINT: '127.0.0.1:9' },
  });
  serve = spawnServeCli(BIN, ['serve', '--port', '0', '--ui-port', '0', '--forward', collector.otlpHttp]);
  addresses = await serve.listening;
  appDir = mkdtempSync(path.join(os.tmpdir(), 'routescope-forward-'));
  app = await runRoutingApp(addresses.endpoint, appDir);
}, 30 * 60_000);

afterAll(async () => {
  try {
    if (serve !== undefined && serve.child.exitCode === null) {
      const gone = new Promise((resolve) => serve!.child.once('exit', resolve));
      serve.child.kill('SIGTERM');
      await gone;
    }
  } finally {
    await collector?.stop();
    if (appDir !== '') rmSync(appDir, { recursive: true, force: true });
  }
});

/** serve's own counter `name` (summed over its label sets). */
async function serveCounter(name: string, labels: RegExp = /.*/): Promise<number> {
  const text = await (await fetch(addresses.metrics)).text();
  return sumOfSeries(text, name, labels);
}

describe('serve --forward into the real Collector', () => {
  it('every span serve took is accepted by the Collector, none refused, every request forwarded ok', async () => {
    const received = await serveCounter('routescope_serve_spans_received_total');
    expect(received).toBeGreaterThan(0);
    const accepted = await collector!.waitFor('the Collector to count every span serve took', async () => {
      const text = await collector!.telemetry();
      const n = sumOfSeries(text, 'otelcol_receiver_accepted_spans', /transport="http"/);
      return n === received ? n : undefined;
    });
    expect(accepted).toBe(received);
    const telemetry = await collector!.telemetry();
    expect(sumOfSeries(telemetry, 'otelcol_receiver_refused_spans')).toBe(0);
    expect(await serveCounter('routescope_serve_forwarded_total', /result="ok"/)).toBeGreaterThan(0);
    expect(await serveCounter('routescope_serve_forwarded_total', /result="(failed|dropped)"/)).toBe(0);
    // The Collector's own series carry no service_* labels since 0.149 (they moved to target_info).
    expect(telemetry).not.toMatch(/otelcol_receiver_accepted_spans\{[^}]*service_name=/);
  });

  it('the Collector file holds what the app sent, and serve analyzed the same', async () => {
    const sent = analyze(app.files);
    const written = await collector!.waitFor('the file exporter to hold every decision', async () => {
      const report = analyze([collector!.traceDir]);
      return report.decisions === sent.decisions ? report : undefined;
    });
    expect(withoutInput(written)).toEqual(withoutInput(sent));
    const live = (await (await fetch(`${addresses.page}report.json`)).json()) as { decisions: number };
    expect(live.decisions).toBe(sent.decisions);
    expect(cliJson('analyze', app.files)).toMatchObject({ decisions: sent.decisions });
  });
});
