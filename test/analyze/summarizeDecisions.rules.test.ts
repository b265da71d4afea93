// summarizeDecisions.rules — one rule of the overview per test: defaults, the totals it counts, the time range,
// the breakdown rows and their order, the anomaly counts and examples (merged in input order), the audit.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SUMMARY_CONFIG,
  compareNames,
  createSummaryAnalysis,
  locate,
  summarizeDecisions,
} from '../../src/analyze/summarizeDecisions.js';
import type { DecisionRecord } from '../../src/record/types.js';
import {
  clauseCase,
  decision,
  misroute,
  plainMove,
  s,
  tid,
  turn,
  type DecisionSpec,
} from './decisionBuilder.js';

const one = (extra: Partial<DecisionSpec> = {}): DecisionRecord =>
  decision({ scores: [s('a', 1)], ...extra });
const oddMargin = (extra: Partial<DecisionSpec> = {}): DecisionRecord =>
  decision({ scores: [s('a', 2)], policy: { nearTieMargin: 0 }, ...extra });

describe('summary: totals', () => {
  it('the defaults: 1000 names per dimension, 20 examples, auto', () => {
    expect(DEFAULT_SUMMARY_CONFIG).toStrictEqual({ maxNames: 1000, maxExamples: 20, policy: 'auto' });
    expect(Object.isFrozen(DEFAULT_SUMMARY_CONFIG)).toBe(true);
  });

  it('an empty input: zero everywhere, every anomaly kind at 0, and no time range', () => {
    const r = summarizeDecisions([]);
    expect(r.kind).toBe('summary');
    expect(r.decisions).toBe(0);
    expect(r.anomalies).toStrictEqual({
      'odd-margin': 0,
      'odd-menu-size': 0,
      'duplicate-candidates': 0,
      inconsistent: 0,
    });
    expect(r.byRouter).toStrictEqual({ rows: [] });
    expect(r).not.toHaveProperty('timeRange');
    expect(r.policy).toStrictEqual({ choice: 'auto', services: [] });
  });

  it('the time range is the earliest and the latest decision start, whatever their order', () => {
    const r = summarizeDecisions([
      one({ timeUnixMs: 500 }),
      one({ timeUnixMs: 100 }),
      one({ timeUnixMs: 300 }),
    ]);
    expect(r.timeRange).toStrictEqual({ firstMs: 100, lastMs: 500 });
  });

  it('one decision: the range starts and ends at it', () => {
    expect(summarizeDecisions([one({ timeUnixMs: 7 })]).timeRange).toStrictEqual({ firstMs: 7, lastMs: 7 });
  });

  it('misroutes are the marks on decision spans plus the feedback spans; turns are counted apart', () => {
    const marked = one({ override: { misroutes: [{ expected: 'b' }, { expected: 'c' }] } });
    const r = summarizeDecisions([
      marked,
      misroute({ traceId: tid(1) }),
      turn({ traceId: tid(1) }),
      turn({ traceId: tid(2) }),
    ]);
    expect(r.misroutes).toBe(3);
    expect(r.turns).toBe(2);
    expect(r.decisions).toBe(1);
  });

  it('a decision that did not throw is no error; one with a floor is not floorless', () => {
    const r = summarizeDecisions([one({ policy: { floor: 0 } })]);
    expect(r.errors).toBe(0);
    expect(r.floorlessDecisions).toBe(0);
  });
});

