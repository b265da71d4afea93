/**
 * tune — sweep the near-tie margin (and a floor for floorless scorers) over recorded decisions and recommend
 * the margin that meets a target menu rate or near-tie rate.
 *
 * It tunes RATES, not accuracy: without labels nobody can say which margin routes better, only how often each
 * margin would have asked the user (a menu) or kept the incumbent by ambiguity. When the traces carry misroute
 * marks it also reports how many known misroutes each margin would have caught as a menu. The sweep is exact
 * without replaying every decision at every margin: a margin only decides whether a decision ties (gap <
 * margin), so each decision is replayed twice (margin 0: its decisive verdict; margin ∞: its tie verdict) and
 * counted in the grid bin its gap falls in (tuneMarginGrid, drawn by tuneCurve). The floor sweep replays a
 * bounded sample per floorless scorer (tuneFloorSweep). Memory: the grid, capped samples and a capped window of
 * recent decisions to join late misroute marks to (tuneMisrouteJoin).
 * Each decision is judged by the behaviour its service runs (`policy`, see policyAudit): the margin sweep by
 * what the service has shown so far, the floor sweep (replayed at the end) by the settled behaviour.
 * Pure. No I/O.
 */
import type { DecisionRecord, TraceRecord } from '../record/types.js';
import { describeFilter, matchesFilter, type DecisionFilter } from './filterDecisions.js';
import {
  createPolicyAudit,
  type PolicyAudit,
  type PolicyChoice,
  type ServiceBehaviour,
} from './policyAudit.js';
import { isFloorless, rateOf, RateCounter, type VerdictCounts } from './verdictCounts.js';
import { resolveConfig } from './resolveConfig.js';
import { MarginTally, type MarginCount } from './marginTally.js';
import { recommend, summarizeMisroutes } from './tuneCurve.js';
import type { MisrouteCatch, TunePoint, TuneRecommendation } from './tuneCurve.js';
import { MarginGrid, sweepDecision } from './tuneMarginGrid.js';
import { FloorSamples, sweepFloors } from './tuneFloorSweep.js';
import type { FloorSweep } from './tuneFloorSweep.js';
import { MisrouteJoin } from './tuneMisrouteJoin.js';

export type { MisrouteCatch, TunePoint, TuneRecommendation } from './tuneCurve.js';
export type { FloorSweep, FloorSweepRow } from './tuneFloorSweep.js';

/** What to sweep and what to aim for. */
export interface TuneConfig {
  /** Recommend the widest margin whose menu rate stays at or below this share. */
  readonly targetMenuRate?: number;
  /** Recommend the widest margin whose near-tie rate stays at or below this share. */
  readonly targetNearTieRate?: number;
  /** For each floorless scorer, recommend the highest floor whose `unmatched` rate stays at or below this. */
  readonly targetUnmatchedRate?: number;
  /** First margin swept. @default 0 */
  readonly from: number;
  /** Last margin swept. @default 0.5 */
  readonly to: number;
  /** Sweep step. @default 0.01 */
  readonly step: number;
  /** Which decisions to tune on. @default {} (all) */
  readonly where: DecisionFilter;
  /** Decisions sampled per floorless scorer for the floor sweep. @default 2000 */
  readonly floorSample: number;
  /** Shares of a floorless scorer's decisions the swept floors would make `unmatched`. */
  readonly floorShares: readonly number[];
  /** Recent decisions kept to join misroute marks that arrive on feedback spans. @default 50000 */
  readonly joinWindow: number;
  /** Which behaviour judges (`--policy`). @default 'auto' */
  readonly policy: PolicyChoice;
}

/** The defaults `resolveTuneConfig` fills in. */
export const DEFAULT_TUNE_CONFIG: TuneConfig = Object.freeze({
  from: 0,
  to: 0.5,
  step: 0.01,
  where: {},
  floorSample: 2000,
  floorShares: [0.01, 0.05, 0.1, 0.2, 0.3, 0.5],
  joinWindow: 50_000,
  policy: 'auto',
});

/** The most margins one sweep may have. */
export const MAX_SWEEP_POINTS = 10_001;

