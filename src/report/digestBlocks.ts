/**
 * digestBlocks — the chart sections a report can draw from a chart digest: verdict mix, near-tie rate over
 * time, the gap histogram with the margin(s) and the tied skill pairs.
 *
 * Each is a page-only section of the report document (a heading, an intro and a chart): analyze shows all of
 * them; replay and tune the gap histogram with the recorded and the new margin, which is the picture that
 * explains their numbers; flapping the tied pairs. Text and Markdown never see them. Pure.
 */
import type { ChartDigest, TimeBucket } from '../analyze/chartDigest.js';
import { formatThreshold } from '../analyze/formatFigures.js';
import type { VerdictCounts } from '../analyze/verdictCounts.js';
import type { ChartMarker } from './html/svgCharts.js';
import { look, type Block, type Chart } from './document.js';
import { countOf, formatCount, formatPercent } from './formatValues.js';
import { CHART_COLORS, VERDICT_COLORS } from './palette.js';

const VERDICTS = ['move', 'stay', 'menu', 'unmatched'] as const;
const DAY_MS = 86_400_000;
const HALF = 560;
const FULL = 1100;

/** A page-only section: its heading, a sentence, the chart and what follows it. */
export function chartSection(
  title: string,
  intro: string,
  chart: Chart,
  options: { readonly half?: boolean; readonly after?: readonly Block[] } = {},
): Block[] {
  return [
    { kind: 'heading', text: title, only: 'html', ...(options.half ? { half: true } : {}) },
    { kind: 'paragraph', text: intro, only: 'html' },
    { kind: 'chart', chart, only: 'html' },
    ...(options.after ?? []).map((b): Block => ({ ...b, only: 'html' })),
  ];
}

/** What each verdict means, under the verdict mix. */
const VERDICT_MEANINGS: Readonly<Record<(typeof VERDICTS)[number], string>> = {
  move: 'one candidate beat the rest by the margin or more: the turn moved to it',
  stay: 'the incumbent won, or a near-tie kept it: the conversation stayed where it was',
  menu: 'the top candidates tied with no incumbent to keep: the user was offered a choice',
  unmatched: 'no candidate scored above the floor: nothing matched (only a scorer with a floor can say this)',
};

/** Verdict counts as coloured bars with their share, and what each verdict means. */
export function verdictMixBlocks(verdicts: VerdictCounts, title = 'Verdict mix'): Block[] {
  const total = VERDICTS.reduce((n, k) => n + verdicts[k], 0);
  return chartSection(
    title,
    'How the tier-2 decisions ended.',
    {
      type: 'bars',
      data: VERDICTS.map((k) => ({
        label: k,
        value: verdicts[k],
        color: VERDICT_COLORS[k],
        note: total > 0 ? `(${formatPercent(verdicts[k] / total)})` : '',
      })),
      options: { title, width: HALF },
    },
    {
      half: true,
      after: [
        {
          kind: 'table',
          columns: [{ title: 'verdict' }, { title: 'meaning' }],
          rows: VERDICTS.map((k) => [look(k, 'verdict'), VERDICT_MEANINGS[k]]),
        },
      ],
    },
  );
}

/** Time as a short UTC label, coarser for wide buckets. */
export function formatBucketTime(ms: number, bucketMs: number): string {
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
      merged.set(start, m === undefined ? { ...b, startMs: start, verdicts: { ...b.verdicts } } : add(m, b));
    }
    buckets = [...merged.values()].sort((a, b) => a.startMs - b.startMs);
    bucketMs = width;
  }
  return { buckets, bucketMs };
}

function add(m: TimeBucket, b: TimeBucket): TimeBucket {
  return {
    startMs: m.startMs,
    decisions: m.decisions + b.decisions,
    nearTies: m.nearTies + b.nearTies,
    verdicts: {
      move: m.verdicts.move + b.verdicts.move,
      stay: m.verdicts.stay + b.verdicts.stay,
      menu: m.verdicts.menu + b.verdicts.menu,
      unmatched: m.verdicts.unmatched + b.verdicts.unmatched,
    },
  };
}

/** Near-tie and menu rates per time bucket. */
export function timelineBlocks(digest: ChartDigest): Block[] {
  const { buckets, bucketMs } = coarsenTimeline(digest.timeline);
  const at = (b: (typeof buckets)[number]) => b.startMs + bucketMs / 2;
  const rate = (n: number, of: number) => (of > 0 ? n / of : 0);
  return chartSection(
    'Near-tie rate over time',
    `Share of decisions per ${describeWidth(bucketMs)} (UTC) that were near-ties or ended in a menu.` +
      (buckets.length === 1
        ? ' Every decision falls in one bucket, so there is one point per line.'
        : ' A break in a line is a time with no decision.'),
    {
      type: 'line',
      series: [
        {
          name: 'near-tie rate',
          color: CHART_COLORS.nearTie,
          points: buckets.map((b) => ({ x: at(b), y: rate(b.nearTies, b.decisions) })),
        },
        {
          name: 'menu rate',
          color: CHART_COLORS.menuRate,
          points: buckets.map((b) => ({ x: at(b), y: rate(b.verdicts.menu, b.decisions) })),
        },
      ],
      options: {
        title: 'Near-tie rate over time',
        width: HALF,
        yDomain: [0, 1],
        yFormat: formatPercent,
        xFormat: (x) => formatBucketTime(x, bucketMs),
        // Buckets hold decisions only: a missing one is a time without data, not a rate of 0 or a straight line.
        gapOver: bucketMs * 1.5,
      },
    },
    { half: true },
  );
}

