/**
 * replayDecision — judge one recorded decision again with the project's policy, on its recorded numbers.
 *
 * Every decision carries its raw scores and the thresholds that judged it, so `decideTier2` can be run again:
 * under the recorded thresholds this is the consistency audit (a difference means version skew or a bug),
 * under other thresholds it is the what-if replay. When the instrumentation left candidates out of the record
 * (its record limit), the omitted ones all rank below the last recorded one, so some facts stay decidable
 * (the top two, decisiveness, usually the verdict) and others do not (relevance shares, sometimes the menu);
 * the outcome lists what it could not decide instead of guessing. It judges with one published behaviour
 * (the contract by default, or agentfootprint 9.62's, which has no incumbent-at/below-floor clause). Pure.
 */
import {
  createDecideTier2,
  effectiveFloor,
  isAlive,
  numbersAgree,
  pairwiseGap,
  sanitizeScore,
} from '../policy/routingPolicy.js';
import type {
  IntentScore,
  PolicySemantics,
  RoutingPolicy,
  ScorerTraits,
  Tier2Verdict,
  Tier2VerdictKind,
} from '../policy/types.js';
import type { RecordedDecision } from '../record/types.js';

/** Thresholds to judge with instead of the recorded ones; an absent field keeps the recorded value. */
export interface ReplayThresholds {
  readonly nearTieMargin?: number;
  readonly menuSize?: number;
  /** A number judges with that floor (as a policy override would); `null` judges with no floor at all. */
  readonly floor?: number | null;
}

/** The replayed verdict, with what the record could not decide and how it differs from the recorded one. */
export interface ReplayedDecision {
  readonly kind: 'replayed';
  /** Every candidate was on the record: this is the policy's full verdict. */
  readonly complete: boolean;
  readonly verdict: Tier2VerdictKind;
  readonly to?: string;
  /** The menu; when `undecided` names `offered`, only its recorded prefix. */
  readonly offered?: readonly string[];
  readonly decisive: boolean;
  readonly nearTie: boolean;
  /** The judged runner-up; absent when there was none or it was not on the record (see `undecided`). */
  readonly runnerUp?: { readonly id: string; readonly gap: number };
  /** Alive candidates, when the record decides it. */
  readonly aliveCount?: number;
  /** The behaviour that judged this replay. */
  readonly semantics: PolicySemantics;
  /** The thresholds that judged this replay. */
  readonly policy: RoutingPolicy;
  readonly scorerTraits: ScorerTraits;
  readonly effectiveFloor?: number;
  /** Facts the record cannot decide because candidates were omitted: `offered`, `runner-up`, `alive count`, `relevance`. */
  readonly undecided: readonly string[];
  /** One line per recorded fact the replay does not reproduce (empty = the record agrees). */
  readonly differences: readonly string[];
}

/** The outcome of one replay: a verdict, or why the record cannot decide one. */
export type ReplayOutcome = ReplayedDecision | { readonly kind: 'undecidable'; readonly reason: string };

/** The parts of a verdict that make it a different decision when they change. */
export interface VerdictSummary {
  readonly verdict: Tier2VerdictKind;
  readonly to?: string;
  readonly offered?: readonly string[];
}

/**
 * Replay `record` under its recorded thresholds, or under `thresholds` where given, judged by `semantics`
 * (default the contract). Pure.
 */
