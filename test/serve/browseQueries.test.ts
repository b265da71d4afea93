// The window index and the lists and search built on it: one rule per `it`, and laws — a filter keeps exactly
// the decisions a plain scan of the records keeps, pages partition a list, and the inconsistent flags count what
// the overview counts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSummaryAnalysis } from '../../src/analyze/summarizeDecisions.js';
import type { DecisionRecord, TraceRecord } from '../../src/record/types.js';
import {
  LIST_PAGE_SIZE,
  filterDecisionPositions,
  filterQuery,
  pageOf,
  readDecisionFilter,
  searchWindow,
  type DecisionFilter,
} from '../../src/serve/browse/browseQueries.js';
import { createWindowIndex, type WindowIndex } from '../../src/serve/browse/windowIndex.js';
import { clauseCase, decision, misroute, plainMove, s, tid } from '../analyze/decisionBuilder.js';
import { generateWorkload } from '../analyze/replayRecords.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

/** The index of `records` and the overview over them, as serve makes them in one replay. */
function indexOf(records: readonly TraceRecord[]): {
  index: WindowIndex;
  inconsistent: number;
  misroutes: number;
} {
  const builder = createWindowIndex();
  const summary = createSummaryAnalysis({}, builder.observe);
  for (const r of records) {
    summary.add(r);
    builder.add(r);
  }
  const finished = summary.finish();
  return {
    index: builder.finish(summary),
    inconsistent: finished.inconsistent,
    misroutes: finished.misroutes,
  };
}

const NO_FILTER: DecisionFilter = { nearTie: false, misrouted: false, floorless: false, inconsistent: false };

describe('readDecisionFilter', () => {
  it('reads names, a verdict and flags from the query', () => {
    const f = readDecisionFilter(new URLSearchParams('router=desk&verdict=menu&near=1&misrouted=on'));
    expect(f).toEqual({ ...NO_FILTER, router: 'desk', verdict: 'menu', nearTie: true, misrouted: true });
  });

  it('an unknown verdict or a flag that is not one is an error naming the parameter', () => {
    expect(readDecisionFilter(new URLSearchParams('verdict=maybe'))).toEqual({
      error: "verdict must be one of move, stay, menu, unmatched (got 'maybe')",
    });
    expect(readDecisionFilter(new URLSearchParams('near=yes'))).toMatchObject({
      error: expect.stringContaining('near'),
    });
  });

  it('filterQuery gives back the query that asks for the same filter', () => {
    const f = { ...NO_FILTER, scorer: 'kw & co', verdict: 'stay' as const, floorless: true };
    expect(readDecisionFilter(new URLSearchParams(filterQuery(f, 3).slice(1)))).toEqual(f);
    expect(new URLSearchParams(filterQuery(f, 3)).get('page')).toBe('3');
  });
});

describe('the decision list', () => {
  it('is newest first by start time, whatever order the records arrived in', () => {
    const records = [1000, 3000, 2000].map((t) => plainMove({ timeUnixMs: t }));
    const { index } = indexOf(records);
    expect(filterDecisionPositions(index, NO_FILTER).map((i) => index.time[i])).toEqual([3000, 2000, 1000]);
  });

  it('a name the window does not hold matches nothing (not everything)', () => {
    const { index } = indexOf([plainMove({ router: 'desk' })]);
    expect(filterDecisionPositions(index, { ...NO_FILTER, router: 'elsewhere' })).toEqual([]);
  });

  it('a skill filter keeps decisions where the skill was chosen or the runner-up', () => {
    const records = [
      decision({ scores: [s('billing', 1), s('refunds', 0.5)], policy: { floor: 0 } }),
      decision({ scores: [s('refunds', 1), s('billing', 0.5)], policy: { floor: 0 } }),
      decision({ scores: [s('refunds', 1), s('shipping', 0.5)], policy: { floor: 0 } }),
    ];
    const { index } = indexOf(records);
    expect(filterDecisionPositions(index, { ...NO_FILTER, skill: 'billing' })).toHaveLength(2);
  });

  it('law: a filter keeps exactly what a scan of the records keeps, and its pages partition it', () => {
    const records = generateWorkload(400, 11).map((d, i) =>
      i % 9 === 0 ? { ...d, misroutes: [{ expected: 'b', reason: 'r', source: 'human-review' }] } : d,
    );
    const { index } = indexOf(records);
    fc.assert(
      fc.property(
        fc.record({
          router: fc.option(fc.constantFrom('desk', 'other'), { nil: undefined }),
          scorer: fc.option(fc.constantFrom('embedding', 'keyword'), { nil: undefined }),
          verdict: fc.option(fc.constantFrom('move', 'stay', 'menu', 'unmatched' as const), {
            nil: undefined,
          }),
          conversation: fc.option(fc.constantFrom('c1', 'c7', 'c79', 'none'), { nil: undefined }),
          nearTie: fc.boolean(),
          misrouted: fc.boolean(),
          floorless: fc.boolean(),
          inconsistent: fc.constant(false),
        }),
        (raw) => {
          const filter = Object.fromEntries(
            Object.entries(raw).filter(([, v]) => v !== undefined),
          ) as unknown as DecisionFilter;
          const keep = (d: DecisionRecord): boolean =>
            (filter.router === undefined || d.router === filter.router) &&
            (filter.scorer === undefined || d.scorer === filter.scorer) &&
            (filter.verdict === undefined || d.verdict === filter.verdict) &&
            (filter.conversation === undefined || d.conversationId === filter.conversation) &&
            (!filter.nearTie || d.nearTie) &&
            (!filter.misrouted || d.misroutes.length > 0) &&
            (!filter.floorless || !d.floorDeclared);
          const positions = filterDecisionPositions(index, filter);
          expect(positions.map((i) => records[i]!.spanId).sort()).toEqual(
            records
              .filter(keep)
              .map((d) => d.spanId)
              .sort(),
          );
          const pages = pageOf(positions, 1).pages;
          const walked = Array.from({ length: pages }, (_, p) => pageOf(positions, p + 1).rows).flat();
          expect(walked).toEqual(positions);
          for (let p = 1; p <= pages; p++)
            expect(pageOf(positions, p).rows.length).toBeLessThanOrEqual(LIST_PAGE_SIZE);
        },
      ),
      { numRuns: propertyRuns(100) },
    );
  });

  it('a page past the last is the last; a page before the first is the first', () => {
    const all = Array.from({ length: 120 }, (_, i) => i);
    expect(pageOf(all, 99)).toMatchObject({ number: 3, pages: 3, entries: 120 });
    expect(pageOf(all, -4).number).toBe(1);
    expect(pageOf(all, Number.NaN).number).toBe(1);
    expect(pageOf([], 1)).toMatchObject({ number: 1, pages: 1, entries: 0, rows: [] });
  });
});

