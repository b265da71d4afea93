/**
 * replay — what every recorded decision would have been under other thresholds, and the consistency audit.
 *
 * Each decision carries its raw scores and the thresholds that judged it, so no labels are needed to ask
 * "what if the margin were 0.1?": every decision is judged again with replayDecision and the report counts
 * how verdicts move (a flip matrix, diagonal included), how the near-tie rate changes, which scorers could
 * now say "no match", and lists flipped decisions on request. Every decision is also replayed under its own
 * recorded thresholds: a difference there is not a what-if but a finding (version skew or a bug), reported
 * apart. Each decision is judged by the behaviour its service runs (`policy`, see policyAudit): the what-if by
 * what the service has shown so far, the audit settled at the end. Streaming: counters, a per-scorer table and
 * capped lists only. Pure. No I/O.
 */
import type { PolicySemantics, Tier2VerdictKind } from '../policy/types.js';
import type { DecisionRecord, TraceRecord } from '../record/types.js';
import { describeFilter, matchesFilter, type DecisionFilter } from './filterDecisions.js';
import { createPolicyAudit, type PolicyChoice, type ServiceBehaviour } from './policyAudit.js';
import { replayDecision, type ReplayThresholds } from './replayDecision.js';
import { locate, type DecisionLocation } from './summarizeDecisions.js';
import {
  VERDICT_KINDS,
  createVerdictCounts,
  isRecordedNearTie,
  rateOf,
  type VerdictCounts,
} from './verdictCounts.js';
import { resolveConfig } from './resolveConfig.js';
import { groupKey } from './groupKey.js';

/** What to replay and what to keep. */
export interface ReplayConfig {
  /** The thresholds to judge with; absent ones keep each decision's recorded value. @default {} */
  readonly thresholds: ReplayThresholds;
  /** Which decisions to replay. @default {} (all) */
  readonly where: DecisionFilter;
  /** Flipped decisions listed (0 = none, counts only). @default 0 */
  readonly listLimit: number;
  /** Examples kept of inconsistent and undecidable decisions. @default 20 */
  readonly maxExamples: number;
  /** Distinct router/scorer rows kept in the per-scorer table; the rest pooled. @default 1000 */
  readonly maxScorers: number;
  /** Which behaviour judges (`--policy`). @default 'auto' */
  readonly policy: PolicyChoice;
}

/** The defaults `createReplayAnalysis` fills in. */
export const DEFAULT_REPLAY_CONFIG: ReplayConfig = Object.freeze({
  thresholds: {},
  where: {},
  listLimit: 0,
  maxExamples: 20,
  maxScorers: 1000,
  policy: 'auto',
});

/** One side of the comparison, with the same meaning as in `analyze`. */
export interface ReplaySide {
  readonly decisions: number;
  readonly verdicts: VerdictCounts;
  readonly nearTies: number;
  /** nearTies / decisions. */
  readonly nearTieRate: number;
  /** menu / decisions. */
  readonly menuRate: number;
}

/** recorded verdict → replayed verdict → count, every cell present. */
export type FlipMatrix = Record<Tier2VerdictKind, Record<Tier2VerdictKind, number>>;

/** One decision whose verdict kind changed. */
export interface FlippedDecision extends DecisionLocation {
  readonly conversationId?: string;
  readonly timeUnixMs: number;
  readonly from: Tier2VerdictKind;
  readonly to: Tier2VerdictKind;
  /** The move target or the menu, before and after, when there is one. */
  readonly fromDetail?: string;
  readonly toDetail?: string;
  readonly gap?: number;
}

/** Floors and `unmatched` per router/scorer, before and after. */
export interface ScorerFloorChange {
  readonly router: string | null;
  readonly scorer: string | null;
  readonly decisions: number;
  /** Decisions judged with some floor (unmatched reachable), recorded and replayed. */
  readonly flooredBefore: number;
  readonly flooredAfter: number;
  readonly unmatchedBefore: number;
  readonly unmatchedAfter: number;
}

/** A decision the audit could not reproduce. */
export interface InconsistentDecision {
  readonly at: DecisionLocation;
  readonly differences: readonly string[];
  /** The behaviour that judged it. */
  readonly semantics: PolicySemantics;
}