/**
 * The runner-up gap histogram. Without a new margin the near-ties of each bin are stacked in amber, as they
 * were recorded (routers may judge with different margins); with one, bins below it are amber, because
 * replay and tune apply that margin to every decision.
 */
export function gapHistogramBlocks(
  digest: ChartDigest,
  options: { readonly newMargin?: number; readonly half?: boolean } = {},
): Block[] {
  const half = options.half ?? true;
  const markers: ChartMarker[] = digest.margins.slice(0, 3).map((m, i) => ({
    value: m.margin,
    label: digest.margins.length > 1 ? `margin ${i + 1}` : 'recorded margin',
    color: CHART_COLORS.threshold,
  }));
  const recorded = new Set(digest.margins.map((m) => m.margin));
  const byNew = options.newMargin;
  if (byNew !== undefined && !recorded.has(byNew)) {
    markers.push({ value: byNew, label: 'new margin', color: CHART_COLORS.newSetting });
  }
  const nonEmpty = digest.gaps.bins.filter((b) => b.count > 0);
  const reach = Math.max(nonEmpty.at(-1)?.to ?? 0, ...markers.map((m) => m.value));
  const xMax = Math.min(1, Math.ceil((reach + 0.05) * 10) / 10);
  const { nearTie, decisive } = CHART_COLORS;
  const bins = digest.gaps.bins
    .filter((b) => b.from < xMax - 1e-12)
    .map((b) =>
      byNew === undefined
        ? { from: b.from, to: b.to, count: b.count, color: decisive, part: b.nearTies, partColor: nearTie }
        : { from: b.from, to: b.to, count: b.count, color: b.to <= byNew + 1e-12 ? nearTie : decisive },
    );
  const margins =
    digest.margins.length > 1
      ? ` Recorded margins: ${digest.margins.map((m, i) => `${i + 1}: ${formatThreshold(m.margin)} (${countOf(m.decisions, 'decision')})`).join(', ')}.`
      : '';
  const intro =
    'Runner-up gap tanh((top − second) / 2) of every decision with two candidates alive; a gap below the margin is a near-tie' +
    (byNew === undefined
      ? ' (amber: recorded near-ties).'
      : ` (amber: near-ties under the new margin ${formatThreshold(byNew)}).`) +
    margins;
  return chartSection(
    'Gap histogram',
    intro,
    {
      type: 'histogram',
      bins,
      options: {
        title: 'Gap histogram',
        width: half ? HALF : FULL,
        // Half width sits beside the tied-pairs heatmap: as tall, so the card is not half empty.
        height: half ? 340 : 240,
        markers,
        xFormat: formatThreshold,
        partLabel: 'near-ties',
        legend: [
          { label: 'near-tie', color: nearTie },
          { label: 'decisive', color: decisive },
        ],
      },
    },
    { half },
  );
}

/** Near-ties per skill pair as a symmetric heatmap. */
export function tiedPairsBlocks(digest: ChartDigest, half = true): Block[] {
  const { skills, cells, notShown } = digest.tiedPairs;
  return chartSection(
    'Tied skill pairs',
    'Near-ties per pair of top and runner-up skills — the confusion matrix of the skill graph.' +
      (notShown > 0 ? ` ${formatCount(notShown)} near-ties involve skills not shown.` : ''),
    {
      type: 'heatmap',
      rows: skills,
      cols: skills,
      cells,
      options: { title: 'Tied skill pairs', width: half ? HALF : FULL, hue: 28 },
    },
    { half },
  );
}

function describeWidth(ms: number): string {
  if (ms % (7 * DAY_MS) === 0) return ms === 7 * DAY_MS ? 'week' : `${ms / (7 * DAY_MS)} weeks`;
  if (ms % DAY_MS === 0) return ms === DAY_MS ? 'day' : `${ms / DAY_MS} days`;
  if (ms % 3_600_000 === 0) return ms === 3_600_000 ? 'hour' : `${ms / 3_600_000} hours`;
  if (ms % 60_000 === 0) return ms === 60_000 ? 'minute' : `${ms / 60_000} minutes`;
  return ms === 1000 ? 'second' : `${ms / 1000} seconds`;
}