export function replayDecision(
  record: RecordedDecision,
  thresholds: ReplayThresholds = {},
  semantics: PolicySemantics = 'contract',
): ReplayOutcome {
  const decideTier2 = createDecideTier2(semantics);
  const { policy, scorerTraits } = resolveThresholds(record, thresholds);
  const floor = effectiveFloor(policy, scorerTraits);
  const recorded: IntentScore[] = record.ranked.map((c) => ({ id: c.id, score: c.score }));
  const incumbentId = record.incumbent?.id;
  const omitted = Number.isFinite(record.omitted) && record.omitted > 0 ? record.omitted : 0;
  const undecided: string[] = [];
  const judged = {
    semantics,
    policy,
    scorerTraits,
    ...(floor === undefined ? {} : { effectiveFloor: floor }),
  };

  if (omitted === 0) {
    const verdict = decideTier2(recorded, incumbentId, policy, scorerTraits);
    const alive = countAlive(recorded, floor);
    return finish(record, verdict, { complete: true, aliveCount: alive, undecided, judged, thresholds });
  }
  const last = recorded[recorded.length - 1];
  if (last === undefined) {
    return { kind: 'undecidable', reason: `all ${omitted} candidates were omitted from the record` };
  }
  undecided.push('relevance');
  const incumbentOmitted =
    incumbentId !== undefined &&
    record.incumbent?.scored === true &&
    !recorded.some((c) => c.id === incumbentId);

  if (!isScoreAlive(last.score, floor)) {
    // Omitted candidates rank at or below a dead one, so they are dead too: the verdict is exact.
    const scores = incumbentOmitted ? [...recorded, { id: incumbentId, score: -Infinity }] : recorded;
    const verdict = decideTier2(scores, incumbentId, policy, scorerTraits);
    const alive = countAlive(recorded, floor);
    return finish(record, verdict, { complete: false, aliveCount: alive, undecided, judged, thresholds });
  }

  // The last recorded candidate is alive, so an unknown number of omitted ones may be alive as well.
  const verdict = decideTier2(recorded, incumbentId, policy, scorerTraits);
  const aliveInRecord = countAlive(recorded, floor);
  undecided.push('alive count');
  if (aliveInRecord < 2) {
    if (scorerTraits.categorical !== true) {
      return {
        kind: 'undecidable',
        reason: `only one recorded candidate is alive and ${omitted} were omitted, so the runner-up is unknown`,
      };
    }
    undecided.push('runner-up');
    return finish(record, verdict, { complete: false, undecided, judged, thresholds });
  }
  // Only the contract asks whether the incumbent is at/below the floor; 9.62 stays on any near-tie.
  if (!verdict.decisive && incumbentOmitted && semantics === 'contract') {
    return {
      kind: 'undecidable',
      reason: `near-tie with an incumbent that was scored but omitted from the record, so stay or menu cannot be decided`,
    };
  }
  if (verdict.kind === 'menu') {
    const cap = Math.max(2, policy.menuSize);
    const top = verdict.ranked.find((c) => isScoreAlive(c.score, floor));
    const lastGap =
      top === undefined ? NaN : pairwiseGap(sanitizeScore(top.score), sanitizeScore(last.score));
    if (verdict.offered.length < cap && lastGap < policy.nearTieMargin) undecided.push('offered');
  }
  return finish(record, verdict, { complete: false, undecided, judged, thresholds });
}

/** The verdict facts that make two decisions different: kind, move target, menu. */
export function summarizeVerdict(v: VerdictSummary): VerdictSummary {
  return {
    verdict: v.verdict,
    ...(v.to === undefined ? {} : { to: v.to }),
    ...(v.offered === undefined ? {} : { offered: v.offered }),
  };
}

/** The floor a replay of `record` under `thresholds` judges with; undefined = none. */
export function replayedFloor(
  record: RecordedDecision,
  thresholds: ReplayThresholds = {},
): number | undefined {
  const { policy, scorerTraits } = resolveThresholds(record, thresholds);
  return effectiveFloor(policy, scorerTraits);
}

/** The policy and scorer traits a replay judges with. */
function resolveThresholds(
  record: RecordedDecision,
  t: ReplayThresholds,
): { policy: RoutingPolicy; scorerTraits: ScorerTraits } {
  const base = {
    nearTieMargin: t.nearTieMargin ?? record.policy.nearTieMargin,
    menuSize: t.menuSize ?? record.policy.menuSize,
  };
  if (t.floor === null) {
    const { floor: _dropped, ...traits } = record.scorerTraits;
    return { policy: base, scorerTraits: traits };
  }
  // A record that knows only the floor that judged (an agentfootprint event's) is replayed with it, as the
  // policy's: judged the same whichever of the two set it.
  const floor = t.floor ?? record.policy.floor ?? onlyEffectiveFloor(record);
  return {
    policy: floor === undefined ? base : { ...base, floor },
    scorerTraits: record.scorerTraits,
  };
}

/** The recorded effective floor of a record that knows no other; undefined for any other record. */
function onlyEffectiveFloor(record: RecordedDecision): number | undefined {
  return record.floorSource === 'effective' ? record.effectiveFloor : undefined;
}

/** Is a raw recorded score alive under `floor`? The policy's own rule, on the sanitized score. */
function isScoreAlive(score: number, floor: number | undefined): boolean {
  return isAlive(sanitizeScore(score), floor);
}

function countAlive(scores: readonly IntentScore[], floor: number | undefined): number {
  let n = 0;
  for (const c of scores) if (isScoreAlive(c.score, floor)) n++;
  return n;
}

interface FinishContext {
  readonly complete: boolean;
  readonly aliveCount?: number;
  readonly undecided: string[];
  readonly judged: {
    semantics: PolicySemantics;
    policy: RoutingPolicy;
    scorerTraits: ScorerTraits;
    effectiveFloor?: number;
  };
  readonly thresholds: ReplayThresholds;
}