/** The replay report (`--format json` serializes it; see docs/json-output.md). */
export interface ReplayReport {
  readonly kind: 'replay';
  /** The thresholds that were changed (absent = kept as recorded; floor null = no floor). */
  readonly thresholds: ReplayThresholds;
  readonly where: DecisionFilter;
  /** `where` as text. */
  readonly selection: string;
  /** Decisions the filter excluded. */
  readonly excluded: number;
  /** Decisions the record cannot decide (candidates omitted where they matter); in neither side. */
  readonly undecidable: number;
  readonly undecidableExamples: readonly { readonly at: DecisionLocation; readonly reason: string }[];
  /** Replayed from a record with omitted candidates (the verdict is still exact; see replayDecision). */
  readonly partial: number;
  /** Recorded verdicts of the replayed decisions. */
  readonly before: ReplaySide;
  /** Replayed verdicts. */
  readonly after: ReplaySide;
  readonly flips: FlipMatrix;
  /** Decisions whose verdict kind changed (the off-diagonal of `flips`). */
  readonly flipped: number;
  readonly moveToMenu: number;
  readonly menuToMove: number;
  /** Menus that stayed menus but offer a different list. */
  readonly menuChanged: number;
  /** Per router/scorer: where `unmatched` becomes reachable (or unreachable). */
  readonly scorers: readonly ScorerFloorChange[];
  /** Scorers that judged some decisions with no floor and now have one: `unmatched` newly reachable. */
  readonly unmatchedNowReachable: readonly {
    readonly router: string | null;
    readonly scorer: string | null;
  }[];
  /** `--policy` and, per service, the behaviour that judged its decisions. */
  readonly policy: { readonly choice: PolicyChoice; readonly services: readonly ServiceBehaviour[] };
  /** The audit: each decision replayed under its recorded thresholds. */
  readonly consistency: {
    readonly audited: number;
    readonly inconsistent: number;
    readonly examples: readonly InconsistentDecision[];
  };
  /** Flipped decisions, in input order, up to `listLimit`. */
  readonly list: readonly FlippedDecision[];
}

/** A streaming replay: feed records, then `finish()` once. */
export interface ReplayAnalysis {
  add(record: TraceRecord): void;
  finish(): ReplayReport;
}

class SideCounter {
  decisions = 0;
  nearTies = 0;
  readonly verdicts = createVerdictCounts();
  add(kind: Tier2VerdictKind, nearTie: boolean): void {
    this.decisions++;
    this.verdicts[kind]++;
    if (nearTie) this.nearTies++;
  }
  toSide(): ReplaySide {
    return {
      decisions: this.decisions,
      verdicts: { ...this.verdicts },
      nearTies: this.nearTies,
      nearTieRate: rateOf(this.nearTies, this.decisions),
      menuRate: rateOf(this.verdicts.menu, this.decisions),
    };
  }
}

/** A zeroed flip matrix. */
export function createFlipMatrix(): FlipMatrix {
  const m = {} as FlipMatrix;
  for (const from of VERDICT_KINDS) {
    m[from] = createVerdictCounts();
  }
  return m;
}

