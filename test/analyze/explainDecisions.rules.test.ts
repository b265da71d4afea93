// explainDecisions.rules — one rule per test: what the target matches, the joins and their caps, the order,
// the behaviour that judges, and each sentence describeVerdict writes.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EXPLAIN_CONFIG,
  createExplainAnalysis,
  describeVerdict,
  explainDecisions,
} from '../../src/analyze/explainDecisions.js';
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

describe('explain: matching', () => {
  it('the defaults: 10000 records kept, 10000 held for the join, auto', () => {
    expect(DEFAULT_EXPLAIN_CONFIG).toStrictEqual({ maxRecords: 10_000, maxPending: 10_000, policy: 'auto' });
    expect(Object.isFrozen(DEFAULT_EXPLAIN_CONFIG)).toBe(true);
  });

  it('the report names itself and its target as given', () => {
    const t = tid('named');
    const r = explainDecisions([one({ traceId: t })], t.toUpperCase());
    expect(r.kind).toBe('explain');
    expect(r.target).toBe(t.toUpperCase());
    expect(r.traceIds).toStrictEqual([t]);
  });

  it('a target that is both a trace id and a conversation id matches both, trace first', () => {
    const t = tid('both');
    const r = explainDecisions([one({ conversationId: t }), one({ traceId: t })], t);
    expect(r.matchedBy).toStrictEqual(['trace', 'conversation']);
    expect(r.entries).toHaveLength(2);
  });

  it('a conversation id matches exactly, case included', () => {
    expect(explainDecisions([one({ conversationId: 'Conv' })], 'conv').entries).toStrictEqual([]);
  });

  it('a prefix of exactly 8 hex digits, or of 31, is a prefix; 7 or a non-hex one is not', () => {
    const t = 'abcdef0123456789abcdef0123456789';
    const d = one({ traceId: t });
    expect(explainDecisions([d], t.slice(0, 8)).entries).toHaveLength(1);
    expect(explainDecisions([d], t.slice(0, 31)).entries).toHaveLength(1);
    expect(explainDecisions([d], t.slice(0, 7)).entries).toHaveLength(0);
    expect(explainDecisions([one({ traceId: `abcdefg${'0'.repeat(25)}` })], 'abcdefg0').entries).toHaveLength(
      0,
    );
  });

  it('a 32-digit target is an exact trace id, not a prefix of itself', () => {
    const t = 'abcdef0123456789abcdef0123456789';
    const r = explainDecisions([one({ traceId: t })], t);
    expect(r.matchedBy).toStrictEqual(['trace']);
  });

  it('an ambiguous prefix names the first trace it matched and at most ten others', () => {
    const recs = Array.from({ length: 13 }, (_, i) =>
      one({ traceId: `abcdef01${String(i).padStart(24, '0')}` }),
    );
    const r = explainDecisions(recs, 'abcdef01');
    expect(r.ambiguous).toHaveLength(11);
    expect(r.ambiguous![0]).toBe(recs[0]!.traceId);
    expect(r.matchedBy).toStrictEqual([]);
    expect(r.pendingDropped).toBe(0);
  });

  it('a unique prefix keeps every record of its trace, decisions and others, in time order', () => {
    const t = `abcdef01${'9'.repeat(24)}`;
    const d = one({ traceId: t, timeUnixMs: 20 });
    const mark = misroute({ traceId: t, timeUnixMs: 10 });
    const r = explainDecisions([d, mark], 'abcdef01');
    expect(r.entries.map((e) => e.kind)).toStrictEqual(['misroute', 'decision']);
    expect(r).not.toHaveProperty('ambiguous');
  });
});