function finish(record: RecordedDecision, verdict: Tier2Verdict, ctx: FinishContext): ReplayedDecision {
  const runnerUpUndecided = ctx.undecided.includes('runner-up');
  const nearTie = !verdict.decisive && (verdict.runnerUp !== undefined || runnerUpUndecided);
  // Built once and completed in place: a copy per replay was a fifth of the overview's audit.
  const replayed: Omit<ReplayedDecision, 'differences'> & { differences: string[] } = {
    kind: 'replayed',
    complete: ctx.complete,
    verdict: verdict.kind,
    ...(verdict.kind === 'move' ? { to: verdict.to } : {}),
    ...(verdict.kind === 'menu' ? { offered: verdict.offered } : {}),
    decisive: verdict.decisive,
    nearTie,
    ...(verdict.runnerUp === undefined ? {} : { runnerUp: verdict.runnerUp }),
    ...(ctx.aliveCount === undefined ? {} : { aliveCount: ctx.aliveCount }),
    ...ctx.judged,
    undecided: ctx.undecided,
    differences: [],
  };
  const differences = compareWithRecord(record, replayed, verdict);
  if (isEmptyThresholds(ctx.thresholds)) differences.push(...checkRecordedFloor(record));
  replayed.differences = differences;
  return replayed;
}

function isEmptyThresholds(t: ReplayThresholds): boolean {
  return t.nearTieMargin === undefined && t.menuSize === undefined && t.floor === undefined;
}

/** Recorded facts the replay does not reproduce, one plain line each. */
function compareWithRecord(record: RecordedDecision, r: ReplayedDecision, verdict: Tier2Verdict): string[] {
  const out: string[] = [];
  if (record.verdict !== r.verdict) out.push(`verdict: recorded ${record.verdict}, replayed ${r.verdict}`);
  if (record.verdict === 'move' && r.verdict === 'move' && record.to !== r.to) {
    out.push(`move target: recorded ${String(record.to)}, replayed ${String(r.to)}`);
  }
  if (record.verdict === 'menu' && r.verdict === 'menu') {
    const rec = record.offered ?? [];
    const rep = r.offered ?? [];
    const same = r.undecided.includes('offered')
      ? rep.every((id, i) => rec[i] === id)
      : rec.length === rep.length && rep.every((id, i) => rec[i] === id);
    if (!same) out.push(`menu: recorded [${rec.join(', ')}], replayed [${rep.join(', ')}]`);
  }
  if (record.decisive !== r.decisive)
    out.push(`decisive: recorded ${record.decisive}, replayed ${r.decisive}`);
  if (!r.undecided.includes('runner-up')) {
    const a = record.runnerUp;
    const b = r.runnerUp;
    if (a === undefined && b !== undefined) out.push(`runner-up: none recorded, replayed ${b.id}`);
    else if (a !== undefined && b === undefined) out.push(`runner-up: recorded ${a.id}, replayed none`);
    else if (a !== undefined && b !== undefined) {
      if (a.id !== b.id) out.push(`runner-up: recorded ${a.id}, replayed ${b.id}`);
      else if (!close(a.gap, b.gap)) out.push(`gap: recorded ${String(a.gap)}, replayed ${String(b.gap)}`);
    }
  }
  if (record.aliveCount !== undefined && r.aliveCount !== undefined && record.aliveCount !== r.aliveCount) {
    out.push(`alive count: recorded ${record.aliveCount}, replayed ${r.aliveCount}`);
  }
  if (r.complete) {
    for (let i = 0; i < record.ranked.length; i++) {
      const a = record.ranked[i]!;
      const b = verdict.ranked[i];
      if (b === undefined || a.id !== b.id) {
        out.push(`rank ${i + 1}: recorded ${a.id}, replayed ${b === undefined ? 'none' : b.id}`);
        break;
      }
      if (!close(a.relevance, b.relevance)) {
        out.push(`relevance of ${a.id}: recorded ${String(a.relevance)}, replayed ${String(b.relevance)}`);
        break;
      }
    }
  }
  return out;
}

/**
 * The recorded effective floor must be `policy.floor ?? scorer.floor` (or, on a record that knows only that
 * floor, itself), and declared exactly when it exists.
 */
function checkRecordedFloor(record: RecordedDecision): string[] {
  const expected = effectiveFloor(record.policy, record.scorerTraits) ?? onlyEffectiveFloor(record);
  const out: string[] = [];
  if (
    expected === undefined ? record.effectiveFloor !== undefined : !close(expected, record.effectiveFloor)
  ) {
    out.push(
      `effective floor: recorded ${String(record.effectiveFloor)}, policy and scorer give ${String(expected)}`,
    );
  }
  if (record.floorDeclared !== (expected !== undefined)) {
    out.push(
      `floor declared: recorded ${record.floorDeclared}, policy and scorer give ${expected !== undefined}`,
    );
  }
  return out;
}

function close(a: number, b: number | undefined): boolean {
  return b !== undefined && numbersAgree(a, b);
}
