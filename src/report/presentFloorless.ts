/**
 * presentFloorless — scorers that judged with no floor, as JSON and as a report document.
 *
 * The document is what text, Markdown and HTML render; the page adds the key figures, the floorless
 * decisions per scorer as bars, and for each scorer its top-score percentiles with the floor to declare
 * marked. Pure.
 */
import type { GateResult } from '../analyze/evaluateGates.js';
import {
  MIN_FLOOR_SAMPLE,
  type FloorlessReport,
  type FloorlessScorer,
} from '../analyze/findFloorlessScorers.js';
import { tone, type Block, type ReportDocument } from './document.js';
import { CHART_COLORS } from './palette.js';
import { countOf, formatCount, formatName, formatPercent, formatScore } from './formatValues.js';
import { gateBlocks, gatesToJson } from './presentGates.js';
import { inputBlocks, inputToJson, type InputSummary } from './presentInput.js';

/** What `routescope floorless` prints. */
export interface FloorlessView {
  readonly report: FloorlessReport;
  readonly input: InputSummary;
  readonly gates: readonly GateResult[];
}

/** The JSON document of `routescope floorless`. */
export function floorlessToJson(v: FloorlessView, schemaVersion: number): Record<string, unknown> {
  const r = v.report;
  return {
    schemaVersion,
    command: 'floorless',
    weakestPercent: r.weakestPercent,
    decisions: r.decisions,
    floorlessDecisions: r.floorlessDecisions,
    floorless: r.floorless,
    droppedDecisions: r.droppedDecisions,
    input: inputToJson(v.input),
    gates: gatesToJson(v.gates),
  };
}

/** The floorless table (shared with `analyze`). */
export function floorlessBlocks(r: FloorlessReport, heading: string): Block[] {
  const blocks: Block[] = [{ kind: 'heading', text: heading }];
  if (r.floorless.length === 0) {
    blocks.push({ kind: 'paragraph', text: tone('No decision was judged without a floor.', 'good') });
    return blocks;
  }
  blocks.push({
    kind: 'paragraph',
    text: [
      tone(`${formatCount(r.floorlessDecisions)} of ${countOf(r.decisions, 'decision')}`, 'warn'),
      ' were judged with no floor: those scorers can never answer "unmatched".',
    ],
  });
  blocks.push({
    kind: 'chart',
    chart: {
      type: 'bars',
      data: r.floorless.slice(0, 15).map((f) => ({
        label: scorerLabel(f),
        value: f.decisions,
        color: CHART_COLORS.threshold,
        note: `(near-tie rate ${formatPercent(f.nearTieRate)})`,
      })),
      options: { title: `${heading}: decisions judged with no floor`, width: 1100 },
    },
  });
  blocks.push({
    kind: 'table',
    columns: [
      { title: 'router' },
      { title: 'scorer' },
      { title: 'decisions', align: 'right' },
      { title: 'top score min', align: 'right' },
      { title: 'p10', align: 'right' },
      { title: 'p25', align: 'right' },
      { title: 'median', align: 'right' },
      { title: 'p75', align: 'right' },
      { title: 'p90', align: 'right' },
      { title: 'max', align: 'right' },
      { title: `floor for weakest ${r.weakestPercent}%`, align: 'right' },
      { title: 'unmatched under it', align: 'right' },
    ],
    legend: [
      ['top score …', "each decision's best raw score: the lowest, nearest-rank percentiles, the highest"],
      [
        `floor for weakest ${r.weakestPercent}%`,
        'a floor to declare: the top score at or below which that share of decisions falls',
      ],
      [
        'unmatched under it',
        'decisions (and share) that floor makes unmatched: top score at or below it; "sampled" when estimated',
      ],
      ...(r.floorless.some((f) => f.suggestedFloor?.tiny === true)
        ? [
            [
              'tiny sample',
              `fewer than ${MIN_FLOOR_SAMPLE} decisions: the floor is a guess from a handful, not one to declare yet`,
            ] as const,
          ]
        : []),
    ],
    rows: r.floorless.map((f) => {
      const t = f.topScores;
      const sf = f.suggestedFloor;
      return [
        formatName(f.router),
        formatName(f.scorer),
        formatCount(f.decisions),
        formatScore(t?.min),
        formatScore(t?.p10),
        formatScore(t?.p25),
        formatScore(t?.median),
        formatScore(t?.p75),
        formatScore(t?.p90),
        formatScore(t?.max),
        sf === null
          ? '—'
          : sf.tiny
            ? [formatScore(sf.floor), tone(' tiny sample', 'warn')]
            : formatScore(sf.floor),
        sf === null
          ? '—'
          : `${formatCount(sf.wouldBeUnmatched)} (${formatPercent(sf.share)}${sf.exact ? '' : ', sampled'})`,
      ];
    }),
  });
  return blocks;
}

