/**
 * summarizeDecisions — the overview: verdict mix, near-tie rate overall and per service, router and scorer,
 * and the anomalies the contract never expects.
 *
 * This is what `routescope analyze` and every CI gate read. Streaming: records are fed one at a time and the
 * state is counters per name (capped at `maxNames` per dimension, the rest pooled and counted) plus a capped
 * list of anomaly examples — never the decisions themselves. Every decision is replayed under its recorded
 * thresholds (see replayDecision), judged by the behaviour its service runs (see policyAudit), to find
 * verdicts the policy does not reproduce; that audit is settled at the end, so its counts are exact. Pure. No I/O.
 */
import type { DecisionRecord, TraceRecord } from '../record/types.js';
import { ANOMALY_KINDS, detectThresholdAnomalies, type Anomaly } from './detectAnomalies.js';
import { FloorSourceTally, type FloorSourceCounts } from './floorSources.js';
import {
  createPolicyAudit,
  type PolicyAudit,
  type PolicyChoice,
  type ServiceBehaviour,
} from './policyAudit.js';
import type { ReplayOutcome } from './replayDecision.js';
import type { PolicySemantics } from '../policy/types.js';
import { RateCounter, isFloorless, type DecisionRates } from './verdictCounts.js';
import { resolveConfig } from './resolveConfig.js';

/** Options of the overview. */
export interface SummaryConfig {
  /** Distinct names kept per dimension (service, router, scorer); the rest are pooled. @default 1000 */
  readonly maxNames: number;
  /** Anomaly examples kept. @default 20 */
  readonly maxExamples: number;
  /** Which behaviour judges the consistency audit (`--policy`). @default 'auto' */
  readonly policy: PolicyChoice;
}

/** The defaults `summarizeDecisions` uses. */
export const DEFAULT_SUMMARY_CONFIG: SummaryConfig = Object.freeze({
  maxNames: 1000,
  maxExamples: 20,
  policy: 'auto',
});

/** Rates for one name of a dimension; `name` null = the spans did not carry it. */
export interface NamedRates extends DecisionRates {
  readonly name: string | null;
}

/** One dimension's breakdown, busiest first. */
export interface Breakdown {
  readonly rows: readonly NamedRates[];
  /** Decisions whose name came after `maxNames` distinct names were seen, pooled. */
  readonly pooled?: DecisionRates;
}

/** Where an anomaly was found. */
export interface DecisionLocation {
  readonly traceId: string;
  /** The trace id was synthesized for an event-log record: no trace store holds it. */
  readonly syntheticTraceId?: true;
  readonly spanId: string;
  readonly router?: string;
  readonly scorer?: string;
  readonly file: string;
  readonly line: number;
}

/** An anomaly with where it was found. */
export type AnomalyExample = Anomaly & { readonly at: DecisionLocation };

/** The overview report. */
export interface DecisionSummary extends DecisionRates {
  readonly kind: 'summary';
  readonly byService: Breakdown;
  readonly byRouter: Breakdown;
  readonly byScorer: Breakdown;
  /** Decisions judged with no floor at all (`unmatched` unreachable). */
  readonly floorlessDecisions: number;
  /** Decisions by where their floor came from (`effective`: the policy's or the scorer's, not told apart). */
  readonly floorSources: FloorSourceCounts;
  /** Decisions whose recorded verdict the behaviour that judged them does not reproduce on the recorded numbers. */
  readonly inconsistent: number;
  /** `--policy` and, per service, the behaviour found (see policyAudit). */
  readonly policy: { readonly choice: PolicyChoice; readonly services: readonly ServiceBehaviour[] };
  /** How the consistency replay went: complete records, records with omitted candidates, undecidable ones. */
  readonly replay: { readonly complete: number; readonly partial: number; readonly undecidable: number };
  /** Decisions showing each anomaly kind. */
  readonly anomalies: Readonly<Record<Anomaly['kind'], number>>;
  /** The first anomalies found, capped at `maxExamples`. */
  readonly anomalyExamples: readonly AnomalyExample[];
  /** Routing calls that threw (span status ERROR). */
  readonly errors: number;
  readonly turns: number;
  /** Misroute marks: events on decision spans plus feedback spans. */
  readonly misroutes: number;
  /** Earliest and latest decision start, ms since the epoch; absent with no decisions. */
  readonly timeRange?: { readonly firstMs: number; readonly lastMs: number };
}