describe('explain: joins, order and caps', () => {
  it('records at the same time keep their input order', () => {
    const t = tid('same-time');
    const a = one({ traceId: t, timeUnixMs: 5 });
    const b = one({ traceId: t, timeUnixMs: 5 });
    const c = one({ traceId: t, timeUnixMs: 5 });
    expect(explainDecisions([b, c, a], t).entries.map((e) => e.record.spanId)).toStrictEqual([
      b.spanId,
      c.spanId,
      a.spanId,
    ]);
  });

  it('a joined record at the same time as a kept one keeps its place in the input', () => {
    const d = one({ conversationId: 'c1', timeUnixMs: 5 });
    const mark = misroute({ traceId: d.traceId, timeUnixMs: 5 });
    const r = explainDecisions([mark, d], 'c1');
    expect(r.entries.map((e) => e.kind)).toStrictEqual(['misroute', 'decision']);
  });

  it("a record of the conversation's trace that names another conversation is not joined", () => {
    const d = one({ conversationId: 'c1' });
    const other = one({ traceId: d.traceId, conversationId: 'c2' });
    const r = explainDecisions([d, other], 'c1');
    expect(r.entries.map((e) => e.record.spanId)).toStrictEqual([d.spanId]);
    expect(r.conversationIds).toStrictEqual(['c1']);
  });

  it('records without a conversation id are held up to maxPending; the rest are counted as dropped', () => {
    const d = one({ conversationId: 'c1', timeUnixMs: 1 });
    const marks = [2, 3, 4].map((t) => misroute({ traceId: d.traceId, timeUnixMs: t }));
    const r = explainDecisions([...marks, d], 'c1', { maxPending: 2 });
    expect(r.entries.map((e) => e.kind)).toStrictEqual(['decision', 'misroute', 'misroute']);
    expect(r.pendingDropped).toBe(1);
  });

  it('with nothing matched, dropped pending records are not reported', () => {
    const marks = [1, 2, 3].map(() => misroute({ traceId: tid('p') }));
    expect(explainDecisions(marks, 'nothing', { maxPending: 1 }).pendingDropped).toBe(0);
  });

  it('records of a prefix-matched trace past maxRecords are counted as truncated, like any match', () => {
    const t = `abcdef01${'5'.repeat(24)}`;
    const recs = [1, 2, 3].map((ms) => one({ traceId: t, timeUnixMs: ms }));
    const r = explainDecisions(recs, 'abcdef01', { maxRecords: 2 });
    expect(r.entries).toHaveLength(2);
    expect(r.truncated).toBe(1);
  });

  it('an ambiguous prefix truncates nothing: it keeps nothing', () => {
    const t = `abcdef01${'5'.repeat(24)}`;
    const recs = [1, 2, 3].map(() => one({ traceId: t }));
    const other = one({ traceId: `abcdef01${'6'.repeat(24)}` });
    const r = explainDecisions([...recs, other], 'abcdef01', { maxRecords: 2 });
    expect(r.ambiguous).toHaveLength(2);
    expect(r.truncated).toBe(0);
  });

  it('joined records count against maxRecords too', () => {
    const d = one({ conversationId: 'c1' });
    const marks = [1, 2].map(() => misroute({ traceId: d.traceId }));
    const r = explainDecisions([d, ...marks], 'c1', { maxRecords: 2 });
    expect(r.entries).toHaveLength(2);
    expect(r.truncated).toBe(1);
  });

  it('the trace ids are listed once each, in time order; turns are entries', () => {
    const a = one({ conversationId: 'c', timeUnixMs: 30 });
    const b = one({ conversationId: 'c', timeUnixMs: 10 });
    const again = one({ conversationId: 'c', traceId: a.traceId, timeUnixMs: 40 });
    const tr = turn({ traceId: b.traceId, timeUnixMs: 20 });
    const r = explainDecisions([a, again, b, tr], 'c');
    expect(r.traceIds).toStrictEqual([b.traceId, a.traceId]);
    expect(r.conversationIds).toStrictEqual(['c']);
    expect(r.entries.map((e) => e.kind)).toStrictEqual(['decision', 'turn', 'decision', 'decision']);
    expect(r.decisions).toBe(3);
    expect(r.entries[1]).toStrictEqual({ kind: 'turn', record: tr });
  });
});

describe('explain: the behaviour', () => {
  it('under auto, decisions outside the target are evidence of their service', () => {
    const target = plainMove({ conversationId: 'mine', service: 'svc' });
    const others = [1, 2].map(() => clauseCase('agentfootprint-9.62', { service: 'svc' }));
    const e = explainDecisions([...others, target], 'mine').entries[0]!;
    expect(e.kind === 'decision' && e.semantics).toBe('agentfootprint-9.62');
  });

  it('a forced behaviour judges every decision', () => {
    const d = clauseCase('agentfootprint-9.62', { conversationId: 'mine' });
    const e = explainDecisions([d], 'mine', { policy: 'contract' }).entries[0]!;
    if (e.kind !== 'decision') throw new Error('expected a decision');
    expect(e.semantics).toBe('contract');
    expect(e.anomalies.map((a) => a.kind)).toStrictEqual(['inconsistent']);
    expect(e.replay).toMatchObject({ kind: 'replayed', verdict: 'menu' });
  });

  it("under auto, the target's own decision is evidence: a 9.62 stay is consistent", () => {
    const d = clauseCase('agentfootprint-9.62', { conversationId: 'mine' });
    const e = explainDecisions([d], 'mine').entries[0]!;
    if (e.kind !== 'decision') throw new Error('expected a decision');
    expect(e.semantics).toBe('agentfootprint-9.62');
    expect(e.anomalies).toStrictEqual([]);
    expect(e.why).toContain('the turn stayed on f');
  });

  it('a streaming explain gives what explainDecisions gives', () => {
    const recs = [one({ conversationId: 'c' }), one({ conversationId: 'c' })];
    const a = createExplainAnalysis('c');
    for (const r of recs) a.add(r);
    expect(a.finish()).toStrictEqual(explainDecisions(recs, 'c'));
  });
});

