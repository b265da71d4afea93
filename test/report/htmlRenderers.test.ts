// The HTML pages built from reports, without a browser: what each page must say and mark.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestForCharts } from '../../src/analyze/chartDigest.js';
import { explainDecisions } from '../../src/analyze/explainDecisions.js';
import { findFlapping } from '../../src/analyze/flapping.js';
import { findNearTieHotspots } from '../../src/analyze/findNearTieHotspots.js';
import { replayDecisions } from '../../src/analyze/replay.js';
import { tuneMargins } from '../../src/analyze/tune.js';
import { nearTieZone } from '../../src/report/decisionChart.js';
import { explainToDocument } from '../../src/report/presentExplain.js';
import { flappingToDocument } from '../../src/report/presentFlapping.js';
import { hotspotBlocks } from '../../src/report/presentHotspots.js';
import { renderHtml } from '../../src/report/html/renderHtml.js';
import { replayToDocument } from '../../src/report/presentReplay.js';
import { tuneToDocument } from '../../src/report/presentTune.js';
import { pairwiseGap } from '../../src/policy/routingPolicy.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { generateWorkload, recordOf } from '../analyze/replayRecords.js';

const P = { nearTieMargin: 0.15, menuSize: 3 };
const s = (id: string, score: number) => ({ id, score });
const marks = (svg: string) => (svg.match(/class="(?:mark|mark cell)"/g) ?? []).length;

describe('explain page', () => {
  it('the near-tie zone holds exactly the scores that tie with the top', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -3, max: 3, noNaN: true }),
        fc.double({ min: 0.001, max: 0.999, noNaN: true }),
        fc.double({ min: 0, max: 6, noNaN: true }),
        (top, margin, below) => {
          const zone = nearTieZone(top, margin, [{ score: top }])!;
          const score = top - below;
          const inZone = score > zone.from + 1e-9;
          const outZone = score < zone.from - 1e-9;
          if (inZone) expect(pairwiseGap(top, score)).toBeLessThan(margin);
          if (outZone) expect(pairwiseGap(top, score)).toBeGreaterThanOrEqual(margin);
        },
      ),
    );
    expect(nearTieZone(1, 0, [])).toBeUndefined();
    expect(nearTieZone(undefined, 0.15, [])).toBeUndefined();
    expect(nearTieZone(1, 1, [{ score: 1 }, { score: -2 }, { score: NaN }])).toMatchObject({
      from: -2,
      to: 1,
    });
  });

  it('draws one ranked chart per decision with the floor, and links only http(s) URLs', () => {
    const conv = { conversationId: 'c-1' };
    const recs = [
      recordOf(
        [s('billing', 0.6), s('refunds', 0.55), s('greeting', -0.2)],
        undefined,
        P,
        { floor: 0 },
        conv,
      ),
      recordOf([s('billing', 0.9), s('refunds', 0.1)], 'billing', P, { floor: 0 }, conv),
    ];
    const report = explainDecisions(recs, 'c-1');
    const linkFor = (id: string) =>
      id === recs[0]!.traceId
        ? { jaeger: 'http://jaeger.invalid/trace/x' }
        : { jaeger: 'javascript:alert(1)' };
    const links = Object.fromEntries(report.traceIds.map((id) => [id, linkFor(id)]));
    const html = renderHtml(explainToDocument({ report, links }));
    const charts = html.match(/<svg class="chart" data-chart="ranked"[^]*?<\/svg>/g)!;
    expect(charts).toHaveLength(2);
    for (const c of charts) {
      expect(marks(c)).toBeGreaterThanOrEqual(2);
      expect(c).toMatch(/class="marker"[^>]*><title>floor: 0</);
      expect(c).toContain('class="band"');
    }
    expect(html).toContain('<a href="http://jaeger.invalid/trace/x" rel="noreferrer noopener"');
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('Jaeger: javascript:alert(1)');
    expect(html).toMatch(/What would have changed it/);
  });
});

describe('replay page', () => {
  it('draws the flip matrix with one mark per non-empty cell and says when the audit fails', () => {
    const recs = generateWorkload(200, 4);
    const report = replayDecisions(recs, { thresholds: { nearTieMargin: 0.3 }, listLimit: 5 });
    const html = renderHtml(replayToDocument({ report, digest: digestForCharts(recs) }));
    const matrix = /<svg class="chart" data-chart="heatmap"[^]*?<\/svg>/.exec(html)![0];
    const nonEmpty = Object.values(report.flips).flatMap((row) => Object.values(row).filter((n) => n > 0));
    expect(marks(matrix)).toBe(nonEmpty.length);
    expect(html).toContain('new margin 0.3');
    expect(html).toMatch(/every one of 200 decisions reproduces/);

    const tampered: DecisionRecord = { ...recs[0]!, verdict: recs[0]!.verdict === 'move' ? 'stay' : 'move' };
    const bad = renderHtml(replayToDocument({ report: replayDecisions([tampered, ...recs.slice(1)]) }));
    expect(bad).toMatch(/do NOT reproduce their recorded verdict/);
  });
});

