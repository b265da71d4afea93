/**
 * agentfootprintCapture.test — the path a real agentfootprint 9.62 user takes, end to end, on the framework's
 * real captured output: every turn_routed event through `routescopeObservability`, the real SDK
 * (BatchSpanProcessor) and the real OTLP/HTTP exporter to a loopback receiver that writes what it receives the
 * way the Collector's file exporter does; then `routescope analyze` / `replay` on that file under each
 * `--policy`. Both forms of the events: as an in-process listener receives them (non-finite numbers restored
 * from scenarios.json) and as a JSON log holds them (nulls). The same events read directly as an event log
 * must give the same report.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routescopeObservability } from '../../src/instrument/routescopeObservability.js';
import { createDecideTier2 } from '../../src/policy/routingPolicy.js';
import { createReadStats } from '../../src/trace/readStats.js';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { cliJson } from '../cli/runCliHarness.js';

const FIXTURES = new URL('../../../shared/fixtures/agentfootprint/', import.meta.url);
const EVENT_LINES = readFileSync(new URL('turn_routed.jsonl', FIXTURES), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '');
interface Scenario {
  scenario: string;
  decideTier2: { kind: string } | null;
  flags: { nonFinite: { path: string; value: string }[] };
}
const SCENARIOS = (
  JSON.parse(readFileSync(new URL('scenarios.json', FIXTURES), 'utf8')) as { events: Scenario[] }
).events;
const AT_FLOOR = 'tier2-keyword-mid-near-tie-incumbent-at-floor-stay';

/** The event an in-process listener saw: the JSON line with every recorded non-finite number put back. */
function inProcess(line: string, scenario: Scenario): unknown {
  const event = JSON.parse(line) as Record<string, unknown>;
  for (const { path, value } of scenario.flags.nonFinite) {
    const keys = path.split('.');
    let node = event as Record<string, unknown>;
    for (const k of keys.slice(0, -1)) node = node[k] as Record<string, unknown>;
    node[keys.at(-1)!] = Number(value);
  }
  return event;
}

/** A collector stand-in that appends each OTLP/JSON request it receives as one line, as `file` with format json does. */
function startReceiver(file: string): Promise<Server> {
  writeFileSync(file, '');
  const server = createServer((req, res) => {
    void buffer(req).then((raw) => {
      const text = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      appendFileSync(file, `${JSON.stringify(JSON.parse(text))}\n`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Every event through the strategy and the real exporter to `file`. */
async function exportThroughStrategy(file: string, events: unknown[]): Promise<void> {
  const server = await startReceiver(file);
  const { port } = server.address() as AddressInfo;
  const provider = new BasicTracerProvider({
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `http://127.0.0.1:${port}/v1/traces` }), {
        maxExportBatchSize: 16,
      }),
    ],
  });
  const strategy = routescopeObservability({ tracerProvider: provider });
  for (const e of events) strategy.exportEvent(e);
  await strategy.flush();
  strategy.stop();
  await provider.shutdown();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * The capture holds no non-finite score, so two events are added that do, built as 9.62 would report them: the
 * keyword scorer returned NaN (or Infinity) for the last candidate, and the event's ranking, shares, runner-up
 * and decisive flag are 9.62's verdict on those numbers. As a listener sees them, and as a JSON log holds them.
 */
const NON_FINITE = [NaN, Infinity];
function withNonFinite(line: string, value: number): Record<string, unknown> {
  const event = JSON.parse(line) as {
    payload: Record<string, unknown> & {
      scores: { id: string; score: number }[];
      policy: { nearTieMargin: number; menuSize: number; floor?: number };
    };
    meta: { runId: string };
  };
  const p = event.payload;
  const scores = p.scores.map((c, i) => ({ id: c.id, score: i === p.scores.length - 1 ? value : c.score }));
  const v = createDecideTier2('agentfootprint-9.62')(scores, p.from as string | undefined, p.policy, {});
  expect(v.kind).toBe('move');
  p.by = 'intent';
  p.to = v.kind === 'move' ? v.to : undefined;
  p.scores = v.ranked.map((c) => ({ ...c }));
  p.decisive = v.decisive;
  if (v.runnerUp === undefined) delete p.runnerUp;
  else p.runnerUp = v.runnerUp;
  event.meta.runId = `${event.meta.runId}-nonfinite-${value}`;
  return event as unknown as Record<string, unknown>;
}
// The first event: a decisive keyword move at cold start.
const SCORED_LINE = EVENT_LINES[0]!;

let dir: string;
const files = { inProcess: '', jsonNulls: '', eventLog: '', nonFiniteInProcess: '', nonFiniteJson: '' };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'routescope-af-'));
  files.inProcess = join(dir, 'in-process.jsonl');
  files.jsonNulls = join(dir, 'json-nulls.jsonl');
  files.eventLog = join(dir, 'events.jsonl');
  await exportThroughStrategy(
    files.inProcess,
    EVENT_LINES.map((l, i) => inProcess(l, SCENARIOS[i]!)),
  );
  await exportThroughStrategy(
    files.jsonNulls,
    EVENT_LINES.map((l) => JSON.parse(l) as unknown),
  );
  writeFileSync(files.eventLog, `${EVENT_LINES.join('\n')}\n`);
  files.nonFiniteInProcess = join(dir, 'non-finite-in-process.jsonl');
  files.nonFiniteJson = join(dir, 'non-finite-json.jsonl');
  const nonFinite = NON_FINITE.map((v) => withNonFinite(SCORED_LINE, v));
  await exportThroughStrategy(files.nonFiniteInProcess, nonFinite);
  await exportThroughStrategy(
    files.nonFiniteJson,
    nonFinite.map((e) => JSON.parse(JSON.stringify(e)) as unknown),
  );
});