/** A streaming overview: feed records (or merge other overviews), then `finish()` once. */
export interface SummaryAnalysis {
  add(record: TraceRecord): void;
  /**
   * Count everything `other` counted, as if its records had been added here after these (`other` is left as it
   * was; both must have the same config). Exact while neither met `maxNames`. An observer of `other` is not told
   * again: what it kept is merged by its own owner.
   */
  merge(other: SummaryAnalysis): void;
  finish(): DecisionSummary;
  /** The behaviour that judges a decision of this service (recording this behaviour, if any), by all added. */
  judge(d: Pick<DecisionRecord, 'service' | 'semantics'>): PolicySemantics;
}

/** Told each decision as the audit replayed it under both behaviours (serve's per-decision index keeps it). */
export type AuditObserver = (
  d: DecisionRecord,
  replays: Readonly<Record<PolicySemantics, ReplayOutcome>>,
) => void;

/** What merge reads of another overview, known only here. */
interface SummaryState {
  readonly all: RateCounter;
  readonly named: readonly [NamedCounters, NamedCounters, NamedCounters];
  readonly anomalies: Readonly<Record<Anomaly['kind'], number>>;
  readonly examples: readonly { seq: number; example: AnomalyExample }[];
  readonly audit: PolicyAudit;
  readonly floorSources: FloorSourceTally;
  readonly counts: Counts;
}
interface Counts {
  floorless: number;
  errors: number;
  turns: number;
  misroutes: number;
  firstMs: number;
  lastMs: number;
}
const summaryStates = new WeakMap<SummaryAnalysis, SummaryState>();

/** Start an overview. */
export function createSummaryAnalysis(
  config: Partial<SummaryConfig> = {},
  observe?: AuditObserver,
): SummaryAnalysis {
  const cfg = resolveConfig(DEFAULT_SUMMARY_CONFIG, config);
  const all = new RateCounter();
  const byService = new NamedCounters(cfg.maxNames);
  const byRouter = new NamedCounters(cfg.maxNames);
  const byScorer = new NamedCounters(cfg.maxNames);
  const anomalies = Object.fromEntries(ANOMALY_KINDS.map((k) => [k, 0])) as Record<Anomaly['kind'], number>;
  // Threshold anomalies are known at once; inconsistent ones only when the audit is settled (finish).
  const examples: { seq: number; example: AnomalyExample }[] = [];
  const audit = createPolicyAudit(cfg.policy, { maxExamples: cfg.maxExamples, maxServices: cfg.maxNames });
  const floorSources = new FloorSourceTally();
  const counts: Counts = {
    floorless: 0,
    errors: 0,
    turns: 0,
    misroutes: 0,
    firstMs: Infinity,
    lastMs: -Infinity,
  };

  const addDecision = (d: DecisionRecord): void => {
    all.add(d);
    byService.add(d.service, d);
    byRouter.add(d.router, d);
    byScorer.add(d.scorer, d);
    if (isFloorless(d)) counts.floorless++;
    floorSources.add(d);
    if (d.error) counts.errors++;
    counts.misroutes += d.misroutes.length;
    // Stryker disable next-line EqualityOperator: equivalent — an equal time leaves the same first time.
    if (d.timeUnixMs < counts.firstMs) counts.firstMs = d.timeUnixMs;
    // Stryker disable next-line EqualityOperator: equivalent — an equal time leaves the same last time.
    if (d.timeUnixMs > counts.lastMs) counts.lastMs = d.timeUnixMs;
    const { seq, replays } = audit.add(d);
    observe?.(d, replays);
    for (const a of detectThresholdAnomalies(d)) {
      anomalies[a.kind]++;
      // Stryker disable next-line EqualityOperator: equivalent — the merged list is cut to maxExamples at the end; this cap only bounds memory.
      if (examples.length < cfg.maxExamples) examples.push({ seq, example: { ...a, at: locate(d) } });
    }
  };

  const analysis: SummaryAnalysis = {
    add(record: TraceRecord): void {
      if (record.kind === 'decision') addDecision(record);
      else if (record.kind === 'turn') counts.turns++;
      else counts.misroutes++;
    },
    merge(other: SummaryAnalysis): void {
      const o = summaryStates.get(other);
      if (o === undefined) throw new TypeError('merge takes an overview made by createSummaryAnalysis');
      // Every decision is audited, so the audit's positions are decisions seen: the other's come after these.
      const offset = all.decisions;
      all.merge(o.all);
      byService.merge(o.named[0]);
      byRouter.merge(o.named[1]);
      byScorer.merge(o.named[2]);
      // `inconsistent` is known only when the audit is settled (finish), from the merged audit.
      for (const k of ANOMALY_KINDS) if (k !== 'inconsistent') anomalies[k] += o.anomalies[k];
      for (const e of o.examples) {
        // Stryker disable next-line EqualityOperator: equivalent — the list is cut to maxExamples at the end.
        if (examples.length < cfg.maxExamples) examples.push({ seq: e.seq + offset, example: e.example });
      }
      audit.merge(o.audit);
      floorSources.merge(o.floorSources);
      const c = o.counts;
      counts.floorless += c.floorless;
      counts.errors += c.errors;
      counts.turns += c.turns;
      counts.misroutes += c.misroutes;
      counts.firstMs = Math.min(counts.firstMs, c.firstMs);
      counts.lastMs = Math.max(counts.lastMs, c.lastMs);
    },
    judge: (d) => audit.judge(d),
    finish(): DecisionSummary {
      const settled = audit.finish();
      anomalies.inconsistent = settled.inconsistent;
      // Both lists are the first of their kind in input order, so the first `maxExamples` of the merge are exact.
      const merged = [
        ...examples,
        ...settled.examples.map((f) => ({
          seq: f.seq,
          example: {
            kind: 'inconsistent',
            differences: f.differences,
            semantics: f.semantics,
            at: locate(f.record),
          } as AnomalyExample,
        })),
      ].sort((a, b) => a.seq - b.seq);
      return {
        kind: 'summary',
        ...all.toRates(),
        byService: byService.toBreakdown(),
        byRouter: byRouter.toBreakdown(),
        byScorer: byScorer.toBreakdown(),
        floorlessDecisions: counts.floorless,
        floorSources: floorSources.finish(),
        inconsistent: settled.inconsistent,
        policy: { choice: settled.choice, services: settled.services },
        replay: { complete: settled.complete, partial: settled.partial, undecidable: settled.undecidable },
        anomalies: { ...anomalies },
        anomalyExamples: merged.slice(0, cfg.maxExamples).map((m) => m.example),
        errors: counts.errors,
        turns: counts.turns,
        misroutes: counts.misroutes,
        ...(all.decisions > 0 ? { timeRange: { firstMs: counts.firstMs, lastMs: counts.lastMs } } : {}),
      };
    },
  };
  summaryStates.set(analysis, {
    all,
    named: [byService, byRouter, byScorer],
    anomalies,
    examples,
    audit,
    floorSources,
    counts,
  });
  return analysis;
}

