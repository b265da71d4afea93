/**
 * renderAnalyzeHtml — the overview as a page: headline rates, verdict mix, near-tie rate over time, the gap
 * histogram with the margin, the tied skill pairs, floorless scorers, hot spots and anomalies.
 *
 * Tables come from the analyzer's reports (summary, hot spots, floorless); charts from the chart digest,
 * read in the same pass. Both are aggregates, so the page is the same size for one decision or a million.
 * Pure.
 */
import type { ChartDigest } from '../../analyze/chartDigest.js';
import type { Distribution } from '../../analyze/createReservoir.js';
import type { FloorlessReport } from '../../analyze/findFloorlessScorers.js';
import type { HotspotReport } from '../../analyze/findNearTieHotspots.js';
import type { DecisionSummary } from '../../analyze/summarizeDecisions.js';
import type { ReadStats } from '../../trace/types.js';
import {
  floorlessSection,
  gapHistogramSection,
  inputNotes,
  tiedPairsSection,
  timelineSection,
  verdictMixSection,
} from './digestSections.js';
import { HOTSPOT_LEGEND } from '../format/presentHotspots.js';
import { htmlIdList, htmlTable, renderHtmlPage, type HtmlSection } from './htmlPage.js';
import { policySection } from './policySection.js';
import { formatNumber, formatPercent } from './svgCharts.js';
import { formatScoreValue } from '../../analyze/formatFigures.js';

/** What the analyze page is built from. */
export interface AnalyzeHtmlInput {
  readonly summary: DecisionSummary;
  readonly digest: ChartDigest;
  readonly hotspots?: HotspotReport;
  readonly floorless?: FloorlessReport;
  readonly stats?: ReadStats;
}