/** The document of `routescope floorless`. */
export function floorlessToDocument(v: FloorlessView): ReportDocument {
  const r = v.report;
  return [
    { kind: 'title', text: 'routescope floorless — scorers that cannot say "no match"' },
    {
      kind: 'paragraph',
      only: 'html',
      text: `Scorers that judged with no floor can never answer "unmatched"; the floor to declare is the top score at or below which their weakest ${r.weakestPercent}% of decisions fall.`,
    },
    {
      kind: 'figures',
      only: 'html',
      items: [
        { label: 'decisions', value: formatCount(r.decisions) },
        {
          label: 'judged with no floor',
          value: formatCount(r.floorlessDecisions),
          tone: r.floorlessDecisions > 0 ? 'warn' : 'good',
        },
        { label: 'floorless scorers', value: formatCount(r.floorless.length) },
      ],
    },
    ...floorlessBlocks(r, 'Floorless scorers'),
    ...suggestedFloorCharts(r),
    ...gateBlocks(v.gates),
    ...inputBlocks(v.input),
  ];
}

function scorerLabel(f: FloorlessScorer): string {
  return `${formatName(f.router)} / ${formatName(f.scorer)}`;
}

/** Scorers whose top scores get a chart of their own on the page. */
const MAX_FLOOR_CHARTS = 6;

/** Per floorless scorer, its top-score percentiles as ranked bars with the suggested floor marked (page only). */
function suggestedFloorCharts(r: FloorlessReport): Block[] {
  const shown = r.floorless.filter((f) => f.topScores !== null).slice(0, MAX_FLOOR_CHARTS);
  if (shown.length === 0) return [];
  return shown.flatMap((f): Block[] => {
    const t = f.topScores!;
    const sf = f.suggestedFloor;
    return [
      { kind: 'heading', text: `Top scores — ${scorerLabel(f)}`, half: true, only: 'html' },
      {
        kind: 'paragraph',
        only: 'html',
        text:
          sf === null
            ? "Each decision's best raw score, by percentile."
            : `Each decision's best raw score, by percentile; the floor ${formatScore(sf.floor)} makes the weakest ${r.weakestPercent}% unmatched.`,
      },
      {
        kind: 'chart',
        only: 'html',
        chart: {
          type: 'ranked',
          data: (
            [
              ['max', t.max],
              ['p90', t.p90],
              ['p75', t.p75],
              ['median', t.median],
              ['p25', t.p25],
              ['p10', t.p10],
              ['min', t.min],
            ] as const
          ).map(([label, value]) => ({ label, value, color: CHART_COLORS.top })),
          options: {
            title: `Top scores — ${scorerLabel(f)}`,
            width: 560,
            valueFormat: formatScore,
            ...(sf === null
              ? {}
              : {
                  marks: [
                    {
                      value: sf.floor,
                      label: 'floor',
                      valueText: formatScore(sf.floor),
                      color: CHART_COLORS.threshold,
                    },
                  ],
                }),
          },
        },
      },
    ];
  });
}
