// The HTML pages are built from aggregates: one decision and a hundred thousand give pages of about the same
// (small) size, each with its charts drawn.
import { describe, expect, it } from 'vitest';
import { createChartDigest } from '../../src/analyze/chartDigest.js';
import { createFlappingAnalysis } from '../../src/analyze/flapping.js';
import { createFloorlessAnalysis } from '../../src/analyze/findFloorlessScorers.js';
import { createHotspotAnalysis } from '../../src/analyze/findNearTieHotspots.js';
import { createReplayAnalysis } from '../../src/analyze/replay.js';
import { createSummaryAnalysis } from '../../src/analyze/summarizeDecisions.js';
import { createTuneAnalysis } from '../../src/analyze/tune.js';
import { analyzeToDocument } from '../../src/report/presentAnalyze.js';
import { flappingToDocument } from '../../src/report/presentFlapping.js';
import { renderHtml } from '../../src/report/html/renderHtml.js';
import { replayToDocument } from '../../src/report/presentReplay.js';
import { tuneToDocument } from '../../src/report/presentTune.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { recordOf, seededRandom } from '../analyze/replayRecords.js';

const SKILLS = ['billing', 'refunds', 'shipping', 'returns', 'account', 'greeting', 'complaints', 'orders'];

/** `n` decisions spread over a month, in 2,000 conversations, made lazily by the real policy. */
function* decisions(n: number): Generator<DecisionRecord> {
  const rnd = seededRandom(99);
  for (let i = 0; i < n; i++) {
    const base = rnd();
    const scores = SKILLS.map((id) => ({ id, score: base + (rnd() - 0.5) * 0.6 }));
    const floorless = i % 4 === 0;
    yield recordOf(
      scores,
      rnd() < 0.5 ? SKILLS[Math.floor(rnd() * SKILLS.length)] : undefined,
      { nearTieMargin: 0.15, menuSize: 3 },
      floorless ? {} : { floor: 0 },
      {
        router: 'desk',
        scorer: floorless ? 'embedding' : 'keyword',
        conversationId: `c${i % 2000}`,
        timeUnixMs: 1.7e12 + (i / n) * 30 * 86_400_000,
      },
    );
  }
}

function pages(n: number): Record<string, string> {
  const summary = createSummaryAnalysis();
  const hotspots = createHotspotAnalysis();
  const floorless = createFloorlessAnalysis();
  const digest = createChartDigest();
  const replay = createReplayAnalysis({ thresholds: { nearTieMargin: 0.25 }, listLimit: 50 });
  const tune = createTuneAnalysis({ targetMenuRate: 0.1 });
  const flapping = createFlappingAnalysis();
  for (const d of decisions(n)) {
    for (const a of [summary, hotspots, floorless, digest, replay, tune, flapping]) a.add(d);
  }
  const g = digest.finish();
  return {
    analyze: renderHtml(
      analyzeToDocument({
        summary: summary.finish(),
        digest: g,
        hotspots: hotspots.finish(),
        floorless: floorless.finish(),
        gates: [],
      }),
    ),
    replay: renderHtml(replayToDocument({ report: replay.finish(), digest: g })),
    tune: renderHtml(tuneToDocument({ report: tune.finish(), digest: g })),
    flapping: renderHtml(flappingToDocument({ report: flapping.finish(), digest: g })),
  };
}

describe('HTML report size', () => {
  it('one decision and 50,000 give small pages of about the same size', () => {
    const one = pages(1);
    const many = pages(50_000);
    for (const name of Object.keys(one)) {
      const a = Buffer.byteLength(one[name]!);
      const b = Buffer.byteLength(many[name]!);
      console.log(
        `${name}: 1 decision ${(a / 1024).toFixed(1)} KiB, 50,000 decisions ${(b / 1024).toFixed(1)} KiB`,
      );
      expect(b).toBeLessThan(300 * 1024);
      expect(b).toBeLessThan(a * 4 + 60 * 1024);
      expect(many[name]).toContain('<svg class="chart"');
      expect(one[name]).toContain('<svg class="chart"');
    }
    // With a month of data the timeline has many buckets, still within the cap.
    const path = /<svg class="chart" data-chart="line"[^]*?<path class="mark" d="([^"]*)"/.exec(
      many.analyze!,
    )![1]!;
    const points = path.split(/[ML]/).length - 1;
    expect(points).toBeGreaterThan(10);
    expect(points).toBeLessThanOrEqual(120);
  });
});