describe('inconsistent and misroute flags', () => {
  it('flag the decisions the overview counts as inconsistent and misrouted', () => {
    // The service decides by the contract (evidence), and one decision's verdict was changed: inconsistent.
    const records: TraceRecord[] = [
      ...Array.from({ length: 5 }, () => clauseCase('contract', { service: 'svc' })),
      clauseCase('contract', { service: 'svc', override: { verdict: 'stay' } }),
      plainMove({ service: 'svc', override: { misroutes: [{ expected: 'b' }] } }),
      misroute({ traceId: tid('fb'), conversationId: 'c-1' }),
    ];
    const { index, inconsistent, misroutes } = indexOf(records);
    expect(inconsistent).toBe(1);
    const flagged = filterDecisionPositions(index, { ...NO_FILTER, inconsistent: true });
    expect(flagged).toEqual([5]);
    expect(filterDecisionPositions(index, { ...NO_FILTER, misrouted: true })).toEqual([6]);
    expect(index.marks.length).toBe(misroutes);
    expect(index.conversationRows.find((c) => index.conversations.get(c.conversation) === 'c-1')?.marks).toBe(
      1,
    );
  });
});

describe('searchWindow', () => {
  const records = [
    plainMove({ conversationId: 'conv-1842', traceId: tid('a') }),
    plainMove({ conversationId: 'conv-1843', traceId: tid('b') }),
    plainMove({ conversationId: 'other', traceId: tid('c'), router: 'billing-desk' }),
  ];
  const { index } = indexOf(records);

  it('an exact conversation id is one match leading to its explain', () => {
    expect(searchWindow(index, ' conv-1842 ')).toEqual({
      query: 'conv-1842',
      exact: true,
      matches: [{ kind: 'conversation', value: 'conv-1842', href: '/explain/conv-1842' }],
      more: 0,
    });
  });

  it('a trace id in capitals is the same trace; a span id leads to its trace', () => {
    expect(searchWindow(index, tid('b').toUpperCase()).matches).toEqual([
      { kind: 'trace', value: tid('b'), href: `/explain/${tid('b')}` },
    ]);
    expect(searchWindow(index, records[2]!.spanId).matches[0]).toEqual({
      kind: 'span',
      value: records[2]!.spanId,
      href: `/explain/${tid('c')}`,
    });
  });

  it('a prefix lists every id and name that starts with it, case-blind', () => {
    const found = searchWindow(index, 'CONV-18');
    expect(found.exact).toBe(false);
    expect(found.matches.map((m) => m.value)).toEqual(['conv-1842', 'conv-1843']);
    expect(searchWindow(index, 'billing').matches).toEqual([
      { kind: 'router', value: 'billing-desk', href: '/decisions?router=billing-desk' },
    ]);
  });

  it('nothing found is no match; an empty query asks nothing', () => {
    expect(searchWindow(index, 'zzz').matches).toEqual([]);
    expect(searchWindow(index, '   ')).toEqual({ query: '', exact: false, matches: [], more: 0 });
  });
});