describe('summary: breakdowns', () => {
  it('rows are busiest first, then by name in code-point order, a missing name last', () => {
    const recs = [
      one({ router: 'b' }),
      one({ override: { router: undefined } }),
      one({ router: 'B' }),
      one({ router: 'a' }),
      one({ router: 'z' }),
      one({ router: 'z' }),
    ];
    expect(summarizeDecisions(recs).byRouter.rows.map((r) => r.name)).toStrictEqual([
      'z',
      'B',
      'a',
      'b',
      null,
    ]);
  });

  it('a row carries the name and the rates of its decisions', () => {
    const r = summarizeDecisions([
      one({ scorerName: 'kw' }),
      decision({ scores: [s('a', 1), s('b', 0.99)], scorerName: 'kw' }),
    ]);
    expect(r.byScorer.rows).toStrictEqual([
      {
        name: 'kw',
        decisions: 2,
        verdicts: { move: 1, stay: 0, menu: 1, unmatched: 0 },
        nearTies: 1,
        nearTieRate: 0.5,
        menuRate: 0.5,
        unmatchedRate: 0,
      },
    ]);
  });

  it('exactly maxNames names are not pooled; the next new one is, and known ones keep counting', () => {
    const recs = [one({ router: 'r1' }), one({ router: 'r2' }), one({ router: 'r1' })];
    expect(summarizeDecisions(recs, { maxNames: 2 }).byRouter).not.toHaveProperty('pooled');
    const more = summarizeDecisions([...recs, one({ router: 'r3' }), one({ router: 'r4' })], { maxNames: 2 });
    expect(more.byRouter.rows.map((r) => [r.name, r.decisions])).toStrictEqual([
      ['r1', 2],
      ['r2', 1],
    ]);
    expect(more.byRouter.pooled).toMatchObject({ decisions: 2 });
  });

  it('past maxNames services, the audit pools the rest too', () => {
    const recs = [plainMove({ service: 'a' }), plainMove({ service: 'b' }), plainMove({ service: 'c' })];
    const r = summarizeDecisions(recs, { maxNames: 2 });
    // Busiest first, then by name: '(' sorts before letters.
    expect(r.policy.services.map((x) => x.service)).toStrictEqual(['(other)', 'a', 'b']);
  });

  it('compareNames: code-point order, equal names 0, null and undefined last', () => {
    expect(compareNames('a', 'b')).toBe(-1);
    expect(compareNames('b', 'a')).toBe(1);
    expect(compareNames('B', 'a')).toBe(-1);
    expect(compareNames('a', 'a')).toBe(0);
    expect(compareNames(null, null)).toBe(0);
    expect(compareNames(null, 'a')).toBe(1);
    expect(compareNames(undefined, 'a')).toBe(1);
    expect(compareNames('a', null)).toBe(-1);
    expect(compareNames('a', undefined)).toBe(-1);
  });
});

describe('summary: anomalies and the audit', () => {
  it('locate gives the trace, span, names when known, file and line', () => {
    const d = one({ router: 'r', scorerName: 'x' });
    expect(locate(d)).toStrictEqual({
      traceId: d.traceId,
      spanId: d.spanId,
      router: 'r',
      scorer: 'x',
      file: 'mem',
      line: d.source.line,
    });
    const bare = one({ override: { router: undefined, scorer: undefined } });
    expect(locate(bare)).toStrictEqual({
      traceId: bare.traceId,
      spanId: bare.spanId,
      file: 'mem',
      line: bare.source.line,
    });
  });

  it('each anomaly kind is counted by decision, and an example says where', () => {
    const d = oddMargin();
    const r = summarizeDecisions([d, decision({ scores: [s('a', 1), s('a', 0.5)] })]);
    expect(r.anomalies).toStrictEqual({
      'odd-margin': 1,
      'odd-menu-size': 0,
      'duplicate-candidates': 1,
      inconsistent: 0,
    });
    expect(r.anomalyExamples[0]).toStrictEqual({ kind: 'odd-margin', margin: 0, at: locate(d) });
  });

  it('examples of both sorts are merged in input order, then capped', () => {
    const bad = clauseCase('agentfootprint-9.62');
    const recs = [oddMargin(), bad, oddMargin()];
    const r = summarizeDecisions(recs, { policy: 'contract' });
    expect(r.anomalyExamples.map((e) => e.kind)).toStrictEqual(['odd-margin', 'inconsistent', 'odd-margin']);
    expect(r.anomalyExamples[1]).toStrictEqual({
      kind: 'inconsistent',
      differences: [expect.stringMatching(/verdict: recorded stay, replayed menu/)],
      semantics: 'contract',
      at: locate(bad),
    });
    expect(r.anomalies.inconsistent).toBe(1);
    const capped = summarizeDecisions(recs, { policy: 'contract', maxExamples: 2 });
    expect(capped.anomalyExamples.map((e) => e.kind)).toStrictEqual(['odd-margin', 'inconsistent']);
  });

  it('under auto a 9.62 decision is judged by 9.62: consistent; forced to the contract it is not', () => {
    const d = clauseCase('agentfootprint-9.62');
    expect(summarizeDecisions([d]).inconsistent).toBe(0);
    const forced = summarizeDecisions([d], { policy: 'contract' });
    expect(forced.inconsistent).toBe(1);
    expect(forced.policy.choice).toBe('contract');
  });

  it('a streaming overview gives what summarizeDecisions gives', () => {
    const recs = [one(), oddMargin(), turn({ traceId: tid(3) })];
    const a = createSummaryAnalysis();
    for (const r of recs) a.add(r);
    expect(a.finish()).toStrictEqual(summarizeDecisions(recs));
  });
});
