/**
 * tail-sampling.yaml on the real Collector: the app's traces go to it and, at the same time, straight to a
 * `serve`. The Collector's sampled output goes to a sink Collector standing in for Tempo and Jaeger (both of the
 * file's trace exporters point at it). Every trace with routing evidence (a near-tie — every menu is one — an
 * unmatched verdict, a floorless decision, a misroute mark, a failed routing span) arrives in the sink whole,
 * every trace that arrives is whole, and of the rest about the file's 10 % is kept (the ids are seeded, so the
 * share is the same on every run). The file exporter, which takes every routing span before sampling, holds what
 * `serve` holds: their analyses are equal.
 *
 * The one setting changed from the file: `decision_wait` is 2 s instead of 30 s, so the test waits seconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine } from '../helpers/engines/engineBuild.js';
import {
  SINK_CONFIG,
  startCollector,
  sumOfSeries,
  type RunningCollector,
} from '../helpers/engines/collector.js';
import { analyze, withoutInput, type AnalyzeReport } from '../helpers/engines/analyzeCli.js';
import { runRoutingApp, type AppRun } from '../helpers/engines/routingApp.js';
import { readTraceSets, type TraceSet } from '../helpers/engines/traceSets.js';
import { startTestServe } from '../serve/serveHarness.js';
import type { RunningServe } from '../../src/serve/startServe.js';

let sink: RunningCollector | undefined;
let sampler: RunningCollector | undefined;
let serve: RunningServe | undefined;
let appDir = '';
let app: AppRun;
let sent: Map<string, TraceSet>;
let stored: Map<string, TraceSet>;

/** Whether every span of `trace` is among `arrived`'s. */
const whole = (trace: TraceSet, arrived: TraceSet | undefined) =>
  arrived !== undefined && [...trace.spans].every((id) => arrived.spans.has(id));

beforeAll(async () => {
  engine('otelcol');
  sink = await startCollector({ file: 'sink', config: SINK_CONFIG });
  sampler = await startCollector({
    file: 'tail-sampling.yaml',
    env: { TEMPO_OTLP_ENDPOINT: sink.otlpGrpc, JAEGER_OTLP_ENDPOINT: sink.otlpGrpc },
    edit: (config) => {
      (config.processors!.tail_sampling as { decision_wait: string }).decision_wait = '2s';
    },
  });
  serve = await startTestServe();
  appDir = mkdtempSync(path.join(os.tmpdir(), 'routescope-tail-'));
  app = await runRoutingApp([sampler.otlpHttp, serve.endpoint], appDir);
  sent = readTraceSets(app.files);
  const mustKeep = [...sent.entries()].filter(([, t]) => t.evidence.size > 0);
  stored = await sink.waitFor(
    'every trace with routing evidence to arrive whole in the sink',
    async () => {
      const arrived = readTraceSets([sink!.traceDir]);
      return mustKeep.every(([id, t]) => whole(t, arrived.get(id))) ? arrived : undefined;
    },
    60_000,
  );
}, 30 * 60_000);

afterAll(async () => {
  try {
    await serve?.close();
    await sampler?.stop();
  } finally {
    await sink?.stop();
    if (appDir !== '') rmSync(appDir, { recursive: true, force: true });
  }
});

describe('tail-sampling.yaml on the real Collector', () => {
  it('keeps every trace with routing evidence, whole, and every trace it keeps is whole', () => {
    const evidence = [...sent.values()].filter((t) => t.evidence.size > 0);
    const kinds = new Set(evidence.flatMap((t) => [...t.evidence]));
    // The app sends every kind the policies name but a failed routing span.
    expect([...kinds].sort()).toEqual(['floorless', 'misroute', 'near-tie', 'unmatched']);
    for (const [id, trace] of sent)
      if (trace.evidence.size > 0) expect(whole(trace, stored.get(id)), id).toBe(true);
    for (const [id, arrived] of stored) {
      const trace = sent.get(id);
      expect(trace, `an arrived trace the app never sent: ${id}`).toBeDefined();
      expect(whole(trace!, arrived), `trace ${id} arrived in part`).toBe(true);
    }
  });

  it('keeps about its 10 % of the traces without evidence (the same share on every run: seeded ids)', async () => {
    const others = [...sent.entries()].filter(([, t]) => t.evidence.size === 0);
    expect(others.length).toBeGreaterThanOrEqual(40);
    // Decisions on the others are made within decision_wait; wait for the sampler to have decided every trace.
    await sampler!.waitFor('every trace decided', async () => {
      const text = await sampler!.telemetry();
      const decided = sumOfSeries(text, 'otelcol_processor_tail_sampling_global_count_traces_sampled');
      return decided >= sent.size ? decided : undefined;
    });
    const arrived = readTraceSets([sink!.traceDir]);
    const kept = others.filter(([id]) => arrived.has(id)).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept / others.length).toBeLessThan(0.3);
    const telemetry = await sampler!.telemetry();
    // The buffer was never too small (collector-config/README.md names this series for sizing).
    expect(telemetry).toContain('otelcol_processor_tail_sampling_sampling_trace_dropped_too_early');
    expect(sumOfSeries(telemetry, 'otelcol_processor_tail_sampling_sampling_trace_dropped_too_early')).toBe(
      0,
    );
  });

  it('the file exporter, before sampling, holds what serve holds: the same analysis', async () => {
    const live = await sampler!.waitFor('serve to have every decision', async () => {
      const report = (await (await fetch(`${serve!.pageUrl}report.json`)).json()) as AnalyzeReport;
      return report.decisions === analyze(app.files).decisions ? report : undefined;
    });
    const written = await sampler!.waitFor('the file exporter to hold every decision', async () => {
      const report = analyze([sampler!.traceDir]);
      return report.decisions === live.decisions ? report : undefined;
    });
    expect(withoutInput(written)).toEqual(withoutInput(live));
  });
});