describe('describeVerdict: every sentence', () => {
  const unmatched = (): DecisionRecord => decision({ scores: [s('a', 0.1)], scorer: { floor: 0.5 } });

  it('unmatched with nothing scored', () => {
    expect(describeVerdict({ ...unmatched(), ranked: [] })).toBe(
      'No candidate was scored, so nothing matched: unmatched.',
    );
  });

  it('unmatched with only non-finite scores', () => {
    const d = unmatched();
    expect(describeVerdict({ ...d, ranked: [{ ...d.ranked[0]!, score: NaN }] })).toBe(
      'Every score was non-finite, so no candidate could win: unmatched.',
    );
  });

  it('unmatched with no floor recorded names no floor', () => {
    const { effectiveFloor: _f, ...d } = unmatched();
    expect(describeVerdict(d as DecisionRecord)).toBe(
      'No candidate scored (the best, a, scored 0.1000), so nothing matched: unmatched.',
    );
  });

  it('a categorical pick', () => {
    const d = decision({ scores: [s('a', 1), s('b', 1)], scorer: { categorical: true, floor: 0 } });
    expect(describeVerdict(d)).toBe(
      'The categorical scorer picked a, which is decisive by construction, so tier 2 moved to a.',
    );
  });

  it('a lone alive candidate with no floor', () => {
    const { runnerUp: _r, ...d } = decision({ scores: [s('a', 1)] });
    expect(describeVerdict(d as DecisionRecord)).toBe('Only a was alive, so tier 2 moved to a.');
  });

  it('a decisive stay names the incumbent as the winner', () => {
    const d = decision({ scores: [s('a', 1), s('b', 0)], incumbent: 'a' });
    expect(d.verdict).toBe('stay');
    expect(describeVerdict(d)).toBe(
      `a beat b by a gap of ${Math.tanh(0.5).toFixed(4)} >= the margin 0.15, so the turn stayed on a.`,
    );
  });

  it('a menu at cold start', () => {
    const d = decision({ scores: [s('a', 0.51), s('b', 0.5)] });
    expect(d.verdict).toBe('menu');
    expect(describeVerdict(d)).toBe(
      `a and b were within a gap of ${Math.tanh(0.005).toFixed(4)} < the margin 0.15 at cold start (no incumbent), so a menu of [a, b] was offered.`,
    );
  });

  it('a menu whose incumbent scored out, with no floor to name', () => {
    const d = decision({
      scores: [s('a', 1), s('b', 0.95), s('inc', -1)],
      incumbent: 'inc',
      scorer: { floor: 0 },
    });
    const { effectiveFloor: _f, ...noFloor } = d;
    expect(describeVerdict(noFloor as DecisionRecord)).toBe(
      `a and b were within a gap of ${Math.tanh(0.025).toFixed(4)} < the margin 0.15, and the incumbent inc scored at or below the floor, so a menu of [a, b] was offered among the new candidates.`,
    );
    expect(describeVerdict(d)).toContain('scored at or below the floor 0, so');
  });

  it('a menu recorded with no list offers an empty one', () => {
    const { offered: _o, ...d } = decision({ scores: [s('a', 0.51), s('b', 0.5)] });
    expect(describeVerdict(d as DecisionRecord)).toContain('so a menu of [] was offered');
  });

  it('a near-tie stay names both candidates and the incumbent', () => {
    const d = decision({ scores: [s('a', 1), s('b', 0.95)], incumbent: 'b' });
    expect(describeVerdict(d)).toBe(
      `a and b were within a gap of ${Math.tanh(0.025).toFixed(4)} < the margin 0.15, and with the incumbent b in place ambiguity keeps it: the turn stayed on b.`,
    );
  });

  it('not decisive with no runner-up recorded says only that', () => {
    const { runnerUp: _r, ...d } = decision({ scores: [s('a', 1), s('b', 0.95)], incumbent: 'b' });
    expect(describeVerdict(d as DecisionRecord)).toBe(
      'The decision was not decisive, and with the incumbent b in place ambiguity keeps it: the turn stayed on b.',
    );
  });

  it('a near-tie with nothing ranked names the top as ?', () => {
    const d = decision({ scores: [s('a', 1), s('b', 0.95)], incumbent: 'b' });
    expect(describeVerdict({ ...d, ranked: [] })).toMatch(/^\? and b were within a gap of /);
  });

  it('with nothing ranked, a stay is won by its incumbent', () => {
    const d = decision({ scores: [s('a', 1), s('b', 0)], incumbent: 'a' });
    expect(describeVerdict({ ...d, ranked: [] })).toMatch(/^a beat b by a gap of /);
  });

  it('a move that was not decisive says "yet"', () => {
    const d = decision({ scores: [s('a', 1), s('b', 0)] });
    expect(describeVerdict({ ...d, decisive: false })).toBe(
      `a and b were within a gap of ${Math.tanh(0.5).toFixed(4)} < the margin 0.15, yet tier 2 moved to a.`,
    );
  });
});
