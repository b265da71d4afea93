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
 * capped lists only (replayTallies); the report's shape is in replayReport. Pure. No I/O.
 */
import type { DecisionRecord, TraceRecord } from '../record/types.js';
import { describeFilter, matchesFilter, type DecisionFilter } from './filterDecisions.js';
import { createPolicyAudit, type PolicyAudit, type PolicyChoice } from './policyAudit.js';
import { replayDecision, type ReplayThresholds } from './replayDecision.js';
import type { ReplayReport } from './replayReport.js';
import { FlippedList, FlipTally, replaySide, ScorerFloorTable, UndecidableTally } from './replayTallies.js';
import { locate } from './summarizeDecisions.js';
import { RateCounter } from './verdictCounts.js';
import { resolveConfig } from './resolveConfig.js';

export type {
  FlipMatrix,
  FlippedDecision,
  InconsistentDecision,
  ReplayReport,
  ReplaySide,
  ScorerFloorChange,
} from './replayReport.js';
export { createFlipMatrix } from './replayTallies.js';

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

/** A streaming replay: feed records, then `finish()` once. */
export interface ReplayAnalysis {
  add(record: TraceRecord): void;
  finish(): ReplayReport;
}

/** Start a streaming replay. */
export function createReplayAnalysis(config: Partial<ReplayConfig> = {}): ReplayAnalysis {
  const cfg: ReplayConfig = resolveConfig(DEFAULT_REPLAY_CONFIG, config);
  const before = new RateCounter();
  const after = new RateCounter();
  const flips = new FlipTally();
  const scorers = new ScorerFloorTable(cfg.maxScorers);
  const list = new FlippedList(cfg.listLimit);
  const undecidable = new UndecidableTally(cfg.maxExamples);
  const audit = createPolicyAudit(cfg.policy, { maxExamples: cfg.maxExamples });
  let excluded = 0;
  let partial = 0;
  let finished = false;

  const addDecision = (d: DecisionRecord): void => {
    if (!matchesFilter(d, cfg.where)) {
      excluded++;
      return;
    }
    const { semantics } = audit.add(d);
    const outcome = replayDecision(d, cfg.thresholds, semantics);
    if (outcome.kind === 'undecidable') {
      undecidable.add(d, outcome.reason);
      return;
    }
    if (!outcome.complete) partial++;
    before.add(d);
    after.count(outcome.verdict, outcome.nearTie);
    flips.add(d, outcome);
    scorers.add(d, outcome);
    list.add(d, outcome);
  };

  return {
    add(record: TraceRecord): void {
      if (finished) throw new Error('replay: add() after finish()');
      if (record.kind === 'decision') addDecision(record);
    },
    finish(): ReplayReport {
      if (finished) throw new Error('replay: finish() called twice');
      finished = true;
      return buildReplayReport(cfg, {
        before,
        after,
        flips,
        scorers,
        list,
        undecidable,
        audit,
        excluded,
        partial,
      });
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

/** What a replay gathered by the end of its input. */
interface Gathered {
  readonly before: RateCounter;
  readonly after: RateCounter;
  readonly flips: FlipTally;
  readonly scorers: ScorerFloorTable;
  readonly list: FlippedList;
  readonly undecidable: UndecidableTally;
  readonly audit: PolicyAudit;
  readonly excluded: number;
  readonly partial: number;
}

/** The report: both sides, how verdicts moved, the scorer table, the audit settled, the flipped list. */
function buildReplayReport(cfg: ReplayConfig, g: Gathered): ReplayReport {
  const settled = g.audit.finish();
  const rows = g.scorers.toRows();
  return {
    kind: 'replay',
    thresholds: { ...cfg.thresholds },
    where: cfg.where,
    selection: describeFilter(cfg.where),
    excluded: g.excluded,
    undecidable: g.undecidable.count,
    undecidableExamples: g.undecidable.examples,
    partial: g.partial,
    before: replaySide(g.before),
    after: replaySide(g.after),
    flips: g.flips.flips,
    flipped: g.flips.flipped(),
    moveToMenu: g.flips.moveToMenu,
    menuToMove: g.flips.menuToMove,
    menuChanged: g.flips.menuChanged,
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
    list: g.list.list,
  };
}
