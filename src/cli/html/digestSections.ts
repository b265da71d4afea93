/**
 * digestSections — the chart sections every HTML report can show from a chart digest: verdict mix, near-tie
 * rate over time, the gap histogram with the margin(s) drawn, the tied skill pairs and floorless scorers;
 * plus the footer lines that say what was read.
 *
 * analyze shows all of them; replay and tune show the gap histogram with the recorded and the new margin,
 * which is the picture that explains their numbers. Pure.
 */
import type { ChartDigest, TimeBucket } from '../../analyze/chartDigest.js';
import type { VerdictCounts } from '../../analyze/verdictCounts.js';
import type { ReadStats } from '../../trace/types.js';
import { escapeHtml } from './escapeHtml.js';
import type { HtmlSection } from './htmlPage.js';
import { describeNoRoutingSpan, formatProblemPlace } from '../format/presentInput.js';
import {
  drawBarChart,
  drawHeatmap,
  drawHistogram,
  drawLineChart,
  formatNumber,
  formatPercent,
  type ChartMarker,
} from './svgCharts.js';
import { VERDICT_COLORS } from '../format/palette.js';
import { countOf, formatThreshold } from '../../analyze/formatFigures.js';

const VERDICTS = ['move', 'stay', 'menu', 'unmatched'] as const;
const DAY_MS = 86_400_000;

/** The most common recorded margin, if any decision was read. */
export function dominantMargin(digest: ChartDigest): number | undefined {
  return digest.margins[0]?.margin;
}

/** What each verdict means, under the verdict mix. */
const VERDICT_MEANINGS: Readonly<Record<(typeof VERDICTS)[number], string>> = {
  move: 'one candidate beat the rest by the margin or more: the turn moved to it',
  stay: 'the incumbent won, or a near-tie kept it: the conversation stayed where it was',
  menu: 'the top candidates tied with no incumbent to keep: the user was offered a choice',
  unmatched: 'no candidate scored above the floor: nothing matched (only a scorer with a floor can say this)',
};

/** Verdict counts as coloured bars with their share, and what each verdict means. */
export function verdictMixSection(verdicts: VerdictCounts, title = 'Verdict mix', half = true): HtmlSection {
  const total = VERDICTS.reduce((n, k) => n + verdicts[k], 0);
  const key = VERDICTS.map(
    (k) => `<tr><td><span class="pill ${k}">${k}</span></td><td>${escapeHtml(VERDICT_MEANINGS[k])}</td></tr>`,
  ).join('');
  return {
    title,
    intro: 'How the tier-2 decisions ended.',
    half,
    body:
      drawBarChart(
        VERDICTS.map((k) => ({
          label: k,
          value: verdicts[k],
          color: VERDICT_COLORS[k],
          note: total > 0 ? `(${formatPercent(verdicts[k] / total)})` : '',
        })),
        { title, width: 560 },
      ) + `<table style="margin-top:10px"><tbody>${key}</tbody></table>`,
  };
}