async function lastScores(file: string): Promise<number[]> {
  const out: number[] = [];
  for await (const r of readTraceInputs([file], createReadStats())) {
    if (r.kind === 'decision') out.push((r as DecisionRecord).ranked.at(-1)!.score);
  }
  return out;
}

describe('non-finite scores, both forms', () => {
  it("in-process NaN and Infinity come back exactly; the JSON log's nulls come back non-finite, never 0", async () => {
    expect((await lastScores(files.nonFiniteInProcess)).map(String).sort()).toEqual(['Infinity', 'NaN']);
    // (Infinity ranks last too: a non-finite score is judged as −Infinity, the raw value kept.)
    expect((await lastScores(files.nonFiniteJson)).map(String)).toEqual(['NaN', 'NaN']);
  });

  it.each(['nonFiniteInProcess', 'nonFiniteJson'] as const)(
    '%s: 0 inconsistent under --policy auto',
    async (form) => {
      const { code, json } = await cliJson(['analyze', files[form]]);
      expect(code).toBe(0);
      expect(json.decisions).toBe(2);
      expect(json.inconsistent).toBe(0);
    },
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const wantKinds = (): Record<string, number> => {
  const counts: Record<string, number> = { move: 0, stay: 0, menu: 0, unmatched: 0 };
  for (const s of SCENARIOS) if (s.decideTier2 !== null) counts[s.decideTier2.kind]!++;
  return counts;
};

describe.each(['inProcess', 'jsonNulls'] as const)(
  'the capture through the strategy and OTLP/HTTP (%s)',
  (form) => {
    it("one decision per event whose scorer ran, with 9.62's verdict kinds; one turn route per event", async () => {
      const { code, json } = await cliJson(['analyze', files[form]]);
      expect(code).toBe(0);
      expect(json.decisions).toBe(34);
      expect(json.verdicts).toEqual(wantKinds());
      expect((json.input as { turnSpans: number }).turnSpans).toBe(46);
      expect((json.input as { problems: number }).problems).toBe(0);
    });

    it.each(['auto', 'agentfootprint-9.62'])('0 inconsistent under --policy %s', async (policy) => {
      const { code, json } = await cliJson(['analyze', files[form], '--policy', policy]);
      expect(code).toBe(0);
      expect(json.inconsistent).toBe(0);
    });

    it('under --policy contract, exactly the near-tie whose incumbent scored at the floor is inconsistent', async () => {
      const { json } = await cliJson(['replay', files[form], '--policy', 'contract']);
      const consistency = json.consistency as { inconsistent: number; examples: { differences: string[] }[] };
      expect(consistency.inconsistent).toBe(1);
      expect(consistency.examples[0]!.differences).toEqual(['verdict: recorded stay, replayed menu']);
      expect(SCENARIOS.filter((s) => s.scenario === AT_FLOOR)).toHaveLength(1);
    });
  },
);

describe('the same events as an event log, read directly', () => {
  /**
   * A report with where-it-came-from taken out: files, lines, trace and span ids differ by path, and so does the
   * service (an event log names none; the spans carry the SDK's default `service.name`). Nothing else may.
   */
  const comparable = (json: Record<string, unknown>): unknown =>
    JSON.parse(
      JSON.stringify(json, (key, value: unknown) => {
        if (['input', 'traceId', 'spanId', 'exampleTraceIds', 'file', 'line', 'at', 'files'].includes(key)) {
          return undefined;
        }
        if (key === 'service') return 'the service';
        if (key === 'byService' && typeof value === 'object' && value !== null) {
          const rows = (value as { rows: { name: unknown }[] }).rows;
          return { ...value, rows: rows.map((r) => ({ ...r, name: 'the service' })) };
        }
        return value;
      }),
    );

  it.each(['analyze', 'hotspots', 'floorless', 'replay', 'flapping'])(
    '%s: the same report as the spans give',
    async (command) => {
      const viaSpans = await cliJson([command, files.jsonNulls]);
      const viaLog = await cliJson([command, files.eventLog]);
      expect(viaLog.code).toBe(viaSpans.code);
      expect(comparable(viaLog.json)).toStrictEqual(comparable(viaSpans.json));
    },
  );
});
