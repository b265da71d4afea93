/**
 * findCounterfactuals — the smallest change of margin or of floor that would have changed one verdict.
 *
 * A post-mortem wants "what would it have taken": the margin only matters through `gap >= margin`, so its
 * critical value is the recorded gap itself (raise the margin just above it, or lower it to it); the floor
 * only matters through which candidates are strictly above it, so its critical values are the candidates'
 * own scores (a floor AT a score puts that candidate out; one just below lets it in). Each candidate value
 * is verified by replaying the decision with `decideTier2`; a change that replays to the same verdict is not
 * reported. "Changed" means another verdict kind or another move target — a menu that only loses a member is
 * the same decision. Only recorded candidates are considered when some were omitted. Every replay is judged
 * by one published behaviour (the contract by default). Pure.
 */
import { sanitizeScore } from '../policy/routingPolicy.js';
import type { PolicySemantics } from '../policy/types.js';
import type { RecordedDecision } from '../record/types.js';
import { formatScoreValue } from './formatFigures.js';
import {
  replayDecision,
  summarizeVerdict,
  type ReplayThresholds,
  type ReplayedDecision,
  type VerdictSummary,
} from './replayDecision.js';

/** A threshold change that changes the verdict, verified by replay. */
export type Counterfactual =
  | {
      readonly kind: 'margin';
      readonly direction: 'raise' | 'lower';
      readonly from: number;
      /** The margin the replay used: the gap itself (`at`) or the next number above it (`above`). */
      readonly to: number;
      readonly bound: 'at' | 'above';
      /** The gap the margin is compared with. */
      readonly gap: number;
      readonly result: VerdictSummary;
    }
  | {
      readonly kind: 'floor';
      /** `declare` = the decision had no floor at all. */
      readonly direction: 'raise' | 'lower' | 'declare';
      readonly from: number | null;
      /** The floor the replay used: the pivot's score (`at`) or the next number below it (`below`). */
      readonly to: number;
      readonly bound: 'at' | 'below';
      /** The candidate whose score is the critical value. */
      readonly pivot: { readonly id: string; readonly score: number };
      readonly result: VerdictSummary;
    };

/** Why no change of a threshold is reported. */
export interface NoCounterfactual {
  readonly kind: 'none';
  readonly parameter: 'margin' | 'floor';
  readonly reason: string;
}

/** The counterfactuals of one decision. */
export interface CounterfactualSet {
  /** The verdict under the recorded thresholds, as replayed (the baseline every change is compared with). */
  readonly baseline: VerdictSummary | null;
  readonly margin: Counterfactual | NoCounterfactual;
  /** The nearest raise (or declaration) and the nearest lowering of the floor that change the verdict. */
  readonly floor: readonly Counterfactual[];
  /** Set when a floor counterfactual exists in neither direction. */
  readonly noFloor?: NoCounterfactual;
  /** Set when candidates were omitted from the record. */
  readonly note?: string;
}

/** Find the margin and floor changes that would have changed `record`'s verdict, judged by `semantics`. */
export function findCounterfactuals(
  record: RecordedDecision,
  semantics: PolicySemantics = 'contract',
): CounterfactualSet {
  const tryReplay = (t: ReplayThresholds): VerdictSummary | undefined => {
    const r = replayDecision(record, t, semantics);
    return r.kind === 'replayed' ? summarizeVerdict(r) : undefined;
  };
  const base = replayDecision(record, {}, semantics);
  if (base.kind === 'undecidable') {
    const reason = `the record cannot be replayed: ${base.reason}`;
    return {
      baseline: null,
      margin: { kind: 'none', parameter: 'margin', reason },
      floor: [],
      noFloor: { kind: 'none', parameter: 'floor', reason },
    };
  }
  const baseline = summarizeVerdict(base);
  const note =
    record.omitted > 0
      ? `${record.omitted} candidates were omitted; only recorded ones are considered`
      : undefined;
  const floor = findFloorChanges(record, base, baseline, tryReplay);
  return {
    baseline,
    margin: findMarginChange(base, baseline, tryReplay),
    floor,
    ...(floor.length === 0
      ? { noFloor: { kind: 'none', parameter: 'floor', reason: 'no floor changes the verdict' } as const }
      : {}),
    ...(note === undefined ? {} : { note }),
  };
}