/** Time as a short UTC label, coarser for wide buckets. */
export function formatTime(ms: number, bucketMs: number): string {
  const iso = new Date(ms).toISOString();
  if (bucketMs >= DAY_MS) return iso.slice(0, 10);
  return `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}

/** Widths a timeline is coarsened to, smallest first (each a multiple of the ones before it that divide it). */
const TIMELINE_WIDTHS_MS = [60e3, 300e3, 900e3, 3600e3, 10800e3, 21600e3, 43200e3, DAY_MS, 7 * DAY_MS];
/** A rate drawn from fewer decisions than this per point is mostly noise (0% or 100%). */
const MIN_DECISIONS_PER_POINT = 5;

/**
 * The digest's buckets merged into wider ones until the average point holds a few decisions: 233 decisions over
 * a day in 5-minute buckets draw a rate that jumps between 0% and 100%; in hours they draw a rate.
 */
export function coarsenTimeline(timeline: ChartDigest['timeline']): ChartDigest['timeline'] {
  let { buckets, bucketMs } = timeline;
  for (const width of TIMELINE_WIDTHS_MS) {
    const busy = buckets.filter((b) => b.decisions > 0);
    const mean = busy.reduce((n, b) => n + b.decisions, 0) / Math.max(1, busy.length);
    if (mean >= MIN_DECISIONS_PER_POINT || buckets.length <= 12) break;
    if (width <= bucketMs || width % bucketMs !== 0) continue;
    const merged = new Map<number, TimeBucket>();
    for (const b of buckets) {
      const start = Math.floor(b.startMs / width) * width;
      const m = merged.get(start);
      merged.set(
        start,
        m === undefined
          ? { ...b, startMs: start, verdicts: { ...b.verdicts } }
          : {
              startMs: start,
              decisions: m.decisions + b.decisions,
              nearTies: m.nearTies + b.nearTies,
              verdicts: {
                move: m.verdicts.move + b.verdicts.move,
                stay: m.verdicts.stay + b.verdicts.stay,
                menu: m.verdicts.menu + b.verdicts.menu,
                unmatched: m.verdicts.unmatched + b.verdicts.unmatched,
              },
            },
      );
    }
    buckets = [...merged.values()].sort((a, b) => a.startMs - b.startMs);
    bucketMs = width;
  }
  return { buckets, bucketMs };
}

/** Near-tie and menu rates per time bucket. */
export function timelineSection(digest: ChartDigest, half = true): HtmlSection {
  const { buckets, bucketMs } = coarsenTimeline(digest.timeline);
  const at = (b: (typeof buckets)[number]) => b.startMs + bucketMs / 2;
  return {
    title: 'Near-tie rate over time',
    intro:
      `Share of decisions per ${describeWidth(bucketMs)} (UTC) that were near-ties or ended in a menu.` +
      (buckets.length === 1 ? ' Every decision falls in one bucket, so there is one point per line.' : ''),
    half,
    body: drawLineChart(
      [
        {
          name: 'near-tie rate',
          color: '#e3a21a',
          points: buckets.map((b) => ({ x: at(b), y: b.decisions > 0 ? b.nearTies / b.decisions : 0 })),
        },
        {
          name: 'menu rate',
          color: '#8a5cc7',
          points: buckets.map((b) => ({ x: at(b), y: b.decisions > 0 ? b.verdicts.menu / b.decisions : 0 })),
        },
      ],
      {
        title: 'Near-tie rate over time',
        width: 560,
        yDomain: [0, 1],
        yFormat: formatPercent,
        xFormat: (x) => formatTime(x, bucketMs),
      },
    ),
  };
}

/**
 * The runner-up gap histogram. Without a new margin the near-ties of each bin are stacked in amber, as they
 * were recorded (routers may judge with different margins); with one, bins below it are amber, because
 * replay and tune apply that margin to every decision.
 */
export function gapHistogramSection(
  digest: ChartDigest,
  options: { readonly newMargin?: number; readonly half?: boolean } = {},
): HtmlSection {
  const half = options.half ?? true;
  const markers: ChartMarker[] = digest.margins.slice(0, 3).map((m, i) => ({
    value: m.margin,
    label: digest.margins.length > 1 ? `margin ${i + 1}` : 'recorded margin',
    color: '#c8463d',
  }));
  const recorded = new Set(digest.margins.map((m) => m.margin));
  if (options.newMargin !== undefined && !recorded.has(options.newMargin)) {
    markers.push({ value: options.newMargin, label: 'new margin', color: '#1d2330' });
  }
  const nonEmpty = digest.gaps.bins.filter((b) => b.count > 0);
  const reach = Math.max(nonEmpty.at(-1)?.to ?? 0, ...markers.map((m) => m.value));
  const xMax = Math.min(1, Math.ceil((reach + 0.05) * 10) / 10);
  const bins = digest.gaps.bins.filter((b) => b.from < xMax - 1e-12);
  const byNew = options.newMargin;
  const shown = bins.map((b) =>
    byNew === undefined
      ? { from: b.from, to: b.to, count: b.count, color: '#3b6fd8', part: b.nearTies, partColor: '#e3a21a' }
      : { from: b.from, to: b.to, count: b.count, color: b.to <= byNew + 1e-12 ? '#e3a21a' : '#3b6fd8' },
  );
  const margins =
    digest.margins.length > 1
      ? ` Recorded margins: ${digest.margins.map((m, i) => `${i + 1}: ${formatThreshold(m.margin)} (${formatNumber(m.decisions)} decisions)`).join(', ')}.`
      : '';
  const intro =
    'Runner-up gap tanh((top − second) / 2) of every decision with two candidates alive; a gap below the margin is a near-tie' +
    (byNew === undefined
      ? ' (amber: recorded near-ties).'
      : ` (amber: near-ties under the new margin ${formatThreshold(byNew)}).`) +
    margins;
  return {
    title: 'Gap histogram',
    intro,
    half,
    body: drawHistogram(shown, {
      title: 'Gap histogram',
      width: half ? 560 : 1100,
      // Half width sits beside the tied-pairs heatmap: as tall, so the card is not half empty.
      height: half ? 340 : 240,
      markers,
      xFormat: formatNumber,
      partLabel: 'near-ties',
      legend: [
        { label: 'near-tie', color: '#e3a21a' },
        { label: 'decisive', color: '#3b6fd8' },
      ],
    }),
  };
}

/** Near-ties per skill pair as a symmetric heatmap. */
export function tiedPairsSection(digest: ChartDigest, half = true): HtmlSection {
  const { skills, cells, notShown } = digest.tiedPairs;
  return {
    title: 'Tied skill pairs',
    intro:
      'Near-ties per pair of top and runner-up skills — the confusion matrix of the skill graph.' +
      (notShown > 0 ? ` ${formatNumber(notShown)} near-ties involve skills not shown.` : ''),
    half,
    body: drawHeatmap(skills, skills, cells, {
      title: 'Tied skill pairs',
      width: half ? 560 : 1100,
      hue: 28,
    }),
  };
}

/** Decisions judged with no floor, per router/scorer. */
export function floorlessSection(digest: ChartDigest, half = true): HtmlSection {
  const rows = digest.scorers.filter((s) => s.floorless > 0).slice(0, 15);
  return {
    title: 'Floorless scorers',
    intro:
      'Decisions judged with no floor: the scorer could never say "no match" (unmatched unreachable).' +
      (rows.length === 0 ? ' None here.' : ''),
    half,
    body: drawBarChart(
      rows.map((s) => ({
        label: `${s.router ?? '(no router)'} / ${s.scorer ?? '(no scorer)'}`,
        value: s.floorless,
        color: '#c8463d',
        note: `of ${formatNumber(s.decisions)}`,
      })),
      { title: 'Floorless scorers', width: half ? 560 : 1100 },
    ),
  };
}

/** The event-log line of the input: turn_routed events read, other agentfootprint events skipped. */
function describeEvents(stats: ReadStats): string {
  return (
    `Event logs: ${countOf(stats.events - stats.otherEvents, 'turn_routed event')} read, ` +
    `${countOf(stats.otherEvents, 'other agentfootprint event')} skipped, ${countOf(stats.duplicateEvents, 'duplicate')}.`
  );
}

/** Footer lines describing the input. */
export function inputNotes(stats: ReadStats | undefined): string[] {
  if (stats === undefined) return [];
  const problems = stats.problems.length + stats.problemsDropped;
  return [
    `Input: ${countOf(stats.files, 'file')}, ${countOf(stats.lines, 'line')}, ${countOf(stats.spans, 'span')}, ` +
      `${countOf(stats.routingSpans, 'routing span')}, ${countOf(stats.duplicates, 'duplicate')}.`,
    ...(describeNoRoutingSpan(stats) === undefined ? [] : [describeNoRoutingSpan(stats)!]),
    ...(stats.events > 0 ? [describeEvents(stats)] : []),
    ...(problems > 0
      ? [
          `${countOf(problems, 'problem')} while reading, first: ${stats.problems
            .slice(0, 3)
            .map((p) => `${formatProblemPlace(p)} ${p.reason}`)
            .join('; ')}`,
        ]
      : []),
  ];
}

function describeWidth(ms: number): string {
  if (ms % (7 * DAY_MS) === 0) return ms === 7 * DAY_MS ? 'week' : `${ms / (7 * DAY_MS)} weeks`;
  if (ms % DAY_MS === 0) return ms === DAY_MS ? 'day' : `${ms / DAY_MS} days`;
  if (ms % 3_600_000 === 0) return ms === 3_600_000 ? 'hour' : `${ms / 3_600_000} hours`;
  if (ms % 60_000 === 0) return ms === 60_000 ? 'minute' : `${ms / 60_000} minutes`;
  return ms === 1000 ? 'second' : `${ms / 1000} seconds`;
}
