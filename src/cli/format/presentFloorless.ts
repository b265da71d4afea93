/**
 * presentFloorless — scorers that judged with no floor, as JSON and as a report document.
 * Pure.
 */
import type { GateResult } from '../../analyze/evaluateGates.js';
import type { FloorlessReport } from '../../analyze/findFloorlessScorers.js';
import { tone, type Block, type ReportDocument } from './document.js';
import { formatCount, formatName, formatPercent, formatScore } from './formatValues.js';
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
      tone(`${formatCount(r.floorlessDecisions)} of ${formatCount(r.decisions)} decisions`, 'warn'),
      ' were judged with no floor: those scorers can never answer "unmatched".',
    ],
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
        sf === null ? '—' : formatScore(sf.floor),
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
  return [
    { kind: 'title', text: 'routescope floorless — scorers that cannot say "no match"' },
    ...floorlessBlocks(v.report, 'Floorless scorers'),
    ...gateBlocks(v.gates),
    ...inputBlocks(v.input),
  ];
}
