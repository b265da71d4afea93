/**
 * tuneMarginGrid — the margin sweep's one pass: each decision judged at margin 0 and at an infinite margin,
 * and counted in the grid bin its runner-up's gap falls in.
 *
 * A margin only decides whether a decision ties (gap < margin), so at every swept margin a decision has its
 * decisive verdict below its bin and its tied verdict from there on. Counting decisions by (decisive verdict,
 * tied verdict, bin) is therefore enough to draw the whole curve (tuneCurve), without replaying any decision
 * at every margin. Memory: one row of bins per pair of verdicts. Pure.
 */
import type { PolicySemantics } from '../policy/types.js';
import type { DecisionRecord } from '../record/types.js';
import { replayDecision } from './replayDecision.js';
import { buildCurve, firstAbove, type Swept, type TunePoint } from './tuneCurve.js';

/** A decision reduced to its two verdicts and its gap bin; undefined when the record cannot decide it. */
export function sweepDecision(
  d: DecisionRecord,
  semantics: PolicySemantics,
  margins: readonly number[],
): Swept | undefined {
  const K = margins.length;
  const atZero = replayDecision(d, { nearTieMargin: 0 }, semantics);
  if (atZero.kind !== 'replayed') return undefined;
  // Without a runner-up, or with a categorical scorer, no margin can make it tie: one replay is enough.
  // Stryker disable next-line BooleanLiteral,StringLiteral,BlockStatement: equivalent — a shortcut: without a runner-up the replay at an infinite margin finds no tie either.
  if (atZero.runnerUp === undefined && !atZero.undecided.includes('runner-up')) {
    return { decisive: atZero.verdict, tied: atZero.verdict, bin: K };
  }
  if (atZero.scorerTraits.categorical === true)
    return { decisive: atZero.verdict, tied: atZero.verdict, bin: K };
  const atInf = replayDecision(d, { nearTieMargin: Infinity }, semantics);
  if (atInf.kind !== 'replayed') return undefined;
  // Stryker disable next-line ObjectLiteral: equivalent — unreachable: at an infinite margin a decision with a runner-up and a non-categorical scorer is always a near-tie.
  if (!atInf.nearTie) return { decisive: atZero.verdict, tied: atZero.verdict, bin: K };
  // Stryker disable next-line OptionalChaining: equivalent — the runner-up is present here (checked above).
  const gap = atZero.runnerUp?.gap;
  // Stryker disable next-line LogicalOperator: equivalent — the gap of a near-tie's runner-up is a finite number.
  if (gap === undefined || Number.isNaN(gap)) return undefined;
  return { decisive: atZero.verdict, tied: atInf.verdict, bin: firstAbove(margins, gap) };
}

/** Swept decisions counted by decisive verdict, tied verdict and gap bin, over one grid of margins. */
export class MarginGrid {
  /** 'decisive/tied' → count per bin; bin K (the grid's length) = never ties within the sweep. */
  private readonly counts = new Map<string, number[]>();

  constructor(private readonly margins: readonly number[]) {}

  /** Count one swept decision. */
  add(swept: Swept): void {
    const key = `${swept.decisive}/${swept.tied}`;
    let bins = this.counts.get(key);
    if (bins === undefined) {
      bins = new Array<number>(this.margins.length + 1).fill(0);
      this.counts.set(key, bins);
    }
    bins[swept.bin]!++;
  }

  /** The rates at each margin over `decisions`, with the misroutes caught when `marked` is given. */
  curve(decisions: number, marked: readonly Swept[] | undefined): TunePoint[] {
    return buildCurve(this.margins, this.counts, decisions, marked);
  }
}