/** The overview of a finite list of records (tests, small inputs). */
export function summarizeDecisions(
  records: Iterable<TraceRecord>,
  config: Partial<SummaryConfig> = {},
): DecisionSummary {
  const analysis = createSummaryAnalysis(config);
  for (const r of records) analysis.add(r);
  return analysis.finish();
}

/** Where a decision came from, for examples. */
export function locate(d: DecisionRecord): DecisionLocation {
  return {
    traceId: d.traceId,
    ...(d.syntheticTraceId === true ? { syntheticTraceId: true as const } : {}),
    spanId: d.spanId,
    ...(d.router === undefined ? {} : { router: d.router }),
    ...(d.scorer === undefined ? {} : { scorer: d.scorer }),
    file: d.source.file,
    line: d.source.line,
  };
}

/** Counters per name, at most `max` names; later names are pooled. */
class NamedCounters {
  private readonly byName = new Map<string | null, RateCounter>();
  private pooled: RateCounter | undefined;
  constructor(private readonly max: number) {}

  add(name: string | undefined, d: DecisionRecord): void {
    const key = name ?? null;
    let c = this.byName.get(key);
    if (c === undefined) {
      if (this.byName.size >= this.max) {
        (this.pooled ??= new RateCounter()).add(d);
        return;
      }
      c = new RateCounter();
      this.byName.set(key, c);
    }
    c.add(d);
  }

  /** Count `other`'s names after these: new names while there is room, the rest pooled. */
  merge(other: NamedCounters): void {
    for (const [name, c] of other.byName) {
      let mine = this.byName.get(name);
      if (mine === undefined) {
        if (this.byName.size >= this.max) {
          (this.pooled ??= new RateCounter()).merge(c);
          continue;
        }
        mine = new RateCounter();
        this.byName.set(name, mine);
      }
      mine.merge(c);
    }
    if (other.pooled !== undefined) (this.pooled ??= new RateCounter()).merge(other.pooled);
  }

  toBreakdown(): Breakdown {
    const rows: NamedRates[] = [...this.byName].map(([name, c]) => ({ name, ...c.toRates() }));
    rows.sort((a, b) => b.decisions - a.decisions || compareNames(a.name, b.name));
    return this.pooled === undefined ? { rows } : { rows, pooled: this.pooled.toRates() };
  }
}

/** Names in code-point order, null last. */
export function compareNames(a: string | null | undefined, b: string | null | undefined): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  // Stryker disable next-line EqualityOperator: equivalent — equal names returned 0 above.
  return a < b ? -1 : 1;
}