/** The analyze page. */
export function renderAnalyzeHtml(input: AnalyzeHtmlInput): string {
  const { summary, digest } = input;
  const sections: HtmlSection[] = [
    verdictMixSection(summary.verdicts),
    timelineSection(digest),
    gapHistogramSection(digest),
    tiedPairsSection(digest),
    floorlessSection(digest, false),
  ];
  if (input.hotspots !== undefined) {
    sections.push({
      title: 'Near-tie hot spots',
      intro: 'Skill pairs that tie most, per router and scorer.',
      body: htmlTable(
        [
          'router',
          'scorer',
          'pair',
          'near-ties',
          'share',
          'met',
          'tie rate',
          'median gap',
          'menus',
          'stays',
          'conversations',
          'example traces',
        ],
        input.hotspots.hotspots.map((h) => [
          h.router ?? '',
          h.scorer ?? '',
          `${h.pair[0]} ↔ ${h.pair[1]}`,
          formatNumber(h.nearTies),
          formatPercent(h.share),
          formatNumber(h.meetings),
          formatPercent(h.tieRate),
          h.medianGap === null ? '–' : formatScoreValue(h.medianGap),
          formatNumber(h.verdicts.menu),
          formatNumber(h.verdicts.stay),
          `${h.conversationsCapped ? '≥' : ''}${formatNumber(h.conversations)}`,
          htmlIdList(h.exampleTraceIds, 1),
        ]),
        [3, 4, 5, 6, 7, 8, 9, 10],
        HOTSPOT_LEGEND,
      ),
    });
  }
  if (input.floorless !== undefined && input.floorless.floorless.length > 0) {
    sections.push({
      title: 'Floors that would help',
      intro: `For each floorless scorer, the floor that would have made its weakest ${input.floorless.weakestPercent}% of decisions unmatched.`,
      body: htmlTable(
        [
          'router',
          'scorer',
          'decisions',
          'near-tie rate',
          'top score p10 / p50 / p90',
          'suggested floor',
          'would be unmatched',
        ],
        input.floorless.floorless.map((f) => [
          f.router ?? '',
          f.scorer ?? '',
          formatNumber(f.decisions),
          formatPercent(f.nearTieRate),
          f.topScores === null ? '–' : describeDistribution(f.topScores),
          f.suggestedFloor === null ? '–' : formatScoreValue(f.suggestedFloor.floor),
          f.suggestedFloor === null
            ? '–'
            : `${formatNumber(f.suggestedFloor.wouldBeUnmatched)} (${formatPercent(f.suggestedFloor.share)})`,
        ]),
        [2, 3, 4, 5, 6],
        [
          ['top score', "each decision's best raw score, nearest-rank percentiles"],
          [
            'suggested floor',
            'a floor to declare: a decision whose top score is at or below it is unmatched',
          ],
          ['would be unmatched', 'decisions (and share) that floor makes unmatched'],
        ],
      ),
    });
  }
  const groups: [string, DecisionSummary['byRouter']][] = [
    ['router', summary.byRouter],
    ['scorer', summary.byScorer],
    ['service', summary.byService],
  ];
  for (const [name, breakdown] of groups) {
    if (breakdown.rows.length <= 1 && name === 'service') continue;
    sections.push({
      title: `By ${name}`,
      half: true,
      body: htmlTable(
        [name, 'decisions', 'near-tie rate', 'menu rate', 'unmatched rate'],
        breakdown.rows
          .slice(0, 25)
          .map((r) => [
            r.name ?? '(none)',
            formatNumber(r.decisions),
            formatPercent(r.nearTieRate),
            formatPercent(r.menuRate),
            formatPercent(r.unmatchedRate),
          ]),
        [1, 2, 3, 4],
        [['near-tie rate', 'share of decisions whose top two were closer than the margin']],
      ),
    });
  }
  const anomalyTotal = Object.values(summary.anomalies).reduce((a, b) => a + b, 0);
  if (anomalyTotal > 0) {
    sections.push({
      title: 'Anomalies',
      intro: 'Decisions the routing contract never expects, with where they were found.',
      body: htmlTable(
        ['kind', 'trace', 'router / scorer', 'where', 'detail'],
        summary.anomalyExamples.map((a) => [
          a.kind,
          htmlIdList([a.at.traceId], 1),
          `${a.at.router ?? ''} / ${a.at.scorer ?? ''}`,
          `${a.at.file}:${a.at.line}`,
          a.kind === 'inconsistent'
            ? `judged as ${a.semantics}: ${a.differences.join('; ')}`
            : a.kind === 'odd-margin'
              ? `margin ${a.margin}`
              : a.kind === 'odd-menu-size'
                ? `menu size ${a.menuSize}`
                : a.ids.join(', '),
        ]),
      ),
    });
  }
  sections.push(...policySection(summary.policy.choice, summary.policy.services));
  const range = summary.timeRange;
  return renderHtmlPage({
    title: 'routescope analyze',
    subtitle:
      range === undefined
        ? 'No routing decision in the input.'
        : `${formatNumber(summary.decisions)} tier-2 decisions from ${iso(range.firstMs)} to ${iso(range.lastMs)} (UTC).`,
    stats: [
      { label: 'decisions', value: formatNumber(summary.decisions) },
      {
        label: 'near-tie rate',
        value: formatPercent(summary.nearTieRate),
        tone: summary.nearTieRate > 0.2 ? 'bad' : summary.nearTieRate > 0.1 ? 'warn' : 'good',
      },
      { label: 'menu rate', value: formatPercent(summary.menuRate) },
      {
        label: 'floorless decisions',
        value: formatNumber(summary.floorlessDecisions),
        tone: summary.floorlessDecisions > 0 ? 'warn' : 'good',
      },
      {
        label: 'inconsistent',
        value: formatNumber(summary.inconsistent),
        tone: summary.inconsistent > 0 ? 'bad' : 'good',
      },
      { label: 'misroute marks', value: formatNumber(summary.misroutes) },
    ],
    sections,
    notes: inputNotes(input.stats),
  });
}

function describeDistribution(d: Distribution): string {
  return `${formatScoreValue(d.p10)} / ${formatScoreValue(d.median)} / ${formatScoreValue(d.p90)}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}
