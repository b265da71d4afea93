/**
 * agentfootprintCapture.test — the path a real agentfootprint 9.62 user takes, end to end, on the framework's
 * real captured output: every turn_routed event through `routescopeObservability`, the real SDK
 * (BatchSpanProcessor) and the real OTLP/HTTP exporter to a loopback receiver that writes what it receives the
 * way the Collector's file exporter does; then `routescope analyze` / `replay` on that file under each
 * `--policy`. Both forms of the events: as an in-process listener receives them (non-finite numbers restored
 * from scenarios.json) and as a JSON log holds them (nulls). The same events read directly as an event log
 * must give the same report.
 */
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ROOT_CONTEXT } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTR_AGENTFOOTPRINT_RUN_ID } from '../../src/instrument/runSpanIndex.js';
import { routescopeObservability } from '../../src/instrument/routescopeObservability.js';
import { createDecideTier2 } from '../../src/policy/routingPolicy.js';
import { createReadStats } from '../../src/trace/readStats.js';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { cli, cliJson } from '../cli/runCliHarness.js';

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

describe('the floor an event reports is the effective floor, and is presented as that', () => {
  const SESSIONS = [
    ...new Set(EVENT_LINES.map((l) => (JSON.parse(l) as { meta: { sessionId?: string } }).meta.sessionId)),
  ].filter((id): id is string => id !== undefined);

  it.each(['eventLog', 'jsonNulls'] as const)(
    '%s: explain names each floor the effective one, never a policy override, in every format',
    async (form) => {
      expect(SESSIONS.length).toBeGreaterThan(5);
      let floored = 0;
      for (const session of SESSIONS) {
        const { json } = await cliJson(['explain', session, files[form]]);
        for (const entry of json.entries as Record<string, unknown>[]) {
          if (entry.kind !== 'decision') continue;
          const policy = entry.policy as { floor?: number };
          expect(policy.floor, session).toBeUndefined();
          if (entry.effectiveFloor === undefined) expect(entry.floorSource).toBeNull();
          else {
            floored++;
            expect(entry.floorSource, session).toBe('effective');
          }
        }
        for (const format of ['text', 'markdown', 'html']) {
          const run = await cli(['explain', session, files[form], '--format', format]);
          expect(run.stdout, `${session} ${format}`).not.toMatch(/policy override/i);
          expect(run.stdout).not.toMatch(/\(scorer\)/);
        }
      }
      // 29 of the 34 scored events carry a floor (the other 5 judged with none).
      expect(floored).toBe(29);
      const text = (await cli(['explain', SESSIONS[0]!, files[form]])).stdout;
      expect(text).toMatch(
        /floor +0 \(effective floor: the policy's or the scorer's, the turn_routed event does not say which\)/,
      );
    },
  );

  it.each(['eventLog', 'jsonNulls'] as const)('%s: analyze counts the floors as effective', async (form) => {
    const { json } = await cliJson(['analyze', files[form]]);
    expect(json.floorSources).toStrictEqual({ policy: 0, scorer: 0, effective: 29, none: 5 });
    const text = (await cli(['analyze', files[form]])).stdout;
    expect(text).toMatch(
      /floor set by +the policy in 0 decisions · the scorer in 0 · unknown which \(effective floor only\) in 29 · no floor in 5 \(effective floor:/,
    );
    expect(text).not.toMatch(/policy override/i);
  });
});

/**
 * The framework-otel capture: the framework's own spans of 8 turns and those turns' events. Routescope's spans
 * of the same turns are written the way a user's setup writes them: the strategy's span processor on the
 * framework's provider, so each routing span is a child of the framework's real turn span (the captured trace
 * and span ids, given back by an id generator), exported over OTLP/HTTP like the rest.
 */
interface CapturedSpan {
  traceId: string;
  spanId: string;
  name: string;
  startTimeUnixNano: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: number } }[];
}
const FRAMEWORK_SPANS = 'framework-otel-otlp.json';
const FRAMEWORK_EVENTS = 'framework-otel-turn_routed.jsonl';
const frameworkRoots = (): CapturedSpan[] =>
  (
    JSON.parse(readFileSync(new URL(FRAMEWORK_SPANS, FIXTURES), 'utf8')) as {
      resourceSpans: { scopeSpans: { spans: CapturedSpan[] }[] }[];
    }
  ).resourceSpans
    .flatMap((r) => r.scopeSpans.flatMap((sc) => sc.spans))
    .filter((sp) => sp.attributes.some((at) => at.key === ATTR_AGENTFOOTPRINT_RUN_ID))
    .sort((x, y) => (BigInt(x.startTimeUnixNano) < BigInt(y.startTimeUnixNano) ? -1 : 1));