/** Start a streaming replay. */
export function createReplayAnalysis(config: Partial<ReplayConfig> = {}): ReplayAnalysis {
  const cfg: ReplayConfig = resolveConfig(DEFAULT_REPLAY_CONFIG, config);
  const before = new SideCounter();
  const after = new SideCounter();
  const flips = createFlipMatrix();
  const scorers = new Map<
    string,
    ScorerFloorChange & { -readonly [K in keyof ScorerFloorChange]: ScorerFloorChange[K] }
  >();
  let pooled: ScorerFloorChange | undefined;
  const list: FlippedDecision[] = [];
  const undecidableExamples: { at: DecisionLocation; reason: string }[] = [];
  const audit = createPolicyAudit(cfg.policy, { maxExamples: cfg.maxExamples });
  let excluded = 0;
  let undecidable = 0;
  let partial = 0;
  let moveToMenu = 0;
  let menuToMove = 0;
  let menuChanged = 0;
  let finished = false;

  const scorerRow = (
    d: DecisionRecord,
  ): { -readonly [K in keyof ScorerFloorChange]: ScorerFloorChange[K] } => {
    const key = groupKey(d.router, d.scorer);
    let row = scorers.get(key);
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
      if (scorers.size >= cfg.maxScorers) {
        pooled ??= { ...fresh, router: null, scorer: '(other)' };
        return pooled as typeof fresh;
      }
      row = fresh;
      scorers.set(key, row);
    }
    return row;
  };

  const addDecision = (d: DecisionRecord): void => {
    if (!matchesFilter(d, cfg.where)) {
      excluded++;
      return;
    }
    const { semantics } = audit.add(d);
    const outcome = replayDecision(d, cfg.thresholds, semantics);
    if (outcome.kind === 'undecidable') {
      undecidable++;
      if (undecidableExamples.length < cfg.maxExamples) {
        undecidableExamples.push({ at: locate(d), reason: outcome.reason });
      }
      return;
    }
    if (!outcome.complete) partial++;
    before.add(d.verdict, isRecordedNearTie(d));
    after.add(outcome.verdict, outcome.nearTie);
    flips[d.verdict][outcome.verdict]++;

    const row = scorerRow(d);
    row.decisions++;
    if (d.floorDeclared || d.effectiveFloor !== undefined) row.flooredBefore++;
    if (outcome.effectiveFloor !== undefined) row.flooredAfter++;
    if (d.verdict === 'unmatched') row.unmatchedBefore++;
    if (outcome.verdict === 'unmatched') row.unmatchedAfter++;

    if (d.verdict === 'move' && outcome.verdict === 'menu') moveToMenu++;
    if (d.verdict === 'menu' && outcome.verdict === 'move') menuToMove++;
    if (d.verdict === 'menu' && outcome.verdict === 'menu' && !sameList(d.offered, outcome.offered))
      menuChanged++;
    if (d.verdict !== outcome.verdict && list.length < cfg.listLimit) {
      const fromDetail = detail(d.verdict, d.to, d.offered);
      const toDetail = detail(outcome.verdict, outcome.to, outcome.offered);
      const gap = d.runnerUp?.gap;
      list.push({
        ...locate(d),
        ...(d.conversationId === undefined ? {} : { conversationId: d.conversationId }),
        timeUnixMs: d.timeUnixMs,
        from: d.verdict,
        to: outcome.verdict,
        ...(fromDetail === undefined ? {} : { fromDetail }),
        ...(toDetail === undefined ? {} : { toDetail }),
        ...(gap === undefined ? {} : { gap }),
      });
    }
  };

  return {
    add(record: TraceRecord): void {
      if (finished) throw new Error('replay: add() after finish()');
      if (record.kind === 'decision') addDecision(record);
    },
    finish(): ReplayReport {
      if (finished) throw new Error('replay: finish() called twice');
      finished = true;
      const settled = audit.finish();
      const rows = [...scorers.values()].map((r) => ({ ...r }));
      rows.sort(
        (a, b) =>
          b.decisions - a.decisions || compareName(a.router, b.router) || compareName(a.scorer, b.scorer),
      );
      if (pooled !== undefined) rows.push({ ...pooled });
      let flippedCount = 0;
      for (const from of VERDICT_KINDS) {
        for (const to of VERDICT_KINDS) if (from !== to) flippedCount += flips[from][to];
      }
      return {
        kind: 'replay',
        thresholds: { ...cfg.thresholds },
        where: cfg.where,
        selection: describeFilter(cfg.where),
        excluded,
        undecidable,
        undecidableExamples,
        partial,
        before: before.toSide(),
        after: after.toSide(),
        flips,
        flipped: flippedCount,
        moveToMenu,
        menuToMove,
        menuChanged,
        scorers: rows,
        unmatchedNowReachable: rows
          .filter((r) => r.flooredAfter > r.flooredBefore)
          .map((r) => ({ router: r.router, scorer: r.scorer })),
        policy: { choice: settled.choice, services: settled.services },
        consistency: {
          audited: settled.audited,
          inconsistent: settled.inconsistent,
          examples: settled.examples.map((f) => ({
            at: locate(f.record),
            differences: f.differences,
            semantics: f.semantics,
          })),
        },
        list,
      };
    },
  };
}

/** Replay a finite collection of records (the streaming analysis, run to the end). */
export function replayDecisions(
  records: Iterable<TraceRecord>,
  config: Partial<ReplayConfig> = {},
): ReplayReport {
  const analysis = createReplayAnalysis(config);
  for (const r of records) analysis.add(r);
  return analysis.finish();
}

/** Names in locale order, a missing name last. (Compared one field at a time: localeCompare ignores a NUL.) */
function compareName(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a.localeCompare(b);
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
