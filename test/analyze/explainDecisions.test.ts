import { describe, expect, it } from 'vitest';
import {
  createExplainAnalysis,
  describeVerdict,
  explainDecisions,
} from '../../src/analyze/explainDecisions.js';
import { formatScoreValue } from '../../src/analyze/formatFigures.js';
import { decision, misroute, s, tid, turn } from './decisionBuilder.js';
import type { TraceRecord } from '../../src/record/types.js';

describe('explainDecisions', () => {
  it('finish(page) explains only that page, counts all of them, and may be asked again for another page', () => {
    const records: TraceRecord[] = [];
    for (let i = 0; i < 23; i++) {
      records.push(
        decision({ scores: [s('a', 1), s('b', 0.5 + i / 100)], conversationId: 'c', timeUnixMs: 1000 + i }),
      );
      if (i % 4 === 0)
        records.push(turn({ traceId: tid(`t${i}`), conversationId: 'c', timeUnixMs: 1000 + i }));
      if (i % 7 === 0)
        records.push(misroute({ traceId: tid(`m${i}`), conversationId: 'c', timeUnixMs: 1000 + i }));
    }
    const whole = explainDecisions(records, 'c');
    const analysis = createExplainAnalysis('c');
    for (const r of records) analysis.add(r);
    const pages = [0, 10, 20, 30].map((from) => analysis.finish({ from, count: 10 }));
    expect(pages.flatMap((p) => p.entries)).toEqual(whole.entries);
    for (const p of pages) {
      expect(p.entries.length).toBeLessThanOrEqual(10);
      expect([p.records, p.decisions, p.turns, p.marks]).toEqual([whole.records, 23, 6, 4]);
    }
    expect(whole.records).toBe(33);
    // Asked again, the same (the pending join and the sort happen once).
    expect(analysis.finish({ from: 10, count: 10 })).toEqual(pages[1]);
    expect(analysis.finish()).toEqual(whole);
  });

  it('keeps only the records of the trace, in time order', () => {
    const t = tid('x');
    const later = decision({ scores: [s('a', 1)], traceId: t, timeUnixMs: 2000 });
    const earlier = decision({ scores: [s('b', 1)], traceId: t, timeUnixMs: 1000 });
    const other = decision({ scores: [s('c', 1)], timeUnixMs: 1500 });
    const r = explainDecisions([later, other, earlier], t);
    expect(r.matchedBy).toEqual(['trace']);
    expect(r.entries.map((e) => e.record.spanId)).toEqual([earlier.spanId, later.spanId]);
    expect(r.decisions).toBe(2);
  });

  it('matches a trace id in any case', () => {
    const t = tid('y');
    const d = decision({ scores: [s('a', 1)], traceId: t });
    expect(explainDecisions([d], t.toUpperCase()).entries).toHaveLength(1);
  });

  it('a unique trace-id prefix of 8+ digits explains that trace, pending records joined', () => {
    const t = 'abcdef0123456789abcdef0123456789';
    const d = decision({ scores: [s('a', 1)], traceId: t, conversationId: 'conv-p' });
    const mark = misroute({ traceId: t });
    const other = decision({ scores: [s('b', 1)], traceId: `0${t.slice(1)}` });
    const r = explainDecisions([d, other, mark], 'ABCDEF01');
    expect(r.matchedBy).toEqual(['trace']);
    expect(r.traceIds).toEqual([t]);
    expect(r.entries.map((e) => e.kind)).toEqual(['decision', 'misroute']);
    expect(r.ambiguous).toBeUndefined();
  });

  it('a prefix shared by two traces is ambiguous: no entries, the trace ids named', () => {
    const a = decision({ scores: [s('a', 1)], traceId: `abcdef01${'1'.repeat(24)}` });
    const b = decision({ scores: [s('b', 1)], traceId: `abcdef01${'2'.repeat(24)}` });
    const r = explainDecisions([a, b], 'abcdef01');
    expect(r.entries).toEqual([]);
    expect(r.ambiguous).toEqual([a.traceId, b.traceId]);
  });

  it('an exact match wins over a prefix, and a prefix under 8 digits matches nothing', () => {
    const exact = decision({ scores: [s('a', 1)], conversationId: 'abcdef01' });
    const prefixed = decision({ scores: [s('b', 1)], traceId: `abcdef01${'3'.repeat(24)}` });
    const r = explainDecisions([exact, prefixed], 'abcdef01');
    expect(r.matchedBy).toEqual(['conversation']);
    expect(r.entries.map((e) => e.record.spanId)).toEqual([exact.spanId]);
    expect(explainDecisions([prefixed], 'abcdef0').entries).toEqual([]);
  });

  it('a conversation id gathers every trace of the conversation', () => {
    const a = decision({ scores: [s('a', 1)], conversationId: 'conv-1' });
    const b = decision({ scores: [s('b', 1)], conversationId: 'conv-1' });
    const r = explainDecisions([a, decision({ scores: [s('c', 1)] }), b], 'conv-1');
    expect(r.matchedBy).toEqual(['conversation']);
    expect(r.traceIds).toEqual([a.traceId, b.traceId]);
    expect(r.conversationIds).toEqual(['conv-1']);
  });

  it('misroute marks and turn routes without a conversation id are joined by trace id', () => {
    const d = decision({ scores: [s('a', 1)], conversationId: 'conv-2', timeUnixMs: 10 });
    const mark = misroute({ traceId: d.traceId, timeUnixMs: 20 });
    const t = turn({ traceId: d.traceId, timeUnixMs: 5, to: 'a' });
    const stray = misroute({ traceId: tid('elsewhere') });
    const r = explainDecisions([mark, stray, d, t], 'conv-2');
    expect(r.entries.map((e) => e.kind)).toEqual(['turn', 'decision', 'misroute']);
  });

  it('each decision carries its sentence, its replay and its counterfactuals', () => {
    const d = decision({ scores: [s('a', 1), s('b', 0.9)], traceId: tid('z') });
    const e = explainDecisions([d], d.traceId).entries[0]!;
    if (e.kind !== 'decision') throw new Error('expected a decision');
    expect(e.why).toContain('cold start');
    expect(e.replay).toMatchObject({ kind: 'replayed', differences: [] });
    expect(e.counterfactuals.margin.kind).toBe('margin');
  });

  it('an unknown id matches nothing', () => {
    const r = explainDecisions([decision({ scores: [s('a', 1)] })], 'nope');
    expect(r).toMatchObject({ matchedBy: [], entries: [], decisions: 0 });
  });

  it('records past maxRecords are counted, not kept', () => {
    const recs = [1, 2, 3].map(() => decision({ scores: [s('a', 1)], conversationId: 'c' }));
    expect(explainDecisions(recs, 'c', { maxRecords: 2 })).toMatchObject({ truncated: 1 });
  });
});