async function exportJoinedToFramework(file: string): Promise<void> {
  const server = await startReceiver(file);
  const { port } = server.address() as AddressInfo;
  const exporting = new BasicTracerProvider({
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `http://127.0.0.1:${port}/v1/traces` })),
    ],
  });
  const strategy = routescopeObservability({ tracerProvider: exporting });
  let root: CapturedSpan | undefined;
  let child = 0;
  const framework = new BasicTracerProvider({
    spanProcessors: [strategy.spanProcessor],
    idGenerator: {
      generateTraceId: () => root!.traceId,
      generateSpanId: () => root?.spanId ?? (++child).toString(16).padStart(16, '0'),
    },
  }).getTracer('agentfootprint');
  const events = readFileSync(new URL(FRAMEWORK_EVENTS, FIXTURES), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { meta: { runId: string } });
  for (const captured of frameworkRoots()) {
    root = captured;
    const runId = captured.attributes.find((at) => at.key === ATTR_AGENTFOOTPRINT_RUN_ID)!.value.stringValue!;
    const span = framework.startSpan(
      captured.name,
      { attributes: { [ATTR_AGENTFOOTPRINT_RUN_ID]: runId } },
      ROOT_CONTEXT,
    );
    root = undefined;
    for (const e of events.filter((ev) => ev.meta.runId === runId)) strategy.exportEvent(e);
    span.end();
  }
  await strategy.flush();
  strategy.stop();
  await exporting.shutdown();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('the same turns as spans and as an event log, in one folder (framework-otel capture)', () => {
  // Named so that one folder reads the event log first, the other the routescope spans first.
  const folders = { eventsFirst: '', spansFirst: '' };
  const realTraceIds = new Set(frameworkRoots().map((r) => r.traceId));

  beforeAll(async () => {
    const spans = join(dir, 'routescope-spans.jsonl');
    await exportJoinedToFramework(spans);
    for (const [name, order] of [
      ['eventsFirst', ['1-framework.json', '2-events.jsonl', '3-routescope.jsonl']],
      ['spansFirst', ['1-framework.json', '2-routescope.jsonl', '3-events.jsonl']],
    ] as const) {
      const folder = join(dir, name);
      mkdirSync(folder);
      copyFileSync(new URL(FRAMEWORK_SPANS, FIXTURES), join(folder, order[0]));
      const [events, routescope] = order[1].endsWith('events.jsonl')
        ? [order[1], order[2]]
        : [order[2], order[1]];
      copyFileSync(new URL(FRAMEWORK_EVENTS, FIXTURES), join(folder, events));
      copyFileSync(spans, join(folder, routescope));
      folders[name] = folder;
    }
  });

  it.each([
    ['eventsFirst', '1'],
    ['spansFirst', '1'],
    ['eventsFirst', '2'],
    ['spansFirst', '2'],
  ] as const)(
    '%s, --jobs %s: each turn counted once, the twins counted and reported',
    async (order, jobs) => {
      const { code, json } = await cliJson([
        'analyze',
        folders[order],
        '--jobs',
        jobs,
        '--jobs-min-mib',
        '0',
      ]);
      expect(code).toBe(0);
      expect(json.decisions).toBe(7);
      expect(json.turns).toBe(8);
      const input = json.input as Record<string, number>;
      expect(input).toMatchObject({
        routingSpans: 7,
        turnSpans: 8,
        events: 8,
        nonRoutingSpans: 24,
        duplicates: 0,
        duplicateEvents: 0,
        duplicateAcrossSources: 7,
        duplicateTurnsAcrossSources: 8,
        problems: 0,
      });
      expect(input.records).toStrictEqual({ decisions: 7, turns: 8, misroutes: 0 });
      const text = (await cli(['analyze', folders[order], '--jobs', jobs, '--jobs-min-mib', '0'])).stdout;
      expect(text).toMatch(
        /both ways +7 decisions and 8 turn routes read both as spans and as turn_routed events, each counted once/,
      );
    },
  );

  it.each(['eventsFirst', 'spansFirst'] as const)(
    "%s: the records kept are the spans, in the framework's real traces",
    async (order) => {
      for (const session of ['sess-O1', 'sess-O2', 'sess-O3']) {
        const { json } = await cliJson(['explain', session, folders[order]]);
        const ids = json.traceIds as string[];
        expect(ids.length, session).toBeGreaterThan(0);
        for (const id of ids) expect(realTraceIds.has(id), `${session}: ${id}`).toBe(true);
        for (const e of json.entries as { source: { file: string } }[])
          expect(e.source.file, session).toMatch(/routescope\.jsonl$/);
      }
    },
  );

  it('either order, the same report', async () => {
    const [a, b] = [
      await cliJson(['analyze', folders.eventsFirst]),
      await cliJson(['analyze', folders.spansFirst]),
    ];
    const strip = (json: Record<string, unknown>): unknown => ({ ...json, input: undefined });
    expect(strip(a.json)).toStrictEqual(strip(b.json));
  });
});

