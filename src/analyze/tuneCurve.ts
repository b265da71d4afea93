/**
 * tuneCurve — the margin sweep's curve, its recommendation and what misroute marks say of it, from the grid
 * counts the streaming tune analysis keeps. Pure.
 */
import type { Tier2VerdictKind } from '../policy/types.js';
import { createVerdictCounts, rateOf, type VerdictCounts } from './verdictCounts.js';

/** One point of the curve. */
export interface TunePoint {
  readonly margin: number;
  readonly verdicts: VerdictCounts;
  readonly nearTies: number;
  readonly nearTieRate: number;
  readonly menuRate: number;
  readonly moveRate: number;
  readonly stayRate: number;
  /** Known misroutes this margin would have turned into a menu (present when marks exist). */
  readonly misroutesCaught?: number;
}

/** The recommended margin and why. */
export interface TuneRecommendation {
  readonly margin: number;
  /** True when the margin meets every target; false = not even the narrowest swept margin does. */
  readonly meets: boolean;
  readonly reason: string;
  readonly point: TunePoint;
}

/** What the misroute marks say about the recommendation. */
export interface MisrouteCatch {
  /** Decisions marked misrouted (by an event on their span or a feedback span joined by trace). */
  readonly known: number;
  /** Feedback marks whose trace held no decision in the input (or one too old to join). */
  readonly unjoined: number;
  /** Of `known`, recorded as a menu. */
  readonly caughtRecorded: number;
  readonly shareRecorded: number;
  /** Of `known`, a menu under the recommended margin (absent without a recommendation). */
  readonly caughtRecommended?: number;
  readonly shareRecommended?: number;
}

/** A decision reduced to what the sweep needs: its verdict when decisive, when tied, and its gap bin. */
export interface Swept {
  readonly decisive: Tier2VerdictKind;
  readonly tied: Tier2VerdictKind;
  /** First grid index whose margin exceeds the gap (the decision ties from there on); grid length = never. */
  readonly bin: number;
}

/** The first index whose margin is strictly above `gap` (a gap ties under margin m iff gap < m). */
export function firstAbove(margins: readonly number[], gap: number): number {
  let lo = 0;
  let hi = margins.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (margins[mid]! > gap) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The rates at each swept margin, from each decision's decisive and tied verdicts counted by gap bin. */
export function buildCurve(
  margins: readonly number[],
  counts: ReadonlyMap<string, number[]>,
  decisions: number,
  marked: readonly Swept[] | undefined,
): TunePoint[] {
  const totals = new Map<string, number>();
  for (const [key, bins] of counts)
    totals.set(
      key,
      bins.reduce((a, b) => a + b, 0),
    );
  const running = new Map<string, number>([...counts.keys()].map((k) => [k, 0]));
  return margins.map((margin, k) => {
    const verdicts = createVerdictCounts();
    let nearTies = 0;
    for (const [key, bins] of counts) {
      // Bin K (never ties within the sweep) is never reached here, since k < K.
      const tied = running.get(key)! + bins[k]!;
      running.set(key, tied);
      const [decisive, tiedKind] = key.split('/') as [Tier2VerdictKind, Tier2VerdictKind];
      verdicts[tiedKind] += tied;
      verdicts[decisive] += totals.get(key)! - tied;
      nearTies += tied;
    }
    const point: TunePoint = {
      margin,
      verdicts,
      nearTies,
      nearTieRate: rateOf(nearTies, decisions),
      menuRate: rateOf(verdicts.menu, decisions),
      moveRate: rateOf(verdicts.move, decisions),
      stayRate: rateOf(verdicts.stay, decisions),
      ...(marked === undefined
        ? {}
        : { misroutesCaught: marked.filter((m) => m.bin <= k && m.tied === 'menu').length }),
    };
    return point;
  });
}

/** The widest swept margin that meets every target, or the narrowest when none does. */
export function recommend(
  curve: readonly TunePoint[],
  cfg: { readonly targetMenuRate?: number; readonly targetNearTieRate?: number },
): TuneRecommendation | undefined {
  const tm = cfg.targetMenuRate;
  const tn = cfg.targetNearTieRate;
  if (tm === undefined && tn === undefined) return undefined;
  const meets = (p: TunePoint): boolean =>
    (tm === undefined || p.menuRate <= tm) && (tn === undefined || p.nearTieRate <= tn);
  const target = [
    tm === undefined ? undefined : `menu rate <= ${tm}`,
    tn === undefined ? undefined : `near-tie rate <= ${tn}`,
  ]
    .filter((x) => x !== undefined)
    .join(' and ');
  let best: TunePoint | undefined;
  for (const p of curve) if (meets(p)) best = p;
  if (best === undefined) {
    const first = curve[0]!;
    return {
      margin: first.margin,
      meets: false,
      reason: `no swept margin meets ${target}; the narrowest, ${first.margin}, comes closest`,
      point: first,
    };
  }
  const last = curve[curve.length - 1]!;
  const reason =
    best === last
      ? `the widest swept margin meets ${target}; a wider sweep (--to) may allow more`
      : `the widest margin that meets ${target}; one step wider would not`;
  return { margin: best.margin, meets: true, reason, point: best };
}

/** How many known misroutes were a menu as recorded, and would be under the recommended margin. */
export function summarizeMisroutes(
  marked: readonly Swept[],
  caughtRecorded: number,
  unjoined: number,
  rec: TuneRecommendation | undefined,
  margins: readonly number[],
): MisrouteCatch {
  const known = marked.length;
  const base = {
    known,
    unjoined,
    caughtRecorded,
    shareRecorded: rateOf(caughtRecorded, known),
  };
  if (rec === undefined) return base;
  const k = margins.indexOf(rec.margin);
  const caught = marked.filter((m) => m.bin <= k && m.tied === 'menu').length;
  return { ...base, caughtRecommended: caught, shareRecommended: rateOf(caught, known) };
}