describe('tune page', () => {
  it('shows the caveat, marks the recommendation on the curve and highlights it in the table', () => {
    const recs = generateWorkload(300, 8);
    const report = tuneMargins(recs, { targetMenuRate: 0.05 });
    const html = renderHtml(tuneToDocument({ report, digest: digestForCharts(recs) }));
    expect(html).toContain('rates, not accuracy');
    const m = report.recommendation!.margin;
    expect(html).toContain(`recommended: ${m}`);
    expect(html).toContain(`<b>${m}</b> ◀`);
    expect(html).toMatch(/Floor sweep — desk \/ embedding/);
  });
});

describe('flapping page', () => {
  it('ranks pairs and conversations as bars, and says so when nothing flapped', () => {
    const conv = (c: string) => ({ conversationId: c, router: 'desk' });
    const a = recordOf([s('A', 0.9), s('B', 0.1)], undefined, P, {}, conv('c1'));
    const b = recordOf([s('B', 0.9), s('A', 0.1)], 'A', P, {}, conv('c1'));
    const c = recordOf([s('A', 0.9), s('B', 0.1)], 'B', P, {}, conv('c1'));
    const html = renderHtml(flappingToDocument({ report: findFlapping([a, b, c]) }));
    expect(html).toContain('A ↔ B');
    expect(html).toContain('A → B → A (turns 2–3)');
    const quiet = renderHtml(flappingToDocument({ report: findFlapping([a]) }));
    expect(quiet).toContain('no data');
  });

  it('draws the bars longest first and counts in the singular where it is one', () => {
    // Ranked by flaps (bounces + stay runs), drawn by turns that flapped (bounces + near-tie stays): the
    // second pair ranks lower but draws longer.
    const pair = (x: string, y: string, bounces: number, stays: number, stayRuns: number) => ({
      pair: [x, y] as const,
      bounces,
      nearTieStays: stays,
      stayRuns,
      flaps: bounces + stayRuns,
      conversations: 1,
    });
    const conversation = (
      id: string,
      bounces: number,
      stays: number,
      stayRuns: number,
      decisions: number,
    ) => ({
      id,
      keyedBy: 'conversation' as const,
      decisions,
      bounces,
      nearTieStays: stays,
      stayRuns,
      longestStayRun: stays,
      flaps: bounces + stayRuns,
      examples: [],
    });
    const report = {
      ...findFlapping([]),
      topPairs: [pair('A', 'B', 2, 0, 0), pair('C', 'D', 0, 5, 1), pair('E', 'F', 1, 1, 0)],
      topConversations: [conversation('c1', 2, 0, 0, 9), conversation('c2', 0, 4, 1, 1)],
    };
    const charts = flappingToDocument({ report }).flatMap((b) => (b.kind === 'chart' ? [b.chart] : []));
    const bars = (title: string) => {
      const chart = charts.find((c) => c.options?.title === title);
      if (chart?.type !== 'bars') throw new Error(`no ${title} bars`);
      return chart.data.map((d) => `${d.label} ${d.value} ${d.note}`);
    };
    expect(bars('Skill pairs')).toEqual([
      'C ↔ D 5 (0 bounces, 5 stays)',
      'A ↔ B 2 (2 bounces, 0 stays)',
      'E ↔ F 2 (1 bounce, 1 stay)',
    ]);
    expect(bars('Conversations')).toEqual(['c2 4 of 1 turn', 'c1 2 of 9 turns']);
  });
});

describe('hot-spot bars', () => {
  it('name the group only where one pair ties under two routers', () => {
    const tie = (router: string, a = 'A', b = 'B') =>
      recordOf([s(a, 0.5), s(b, 0.49)], undefined, P, {}, { conversationId: `c-${router}`, router });
    const report = findNearTieHotspots([tie('desk'), tie('desk'), tie('triage'), tie('triage', 'C', 'D')]);
    const bars = hotspotBlocks(report, 'Hot spots').flatMap((b) =>
      b.kind === 'chart' && b.chart.type === 'bars' ? b.chart.data.map((d) => `${d.label} ${d.note}`) : [],
    );
    expect(bars).toEqual([
      'A ↔ B (tie rate 100.0%) · desk · (none)',
      'A ↔ B (tie rate 100.0%) · triage · (none)',
      'C ↔ D (tie rate 100.0%)',
    ]);
  });
});