/** Fill a partial config against the defaults; throws RangeError on a sweep or target that cannot work. */
export function resolveTuneConfig(config: Partial<TuneConfig> = {}): TuneConfig {
  const cfg: TuneConfig = resolveConfig(DEFAULT_TUNE_CONFIG, config);
  if (!Number.isFinite(cfg.from) || !Number.isFinite(cfg.to) || cfg.from < 0 || cfg.to < cfg.from) {
    throw new RangeError(`tune: the sweep needs 0 <= from <= to, got from ${cfg.from}, to ${cfg.to}`);
  }
  if (!(cfg.step > 0) || (cfg.to - cfg.from) / cfg.step + 1 > MAX_SWEEP_POINTS) {
    throw new RangeError(
      `tune: step must be > 0 and give at most ${MAX_SWEEP_POINTS} margins, got ${cfg.step}`,
    );
  }
  if (!(cfg.joinWindow >= 0)) {
    throw new RangeError(`tune: joinWindow must be a count of decisions, 0 or more, got ${cfg.joinWindow}`);
  }
  for (const [name, v] of [
    ['target menu rate', cfg.targetMenuRate],
    ['target near-tie rate', cfg.targetNearTieRate],
    ['target unmatched rate', cfg.targetUnmatchedRate],
  ] as const) {
    if (v !== undefined && !(v >= 0 && v <= 1))
      throw new RangeError(`tune: ${name} must be within 0..1, got ${v}`);
  }
  return cfg;
}

/** The margins a sweep visits, rounded so that 0.1 + 0.2 prints as 0.3. */
export function sweepMargins(cfg: Pick<TuneConfig, 'from' | 'to' | 'step'>): number[] {
  const out: number[] = [];
  const n = Math.floor((cfg.to - cfg.from) / cfg.step + 1e-9);
  for (let k = 0; k <= n; k++) out.push(Number((cfg.from + k * cfg.step).toFixed(10)));
  return out;
}

/** The tune report. */
export interface TuneReport {
  readonly kind: 'tune';
  /** Always says that rates are tuned, not accuracy. */
  readonly caveat: string;
  readonly targets: {
    readonly menuRate?: number;
    readonly nearTieRate?: number;
    readonly unmatchedRate?: number;
  };
  readonly where: DecisionFilter;
  readonly selection: string;
  readonly excluded: number;
  readonly undecidable: number;
  /** Decisions swept. */
  readonly decisions: number;
  /** The recorded rates, for comparison. */
  readonly recorded: {
    readonly verdicts: VerdictCounts;
    readonly nearTies: number;
    readonly nearTieRate: number;
    readonly menuRate: number;
    /** Recorded margins, most decisions first (at most 5). */
    readonly margins: readonly MarginCount[];
  };
  readonly sweep: { readonly from: number; readonly to: number; readonly step: number };
  readonly curve: readonly TunePoint[];
  readonly recommendation?: TuneRecommendation;
  readonly misroutes?: MisrouteCatch;
  readonly floors: readonly FloorSweep[];
  /** `--policy` and, under `auto`, per service the behaviour that judged its decisions (none when forced). */
  readonly policy: { readonly choice: PolicyChoice; readonly services: readonly ServiceBehaviour[] };
}

/** A streaming sweep: feed records, then `finish()` once. */
export interface TuneAnalysis {
  add(record: TraceRecord): void;
  finish(): TuneReport;
}

/** The sentence every tune output carries. */
export const TUNE_CAVEAT =
  'tune sets rates, not accuracy: it shows how often each margin would have tied, offered a menu or moved — ' +
  'not which margin routes correctly.';

/** Start a streaming sweep. */
export function createTuneAnalysis(config: Partial<TuneConfig> = {}): TuneAnalysis {
  const cfg = resolveTuneConfig(config);
  const margins = sweepMargins(cfg);
  const grid = new MarginGrid(margins);
  const recorded = new RecordedRates();
  const samples = new FloorSamples(cfg.floorSample);
  const joins = new MisrouteJoin(cfg.joinWindow);
  // Stryker disable next-line ObjectLiteral: equivalent — tune never reads the audit's examples, so how many it keeps is unseen.
  const audit = createPolicyAudit(cfg.policy, { maxExamples: 0 });
  let excluded = 0;
  let undecidable = 0;
  let finished = false;

  const addDecision = (d: DecisionRecord): void => {
    if (!matchesFilter(d, cfg.where)) {
      excluded++;
      return;
    }
    // A forced behaviour needs no evidence, and spares the audit's replay.
    const semantics = cfg.policy === 'auto' ? audit.add(d).semantics : cfg.policy;
    const swept = sweepDecision(d, semantics, margins);
    if (swept === undefined) {
      undecidable++;
      return;
    }
    recorded.add(d);
    grid.add(swept);
    if (isFloorless(d)) samples.add(d);
    joins.addDecision(d, swept);
  };

  return {
    add(record: TraceRecord): void {
      if (finished) throw new Error('tune: add() after finish()');
      if (record.kind === 'decision') addDecision(record);
      else if (record.kind === 'misroute') joins.addMark(record);
    },
    finish(): TuneReport {
      if (finished) throw new Error('tune: finish() called twice');
      finished = true;
      return buildTuneReport(cfg, margins, { grid, recorded, samples, joins, audit, excluded, undecidable });
    },
  };
}