describe("an event log's made-up trace ids are marked in every format, and never linked", () => {
  it('hotspots: JSON lists them as synthetic, text, Markdown and HTML mark them; the spans mark nothing', async () => {
    const { json } = await cliJson(['hotspots', files.eventLog]);
    const hotspots = json.hotspots as { exampleTraceIds: string[]; syntheticTraceIds: string[] }[];
    expect(hotspots.length).toBeGreaterThan(0);
    for (const h of hotspots) expect(h.syntheticTraceIds).toStrictEqual(h.exampleTraceIds);
    for (const format of ['text', 'markdown', 'html']) {
      const run = await cli(['hotspots', files.eventLog, '--format', format]);
      expect(run.stdout, format).toContain(`${hotspots[0]!.exampleTraceIds[0]!}`);
      expect(run.stdout, format).toContain('(synthetic)');
      expect(run.stdout, format).toContain('no trace store holds it');
      expect((await cli(['hotspots', files.jsonNulls, '--format', format])).stdout).not.toContain(
        'synthetic',
      );
    }
    const viaSpans = (await cliJson(['hotspots', files.jsonNulls])).json.hotspots as typeof hotspots;
    for (const h of viaSpans) expect(h.syntheticTraceIds).toStrictEqual([]);
  });

  it('explain: every record and trace id marked, in every format, and no trace-store link made for one', async () => {
    const session = 'sess-C01';
    const links = ['--jaeger-url', 'http://jaeger.invalid', '--grafana-url', 'http://grafana.invalid'];
    const { json } = await cliJson(['explain', session, files.eventLog, ...links]);
    const traceIds = json.traceIds as string[];
    expect(traceIds.length).toBeGreaterThan(0);
    expect(json.syntheticTraceIds).toStrictEqual(traceIds);
    expect(json.links).toStrictEqual({});
    for (const e of json.entries as { syntheticTraceId?: boolean }[]) expect(e.syntheticTraceId).toBe(true);
    for (const format of ['text', 'markdown', 'html']) {
      const { stdout } = await cli(['explain', session, files.eventLog, ...links, '--format', format]);
      expect(stdout, format).toContain(`${traceIds[0]!}`);
      expect(stdout, format).toContain('(synthetic)');
      expect(stdout, format).toMatch(/synthetic \(marked so\): made up for event-log records/);
      expect(stdout, format).not.toContain('jaeger.invalid');
      expect(stdout, format).not.toContain('grafana.invalid');
    }
    // The spans' own trace ids are linked as before.
    const viaSpans = await cliJson(['explain', session, files.jsonNulls, ...links]);
    expect(viaSpans.json.syntheticTraceIds).toStrictEqual([]);
    expect(Object.keys(viaSpans.json.links as object).length).toBeGreaterThan(0);
  });

  it('replay: the flipped decisions of an event log are marked', async () => {
    const { json } = await cliJson(['replay', files.eventLog, '--floor', '0.5', '--list']);
    const flipped = json.list as { traceId: string; syntheticTraceId?: boolean }[];
    expect(flipped.length).toBeGreaterThan(0);
    for (const f of flipped) expect(f.syntheticTraceId).toBe(true);
    const { stdout } = await cli(['replay', files.eventLog, '--floor', '0.5', '--list']);
    expect(stdout).toContain(`${flipped[0]!.traceId} (synthetic)`);
  });
});

describe('the same events as an event log, read directly', () => {
  /**
   * A report with where-it-came-from taken out: files, lines, trace and span ids differ by path, and so does the
   * service (an event log names none; the spans carry the SDK's default `service.name`). Nothing else may.
   */
  const comparable = (json: Record<string, unknown>): unknown =>
    JSON.parse(
      JSON.stringify(json, (key, value: unknown) => {
        const where = ['input', 'traceId', 'spanId', 'exampleTraceIds', 'file', 'line', 'at', 'files'];
        // An event log's trace ids are synthesized, and say so; the spans' are their own.
        const synthetic = ['syntheticTraceId', 'syntheticTraceIds', 'syntheticId'];
        if ([...where, ...synthetic].includes(key)) {
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
