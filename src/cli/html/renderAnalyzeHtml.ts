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
import { describeResolution } from '../format/presentPolicy.js';
import {
  floorlessSection,
  gapHistogramSection,
  inputNotes,
  tiedPairsSection,
  timelineSection,
  verdictMixSection,
} from './digestSections.js';
import { htmlId } from './escapeHtml.js';
import { htmlIdList, htmlTable, renderHtmlPage, type HtmlSection } from './htmlPage.js';
import { formatNumber, formatPercent } from './svgCharts.js';

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
          'ties when they meet',
          'median gap',
          'menu / stay',
          'conversations',
          'examples',
        ],
        input.hotspots.hotspots.map((h) => [
          h.router ?? '',
          h.scorer ?? '',
          `${h.pair[0]} ↔ ${h.pair[1]}`,
          formatNumber(h.nearTies),
          formatPercent(h.share),
          formatPercent(h.tieRate),
          h.medianGap === null ? '–' : formatNumber(h.medianGap),
          `${formatNumber(h.verdicts.menu)} / ${formatNumber(h.verdicts.stay)}`,
          `${formatNumber(h.conversations)}${h.conversationsCapped ? '+' : ''}`,
          htmlIdList(h.exampleTraceIds),
        ]),
        [3, 4, 5, 6, 8],
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
          f.suggestedFloor === null ? '–' : formatNumber(f.suggestedFloor.floor),
          f.suggestedFloor === null
            ? '–'
            : `${formatNumber(f.suggestedFloor.wouldBeUnmatched)} (${formatPercent(f.suggestedFloor.share)})`,
        ]),
        [2, 3, 5, 6],
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
          { html: htmlId(a.at.traceId, 16) },
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
  if (summary.policy.services.length > 0) {
    sections.push({
      title: 'Policy behaviour by service',
      intro: `--policy ${summary.policy.choice}: the published behaviour that judged each service's decisions (contract, or agentfootprint-9.62 without the incumbent-at/below-floor clause).`,
      body: htmlTable(
        ['service', 'behaviour', 'how', 'decisions', 'recorded contract / 9.62', 'inconsistent'],
        summary.policy.services.map((p) => [
          p.service ?? '(none)',
          p.semantics,
          describeResolution(p),
          formatNumber(p.decisions),
          `${formatNumber(p.recorded.contract)} / ${formatNumber(p.recorded['agentfootprint-9.62'])}`,
          formatNumber(p.inconsistent),
        ]),
        [3, 4, 5],
      ),
    });
  }
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
  return `${formatNumber(d.p10)} / ${formatNumber(d.median)} / ${formatNumber(d.p90)}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}
