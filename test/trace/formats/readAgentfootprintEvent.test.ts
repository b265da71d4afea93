/**
 * readAgentfootprintEvent.test — agentfootprint's JSON event logs as an input: the real 9.62 capture read
 * directly, then one rule per `it` (null scores, damaged lines, other event types, ids, compression, threads).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { writeRoutingAttributes } from '../../../src/instrument/encodeRoutingAttributes.js';
import {
  ATTR_ROUTING_POLICY_SEMANTICS,
  ATTR_ROUTING_REBUILT_DIFFERENCES,
  ATTR_ROUTING_REBUILT_VERDICT,
  ATTR_ROUTING_SCORER_WINDOW,
  ATTR_ROUTING_SOURCE,
} from '../../../src/semconv/semconv.js';
import {
  DEFAULT_CATEGORICAL_SCORERS,
  DEFAULT_MAX_JUDGED_CANDIDATES,
  readTurnRoutedEvent,
} from '../../../src/policy/turnRoutedEvent.js';
import { decodeRoutingAttributes } from '../../../src/trace/decodeRoutingAttributes.js';
import { type AttributeValue } from '../../../src/trace/internal-types.js';
import type { EventLogOptions } from '../../../src/trace/formats/readAgentfootprintEvent.js';
import { createInThreadRunner, readInParallel } from '../../../src/trace/parallel/readInParallel.js';
import { createReadStats } from '../../../src/trace/readStats.js';
import { readTraceInputs, type ReadOptions } from '../../../src/trace/readTraceInputs.js';
import type { DecisionRecord, TraceRecord, TurnRecord } from '../../../src/record/types.js';
import type { ReadStats } from '../../../src/trace/types.js';
import { withTempDir, zstdCompress } from '../traceScenario.js';

const SHARED = new URL('../../../../shared/fixtures/agentfootprint/', import.meta.url);
const CAPTURE = fileURLToPath(new URL('turn_routed.jsonl', SHARED));
const NULL_SCORES = fileURLToPath(
  new URL('../../fixtures/agentfootprint/turn-routed-null-scores.jsonl', import.meta.url),
);
const captureLines = readFileSync(CAPTURE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '');
interface Scenario {
  index: number;
  scenario: string;
  sessionId: string;
  decideTier2: { kind: string; to?: string; offered?: string[] } | null;
}
const scenarios = (
  JSON.parse(readFileSync(new URL('scenarios.json', SHARED), 'utf8')) as { events: Scenario[] }
).events;

interface Read {
  records: TraceRecord[];
  stats: ReadStats;
}

async function read(inputs: string[], options: ReadOptions = {}): Promise<Read> {
  const stats = createReadStats();
  const records: TraceRecord[] = [];
  for await (const r of readTraceInputs(inputs, stats, options)) records.push(r);
  return { records, stats };
}

async function readText(text: string, options: ReadOptions = {}): Promise<Read> {
  return read(['-'], { ...options, stdin: Readable.from([Buffer.from(text)]) });
}

const decisions = (r: Read): DecisionRecord[] =>
  r.records.filter((x): x is DecisionRecord => x.kind === 'decision');
const turns = (r: Read): TurnRecord[] => r.records.filter((x): x is TurnRecord => x.kind === 'turn');

describe('the real 9.62 capture, read as an event log', () => {
  it('one decision per event whose scorer ran, one turn route per event, no problem', async () => {
    const r = await read([CAPTURE]);
    const expected = scenarios.filter((s) => s.decideTier2 !== null).length;
    expect(decisions(r)).toHaveLength(expected);
    expect(turns(r)).toHaveLength(captureLines.length);
    expect(r.stats).toMatchObject({
      events: captureLines.length,
      otherEvents: 0,
      lines: captureLines.length,
    });
    expect(r.stats.problems).toEqual([]);
  });

  it("every decision's verdict is the one scenarios.json gives for that event (line = index + 1)", async () => {
    const r = await read([CAPTURE]);
    for (const d of decisions(r)) {
      const s = scenarios[d.source.line - 1]!;
      expect(s.decideTier2, s.scenario).not.toBeNull();
      expect(d.verdict, s.scenario).toBe(s.decideTier2!.kind);
      if (d.verdict === 'move') expect(d.to, s.scenario).toBe(s.decideTier2!.to);
    }
  });

  it('conversation = meta.sessionId, time = meta.wallClockMs, judged and recorded as agentfootprint-9.62', async () => {
    const r = await read([CAPTURE]);
    for (const rec of r.records) {
      const event = JSON.parse(captureLines[rec.source.line - 1]!) as {
        meta: { sessionId: string; wallClockMs: number };
      };
      expect(rec.conversationId).toBe(event.meta.sessionId);
      expect(rec.timeUnixMs).toBe(event.meta.wallClockMs);
      if (rec.kind === 'decision') {
        expect(rec.semantics).toBe('agentfootprint-9.62');
        expect(rec.recordedBy).toBe('turn_routed');
        expect(rec.rebuilt?.differences).toEqual([]);
      }
    }
  });

  it('a decision is the record a strategy span of the same event decodes to', async () => {
    const r = await read([CAPTURE]);
    for (const d of decisions(r)) {
      const reading = readTurnRoutedEvent(JSON.parse(captureLines[d.source.line - 1]!), {
        semantics: 'agentfootprint-9.62',
        categoricalScorers: DEFAULT_CATEGORICAL_SCORERS,
        maxJudgedCandidates: DEFAULT_MAX_JUDGED_CANDIDATES,
      });
      if (reading.kind !== 'turn_routed' || reading.decision === undefined) throw new Error('no decision');
      const { decision } = reading;
      const attrs = new Map<string, AttributeValue>();
      const put = (k: string, v: unknown): void => void attrs.set(k, v as AttributeValue);
      writeRoutingAttributes(
        { setAttribute: put },
        {
          scores: decision.scores,
          incumbentId: decision.incumbentId,
          policy: decision.policy,
          scorer: decision.scorerTraits,
        },
        decision.happened,
        Infinity,
      );
      put(ATTR_ROUTING_POLICY_SEMANTICS, decision.semantics);
      put(ATTR_ROUTING_SOURCE, 'turn_routed');
      put(ATTR_ROUTING_REBUILT_VERDICT, decision.rebuilt.kind);
      put(ATTR_ROUTING_REBUILT_DIFFERENCES, decision.differences.slice());
      if (reading.window !== undefined) put(ATTR_ROUTING_SCORER_WINDOW, reading.window);
      const decoded = decodeRoutingAttributes(attrs);
      if (decoded.kind !== 'ok') throw new Error(decoded.reason);
      const {
        kind: _k,
        traceId: _t,
        spanId: _s,
        conversationId: _c,
        timeUnixMs: _m,
        error: _e,
        misroutes: _x,
        source: _src,
        scorer: _n,
        syntheticTraceId: _synthetic,
        ...own
      } = d;
      expect(own).toEqual(decoded.value);
    }
  });

  it('ids are 32 and 16 hex digits, the same on every read, distinct per event', async () => {
    const a = await read([CAPTURE]);
    const b = await read([CAPTURE]);
    expect(b.records.map((x) => [x.traceId, x.spanId])).toEqual(a.records.map((x) => [x.traceId, x.spanId]));
    for (const x of a.records) {
      expect(x.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(x.spanId).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(new Set(a.records.map((x) => x.spanId)).size).toBe(a.records.length);
    expect(new Set(turns(a).map((x) => x.traceId)).size).toBe(captureLines.length);
  });

  it('the same log read twice counts each event once: the repeats are duplicate events', async () => {
    const r = await read([CAPTURE, CAPTURE]);
    expect(turns(r)).toHaveLength(captureLines.length);
    expect(r.stats.duplicateEvents).toBe(captureLines.length);
  });

  it('--policy contract judges the events under the contract and records that on each decision', async () => {
    const events: EventLogOptions = {
      semantics: 'contract',
      categoricalScorers: DEFAULT_CATEGORICAL_SCORERS,
    };
    const r = await read([CAPTURE], { events });
    const clause = scenarios.find(
      (s) => s.scenario === 'tier2-keyword-mid-near-tie-incumbent-at-floor-stay',
    )!;
    for (const d of decisions(r)) expect(d.semantics).toBe('contract');
    const atFloor = decisions(r).find((d) => d.source.line === clause.index + 1)!;
    // What happened is kept (9.62 stayed); the contract's rebuild disagrees, and says so.
    expect(atFloor.verdict).toBe('stay');
    expect(atFloor.rebuilt?.verdict).toBe('menu');
    expect(atFloor.rebuilt?.differences.length).toBeGreaterThan(0);
  });
});

describe('null scores (a JSON log of non-finite numbers)', () => {
  it('a null score reads as non-finite, never as 0', async () => {
    const r = await read([NULL_SCORES]);
    const raw = readFileSync(NULL_SCORES, 'utf8').trim().split('\n');
    expect(decisions(r)).toHaveLength(raw.length);
    for (const d of decisions(r)) {
      const event = JSON.parse(raw[d.source.line - 1]!) as {
        payload: { scores: { score: number | null }[] };
      };
      const nulls = event.payload.scores.map((c) => c.score === null);
      expect(nulls.some((n) => n)).toBe(true);
      d.ranked.forEach((c, i) => {
        if (nulls[i]) expect(Number.isFinite(c.score)).toBe(false);
        else expect(c.score).toBe(event.payload.scores[i]!.score);
      });
    }
  });

  it('every score null: unmatched (a 0 at floor 0 would be unmatched too, but alive count and scores say why)', async () => {
    const r = await read([NULL_SCORES]);
    const all = decisions(r).find((d) => d.ranked.every((c) => !Number.isFinite(c.score)))!;
    expect(all.verdict).toBe('unmatched');
    expect(all.aliveCount).toBe(0);
    expect(all.ranked.map((c) => c.score).some((s) => s === 0)).toBe(false);
  });

  it('an incumbent scored null is scored, and out: 9.62 stays, the contract would offer a menu', async () => {
    const r = await read([NULL_SCORES]);
    const d = decisions(r).find((x) => x.incumbent?.id === 'returns')!;
    expect(d.incumbent).toEqual({ id: 'returns', scored: true });
    expect(d.verdict).toBe('stay');
    const contract = await read([NULL_SCORES], {
      events: { semantics: 'contract', categoricalScorers: DEFAULT_CATEGORICAL_SCORERS },
    });
    expect(decisions(contract).find((x) => x.incumbent?.id === 'returns')!.rebuilt?.verdict).toBe('menu');
  });

  it("a caller's 32-hex meta.traceId is the records' trace id, lower-cased", async () => {
    const r = await read([NULL_SCORES]);
    const withTrace = r.records.filter((x) => x.source.line === 3);
    expect(withTrace.map((x) => x.traceId)).toEqual([
      '4bf92f3577b34da6a3ce929d0e0e4736',
      '4bf92f3577b34da6a3ce929d0e0e4736',
    ]);
  });
});

describe('damaged lines', () => {
  const good = captureLines[0]!;
  const event = JSON.parse(good) as { payload: Record<string, unknown>; meta: Record<string, unknown> };
  const variant = (payload: Record<string, unknown>, meta: Record<string, unknown> = event.meta): string =>
    JSON.stringify({ type: 'agentfootprint.skill.turn_routed', payload, meta });

  it('a line that is not JSON is a bad line at its number; the good lines around it are read', async () => {
    const r = await readText(`${good}\n{"type":"agentfootprint.skill.turn_ro\n${captureLines[1]!}\n`);
    expect(turns(r)).toHaveLength(2);
    expect(r.stats.problems).toEqual([expect.objectContaining({ line: 2, kind: 'bad-line' })]);
  });

  it('a turn_routed event without a payload is a bad line saying so', async () => {
    const r = await readText(
      `${good}\n${JSON.stringify({ type: 'agentfootprint.skill.turn_routed', meta: {} })}\n`,
    );
    expect(turns(r)).toHaveLength(1);
    expect(r.stats.problems).toEqual([
      expect.objectContaining({ line: 2, kind: 'bad-line', reason: expect.stringContaining('no payload') }),
    ]);
  });

  it('an event of another type without a payload is a bad line too, not an event skipped', async () => {
    const r = await readText(`${JSON.stringify({ type: 'agentfootprint.agent.run_configured' })}\n`);
    expect(r.stats.otherEvents).toBe(0);
    expect(r.stats.problems).toEqual([
      expect.objectContaining({ line: 1, kind: 'bad-line', reason: expect.stringContaining('no payload') }),
    ]);
  });

  it('strings for scores: the turn route is read, the decision is not, and the problem names the field', async () => {
    const scores = (event.payload.scores as { id: string; score: number; relevance: number }[]).map((c) => ({
      ...c,
      score: String(c.score),
    }));
    const r = await readText(`${variant({ ...event.payload, scores })}\n${captureLines[1]!}\n`);
    expect(turns(r)).toHaveLength(2);
    expect(decisions(r).map((d) => d.source.line)).toEqual([2]);
    expect(r.stats.problems).toEqual([
      expect.objectContaining({
        line: 1,
        kind: 'incomplete',
        reason: expect.stringContaining('payload.scores[0]'),
      }),
    ]);
  });

  it('a string for the margin: the decision is not judged, the problem names the policy', async () => {
    const policy = { ...(event.payload.policy as object), nearTieMargin: '0.15' };
    const r = await readText(`${variant({ ...event.payload, policy })}\n`);
    expect(decisions(r)).toEqual([]);
    expect(turns(r)).toHaveLength(1);
    expect(r.stats.problems[0]).toMatchObject({ line: 1, reason: expect.stringContaining('payload.policy') });
  });

  it('an unknown `by` is a bad line; nothing is made up for it', async () => {
    const r = await readText(`${variant({ ...event.payload, by: 'telepathy' })}\n`);
    expect(r.records).toEqual([]);
    expect(r.stats.problems).toEqual([
      expect.objectContaining({ line: 1, kind: 'bad-line', reason: expect.stringContaining('telepathy') }),
    ]);
  });

  it('no meta.wallClockMs: the records are read, with no time, and the problem says so', async () => {
    const { wallClockMs: _dropped, ...meta } = event.meta;
    const r = await readText(`${variant(event.payload, meta)}\n`);
    expect(decisions(r)).toHaveLength(1);
    expect(Number.isNaN(decisions(r)[0]!.timeUnixMs)).toBe(true);
    expect(r.stats.problems[0]!.reason).toContain('wallClockMs');
  });

  it('a JSON object that is neither a trace nor an agentfootprint event is still a bad line', async () => {
    const r = await readText(`${JSON.stringify({ type: 'other.thing', payload: {} })}\n${good}\n`);
    expect(turns(r)).toHaveLength(1);
    expect(r.stats.events).toBe(1);
    expect(r.stats.problems).toEqual([expect.objectContaining({ line: 1, kind: 'bad-line' })]);
  });
});

describe('other event types and other containers', () => {
  it('other agentfootprint events are counted and skipped, with no problem', async () => {
    const other = JSON.stringify({ type: 'agentfootprint.agent.run_configured', payload: {}, meta: {} });
    const r = await readText(`${other}\n${captureLines[0]!}\n${other}\n`);
    expect(r.stats).toMatchObject({ events: 3, otherEvents: 2, problems: [] });
    expect(turns(r)).toHaveLength(1);
  });

  it('gzip and zstd event logs read as the plain one', async () => {
    const plain = await read([CAPTURE]);
    await withTempDir(async (dir) => {
      const gz = join(dir, 'events.jsonl.gz');
      const zst = join(dir, 'events.jsonl.zst');
      writeFileSync(gz, gzipSync(readFileSync(CAPTURE)));
      writeFileSync(zst, zstdCompress(readFileSync(CAPTURE)));
      for (const file of [gz, zst]) {
        const r = await read([file]);
        expect(r.records.map(({ source: _s, ...x }) => x)).toEqual(
          plain.records.map(({ source: _s, ...x }) => x),
        );
      }
    });
  });

  it('--jobs: the same records, order and counts as one thread', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'events.jsonl');
      const other = JSON.stringify({ type: 'agentfootprint.agent.turn_end', payload: {}, meta: {} });
      writeFileSync(file, `${[...captureLines, other, 'garbage', ...captureLines].join('\n')}\n`);
      const one = await read([file]);
      const stats = createReadStats();
      const records: TraceRecord[] = [];
      for await (const x of readInParallel([file], stats, {
        jobs: 2,
        runner: createInThreadRunner(),
        parallelMinBytes: 0,
        splitMinBytes: 4096,
      }))
        records.push(x);
      expect(records).toEqual(one.records);
      expect(stats).toEqual(one.stats);
      expect(stats.duplicateEvents).toBe(captureLines.length);
    });
  });
});