describe('describeVerdict', () => {
  it('a decisive move names the winner, the runner-up, the gap and the margin', () => {
    const why = describeVerdict(decision({ scores: [s('a', 1), s('b', 0)] }));
    expect(why).toBe(
      `a beat b by a gap of ${formatScoreValue(Math.tanh(0.5))} >= the margin 0.15, so tier 2 moved to a.`,
    );
  });

  it('a lone alive candidate is decisive with no gap', () => {
    const why = describeVerdict(decision({ scores: [s('a', 1), s('b', 0)], scorer: { floor: 0 } }));
    expect(why).toBe('Only a was alive above the floor 0, so tier 2 moved to a.');
  });

  it('a near-tie with an incumbent stays', () => {
    const why = describeVerdict(decision({ scores: [s('a', 1), s('b', 0.95)], incumbent: 'b' }));
    expect(why).toMatch(
      /^a and b were within a gap of .* < the margin 0\.15, and with the incumbent b in place/,
    );
    expect(why).toContain('the turn stayed on b');
  });

  it('a near-tie whose incumbent scored out is a menu of the new candidates', () => {
    const d = decision({
      scores: [s('a', 1), s('b', 0.95), s('inc', -1)],
      incumbent: 'inc',
      scorer: { floor: 0 },
    });
    expect(d.verdict).toBe('menu');
    expect(describeVerdict(d)).toContain('the incumbent inc scored at or below the floor 0');
  });

  it('unmatched names the floor and the best score', () => {
    const why = describeVerdict(decision({ scores: [s('a', 0.1)], scorer: { floor: 0.5 } }));
    expect(why).toBe(
      'No candidate scored above the floor 0.5 (the best, a, scored 0.1000), so nothing matched: unmatched.',
    );
  });

  it('a categorical pick is decisive by construction', () => {
    const why = describeVerdict(
      decision({ scores: [s('a', 1), s('b', 1)], scorer: { categorical: true, floor: 0 } }),
    );
    expect(why).toContain('decisive by construction');
  });
});