/** Sweep a finite collection of records (the streaming analysis, run to the end). */
export function tuneMargins(records: Iterable<TraceRecord>, config: Partial<TuneConfig> = {}): TuneReport {
  const analysis = createTuneAnalysis(config);
  for (const r of records) analysis.add(r);
  return analysis.finish();
}

/** What a sweep gathered by the end of its input. */
interface Gathered {
  readonly grid: MarginGrid;
  readonly recorded: RecordedRates;
  readonly samples: FloorSamples;
  readonly joins: MisrouteJoin;
  readonly audit: PolicyAudit;
  readonly excluded: number;
  readonly undecidable: number;
}

/** The report: the curve and its recommendation, what the marks say, the floor sweep, the recorded rates. */
function buildTuneReport(cfg: TuneConfig, margins: readonly number[], g: Gathered): TuneReport {
  const joined = g.joins.finish();
  const curve = g.grid.curve(g.recorded.decisions, joined.hasMarks ? joined.marked : undefined);
  const recommendation = recommend(curve, cfg);
  const misroutes = joined.hasMarks
    ? summarizeMisroutes(joined.marked, joined.caughtRecorded, joined.unjoined, recommendation, margins)
    : undefined;
  const floors = g.samples
    .bySize()
    .map((s) => sweepFloors(s, cfg.floorShares, cfg.targetUnmatchedRate, g.audit.judge));
  return {
    kind: 'tune',
    caveat: TUNE_CAVEAT,
    targets: targetsOf(cfg),
    where: cfg.where,
    selection: describeFilter(cfg.where),
    excluded: g.excluded,
    undecidable: g.undecidable,
    decisions: g.recorded.decisions,
    recorded: g.recorded.toRecorded(),
    sweep: { from: cfg.from, to: cfg.to, step: cfg.step },
    curve,
    ...(recommendation === undefined ? {} : { recommendation }),
    ...(misroutes === undefined ? {} : { misroutes }),
    floors,
    policy: {
      choice: cfg.policy,
      // Under a forced behaviour no decision went through the audit: there is nothing per service to say.
      services: cfg.policy === 'auto' ? g.audit.finish().services : [],
    },
  };
}

/** The targets that were set, in the report's shape. */
function targetsOf(cfg: TuneConfig): TuneReport['targets'] {
  return {
    ...(cfg.targetMenuRate === undefined ? {} : { menuRate: cfg.targetMenuRate }),
    ...(cfg.targetNearTieRate === undefined ? {} : { nearTieRate: cfg.targetNearTieRate }),
    ...(cfg.targetUnmatchedRate === undefined ? {} : { unmatchedRate: cfg.targetUnmatchedRate }),
  };
}

/** The recorded verdicts, near-ties and margins of the swept decisions, to compare the curve with. */
class RecordedRates {
  private readonly counts = new RateCounter();
  private readonly margins = new MarginTally();

  get decisions(): number {
    return this.counts.decisions;
  }

  /** Count one swept decision as recorded. */
  add(d: DecisionRecord): void {
    this.counts.add(d);
    this.margins.add(d.policy.nearTieMargin);
  }

  /** The report's `recorded` section. */
  toRecorded(): TuneReport['recorded'] {
    const { decisions, nearTies, verdicts } = this.counts;
    return {
      verdicts: { ...verdicts },
      nearTies,
      nearTieRate: rateOf(nearTies, decisions),
      menuRate: rateOf(verdicts.menu, decisions),
      margins: this.margins.top(),
    };
  }
}