/** Do two verdicts differ as decisions (kind or move target)? */
export function verdictChanged(a: VerdictSummary, b: VerdictSummary): boolean {
  return a.verdict !== b.verdict || (a.verdict === 'move' && a.to !== b.to);
}

type TryReplay = (t: ReplayThresholds) => VerdictSummary | undefined;

function findMarginChange(
  base: ReplayedDecision,
  baseline: VerdictSummary,
  tryReplay: TryReplay,
): Counterfactual | NoCounterfactual {
  const none = (reason: string): NoCounterfactual => ({ kind: 'none', parameter: 'margin', reason });
  if (base.scorerTraits.categorical === true)
    return none('a categorical scorer is decisive whatever the margin');
  if (base.runnerUp === undefined) {
    return none('fewer than two candidates were alive, so the margin was never compared');
  }
  const gap = base.runnerUp.gap;
  const from = base.policy.nearTieMargin;
  if (!Number.isFinite(gap))
    return none(`the gap ${formatScoreValue(gap)} is not a number a margin can be compared with`);
  const raise = base.decisive;
  const to = raise ? nextUp(gap) : gap;
  const replay = tryReplay({ nearTieMargin: to });
  if (replay === undefined || !verdictChanged(baseline, replay)) {
    return none(
      raise
        ? `a margin above the gap ${formatScoreValue(gap)} makes it a near-tie, and the verdict stays ${baseline.verdict}`
        : `a margin at the gap ${formatScoreValue(gap)} makes it decisive, and the verdict stays ${baseline.verdict}`,
    );
  }
  return {
    kind: 'margin',
    direction: raise ? 'raise' : 'lower',
    from,
    to,
    bound: raise ? 'above' : 'at',
    gap,
    result: replay,
  };
}

function findFloorChanges(
  record: RecordedDecision,
  base: ReplayedDecision,
  baseline: VerdictSummary,
  tryReplay: TryReplay,
): Counterfactual[] {
  const current = base.effectiveFloor;
  // Distinct finite scores with the first (best-ranked) candidate holding each.
  const pivots = new Map<number, string>();
  for (const c of record.ranked) {
    const s = sanitizeScore(c.score);
    if (s !== -Infinity && !pivots.has(s)) pivots.set(s, c.id);
  }
  const ascending = [...pivots.keys()].sort((a, b) => a - b);
  const out: Counterfactual[] = [];

  // Raise (or declare): a floor AT a live score puts that candidate and every lower one out.
  for (const s of ascending) {
    if (current !== undefined && !(s > current)) continue;
    const replay = tryReplay({ floor: s });
    if (replay !== undefined && verdictChanged(baseline, replay)) {
      out.push({
        kind: 'floor',
        direction: current === undefined ? 'declare' : 'raise',
        from: current ?? null,
        to: s,
        bound: 'at',
        pivot: { id: pivots.get(s)!, score: s },
        result: replay,
      });
      break;
    }
  }
  // Lower: a floor just below a dead score lets that candidate (and every higher one) back in.
  if (current !== undefined) {
    for (let i = ascending.length - 1; i >= 0; i--) {
      const s = ascending[i]!;
      if (s > current) continue;
      const to = nextDown(s);
      const replay = tryReplay({ floor: to });
      if (replay !== undefined && verdictChanged(baseline, replay)) {
        out.push({
          kind: 'floor',
          direction: 'lower',
          from: current,
          to,
          bound: 'below',
          pivot: { id: pivots.get(s)!, score: s },
          result: replay,
        });
        break;
      }
    }
  }
  return out;
}

const scratch = new Float64Array(1);
const scratchBits = new BigInt64Array(scratch.buffer);

/** The smallest double above `x` (x itself for NaN and +Infinity). */
export function nextUp(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === 0) return Number.MIN_VALUE;
  scratch[0] = x;
  scratchBits[0] = scratchBits[0]! + (x > 0 ? 1n : -1n);
  return scratch[0];
}

/** The largest double below `x`. */
export function nextDown(x: number): number {
  return -nextUp(-x);
}
