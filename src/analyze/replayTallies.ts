/**
 * replayTallies — the accumulators `replay` feeds each replayed decision to: one side of the comparison, the
 * flip matrix with its named flows, the per-scorer floor table and the list of flipped decisions.
 *
 * Each keeps bounded state (counters, a table capped at a number of router/scorer rows, a list capped at a
 * length), so replay streams any number of decisions. Pure.
 */
import type { Tier2VerdictKind } from '../policy/types.js';
import type { DecisionRecord } from '../record/types.js';
import type { ReplayedDecision } from './replayDecision.js';
import type { FlipMatrix, FlippedDecision, ReplaySide, ScorerFloorChange } from './replayReport.js';
import { locate, type DecisionLocation } from './summarizeDecisions.js';
import { VERDICT_KINDS, createVerdictCounts, type RateCounter } from './verdictCounts.js';
import { groupKey } from './groupKey.js';

/** One side of the comparison (recorded or replayed), from its counter: the rates replay reports. */
export function replaySide(counter: RateCounter): ReplaySide {
  const { decisions, verdicts, nearTies, nearTieRate, menuRate } = counter.toRates();
  return { decisions, verdicts, nearTies, nearTieRate, menuRate };
}

/** A zeroed flip matrix. */
export function createFlipMatrix(): FlipMatrix {
  const m = {} as FlipMatrix;
  for (const from of VERDICT_KINDS) {
    m[from] = createVerdictCounts();
  }
  return m;
}

/** How verdicts moved: recorded → replayed, and the flows the report names. */
export class FlipTally {
  readonly flips = createFlipMatrix();
  moveToMenu = 0;
  menuToMove = 0;
  /** Menus that stayed menus but offer a different list. */
  menuChanged = 0;

  /** Count one decision's recorded and replayed verdicts. */
  add(d: DecisionRecord, outcome: ReplayedDecision): void {
    this.flips[d.verdict][outcome.verdict]++;
    if (d.verdict === 'move' && outcome.verdict === 'menu') this.moveToMenu++;
    if (d.verdict === 'menu' && outcome.verdict === 'move') this.menuToMove++;
    if (d.verdict === 'menu' && outcome.verdict === 'menu' && !sameList(d.offered, outcome.offered))
      this.menuChanged++;
  }

  /** Decisions whose verdict kind changed: the off-diagonal of the matrix. */
  flipped(): number {
    let flippedCount = 0;
    for (const from of VERDICT_KINDS) {
      for (const to of VERDICT_KINDS) if (from !== to) flippedCount += this.flips[from][to];
    }
    return flippedCount;
  }
}

type ScorerRow = { -readonly [K in keyof ScorerFloorChange]: ScorerFloorChange[K] };

/** Floors and `unmatched` per router/scorer, recorded and replayed; past `max` rows the rest is pooled. */
export class ScorerFloorTable {
  private readonly scorers = new Map<string, ScorerRow>();
  private pooled: ScorerFloorChange | undefined;

  constructor(private readonly max: number) {}

  /** Count one decision in its router/scorer's row. */
  add(d: DecisionRecord, outcome: ReplayedDecision): void {
    const row = this.rowOf(d);
    row.decisions++;
    if (d.floorDeclared || d.effectiveFloor !== undefined) row.flooredBefore++;
    if (outcome.effectiveFloor !== undefined) row.flooredAfter++;
    if (d.verdict === 'unmatched') row.unmatchedBefore++;
    if (outcome.verdict === 'unmatched') row.unmatchedAfter++;
  }

  /** The rows, most decisions first (then by router, then by scorer), the pooled row last. */
  toRows(): ScorerFloorChange[] {
    const rows = [...this.scorers.values()].map((r) => ({ ...r }));
    rows.sort(
      (a, b) =>
        b.decisions - a.decisions || compareName(a.router, b.router) || compareName(a.scorer, b.scorer),
    );
    if (this.pooled !== undefined) rows.push({ ...this.pooled });
    return rows;
  }

  private rowOf(d: DecisionRecord): ScorerRow {
    const key = groupKey(d.router, d.scorer);
    let row = this.scorers.get(key);
    if (row === undefined) {
      const fresh = {
        router: d.router ?? null,
        scorer: d.scorer ?? null,
        decisions: 0,
        flooredBefore: 0,
        flooredAfter: 0,
        unmatchedBefore: 0,
        unmatchedAfter: 0,
      };
      if (this.scorers.size >= this.max) {
        this.pooled ??= { ...fresh, router: null, scorer: '(other)' };
        return this.pooled as typeof fresh;
      }
      row = fresh;
      this.scorers.set(key, row);
    }
    return row;
  }
}

/** Decisions the record cannot decide, with the first `maxExamples` of them and why. */
export class UndecidableTally {
  count = 0;
  readonly examples: { at: DecisionLocation; reason: string }[] = [];

  constructor(private readonly maxExamples: number) {}

  /** Count one undecidable decision. */
  add(d: DecisionRecord, reason: string): void {
    this.count++;
    if (this.examples.length < this.maxExamples) {
      this.examples.push({ at: locate(d), reason });
    }
  }
}

/** The flipped decisions in input order, up to `limit`. */
export class FlippedList {
  readonly list: FlippedDecision[] = [];

  constructor(private readonly limit: number) {}

  /** List the decision if its verdict kind changed and there is room. */
  add(d: DecisionRecord, outcome: ReplayedDecision): void {
    if (d.verdict !== outcome.verdict && this.list.length < this.limit) this.list.push(toFlipped(d, outcome));
  }
}

function toFlipped(d: DecisionRecord, outcome: ReplayedDecision): FlippedDecision {
  const fromDetail = detail(d.verdict, d.to, d.offered);
  const toDetail = detail(outcome.verdict, outcome.to, outcome.offered);
  const gap = d.runnerUp?.gap;
  return {
    ...locate(d),
    ...(d.conversationId === undefined ? {} : { conversationId: d.conversationId }),
    timeUnixMs: d.timeUnixMs,
    from: d.verdict,
    to: outcome.verdict,
    ...(fromDetail === undefined ? {} : { fromDetail }),
    ...(toDetail === undefined ? {} : { toDetail }),
    ...(gap === undefined ? {} : { gap }),
  };
}

/**
 * Names in code-point order, a missing name last: the same on every machine whatever its locale, as flapping
 * and summarize order theirs. (Compared one field at a time, so a name that prefixes another sorts first.)
 */
function compareName(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

function detail(
  kind: Tier2VerdictKind,
  to: string | undefined,
  offered: readonly string[] | undefined,
): string | undefined {
  if (kind === 'move') return to;
  if (kind === 'menu' && offered !== undefined) return offered.join(', ');
  return undefined;
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  // Stryker disable next-line ConditionalExpression: equivalent — b is a replayed menu's list, never undefined, so `b === undefined` and `a === b` only ever answer false.
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
