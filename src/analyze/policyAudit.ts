/**
 * policyAudit — which published behaviour judges each decision (`--policy`), and the consistency audit under it.
 *
 * Two behaviours are published: the contract, and agentfootprint 9.62 (no incumbent-at/below-floor clause).
 * They differ only on a near-tie whose incumbent the scorer put at/below the floor, so most decisions replay
 * alike under both, and the few that one behaviour alone reproduces show which one a service runs. The rule of
 * `auto`: a decision that records its behaviour is judged by it; any other by its service's behaviour, the one
 * that alone reproduces more of that service's decisions (the evidence), else the one most of its decisions
 * record, else the contract. Streaming: a decision is judged by what its service has shown so far (the contract
 * until there is evidence), and the consistency audit is settled at the end, when the service's behaviour is
 * known, so its counts are exact. A forced behaviour (`contract`, `agentfootprint-9.62`) judges every decision.
 * Pure. No I/O.
 */
import { isAlive, POLICY_SEMANTICS, sanitizeScore } from '../policy/routingPolicy.js';
import type { PolicySemantics } from '../policy/types.js';
import type { DecisionRecord } from '../record/types.js';
import {
  replayDecision,
  replayedFloor,
  type ReplayOutcome,
  type ReplayThresholds,
} from './replayDecision.js';
import { resolveConfig } from './resolveConfig.js';

/** `--policy`: infer the behaviour (`auto`), or force one. */
export type PolicyChoice = 'auto' | PolicySemantics;

/** The values `--policy` takes, in the order help lists them. */
export const POLICY_CHOICES: readonly PolicyChoice[] = Object.freeze(['auto', ...POLICY_SEMANTICS]);

/** Counts per behaviour. */
export type PerBehaviour = Readonly<Record<PolicySemantics, number>>;

/** How a service's behaviour was settled. */
export type ResolvedBy = 'forced' | 'evidence' | 'recorded' | 'default';

/** What `analyze` says about one service. */
export interface ServiceBehaviour {
  /** `service.name`; null = the records named none. */
  readonly service: string | null;
  /** The behaviour that judged the service's decisions that record none (all of them when forced). */
  readonly semantics: PolicySemantics;
  readonly resolvedBy: ResolvedBy;
  readonly decisions: number;
  /** Decisions that record a behaviour, per behaviour. */
  readonly recorded: PerBehaviour;
  /** Decisions exactly one behaviour reproduces (the other replays to something else), per behaviour. */
  readonly evidence: PerBehaviour;
  /** Decisions of the service the behaviour that judged each does not reproduce. */
  readonly inconsistent: number;
}

/** A decision the audit could not reproduce, with the behaviour that judged it. */
export interface AuditFinding {
  /** The decision's position among those audited (0-based), for input order. */
  readonly seq: number;
  readonly record: DecisionRecord;
  readonly semantics: PolicySemantics;
  readonly differences: readonly string[];
}

/** The settled audit. */
export interface PolicyAuditResult {
  readonly choice: PolicyChoice;
  /** Replayed under the behaviour that judged them (complete + partial). */
  readonly audited: number;
  readonly complete: number;
  readonly partial: number;
  readonly undecidable: number;
  readonly inconsistent: number;
  /** The first inconsistent decisions, in input order, up to `maxExamples`. */
  readonly examples: readonly AuditFinding[];
  /** Per service, busiest first; past `maxServices` services the rest share one row named `(other)`. */
  readonly services: readonly ServiceBehaviour[];
}

/** A streaming audit: `add` each decision, `finish()` once; `judge` gives a decision's behaviour so far. */
export interface PolicyAudit {
  /** Audit `d`: the behaviour that judges it now (see the module note), its replay under it, its `seq`. */
  add(d: DecisionRecord): {
    readonly semantics: PolicySemantics;
    readonly replay: ReplayOutcome;
    readonly seq: number;
    /** The decision replayed under each behaviour (what a caller keeping per-decision results reads). */
    readonly replays: Readonly<Record<PolicySemantics, ReplayOutcome>>;
  };
  /** The behaviour that judges `d` by everything added so far (after the last `add`, the final one). */
  judge(d: Pick<DecisionRecord, 'service' | 'semantics'>): PolicySemantics;
  /**
   * Take in everything `other` audited, as if its decisions had been added here after these (`other` is left as
   * it was; both must have the same choice and config). Exact while neither met `maxServices`.
   */
  merge(other: PolicyAudit): void;
  finish(): PolicyAuditResult;
}

/** What merge reads of another audit, known only here. */
interface AuditState {
  readonly choice: PolicyChoice;
  readonly services: Map<string | null, ServiceState>;
  readonly pooled: () => ServiceState | undefined;
  readonly settledFindings: readonly AuditFinding[];
  readonly seq: () => number;
}
const auditStates = new WeakMap<PolicyAudit, AuditState>();

/** Options of the audit. */
export interface PolicyAuditConfig {
  /** Inconsistent decisions kept as examples. @default 20 */
  readonly maxExamples: number;
  /** Services tracked apart; the rest share one state. @default 1000 */
  readonly maxServices: number;
}

/** The defaults `createPolicyAudit` uses. */
export const DEFAULT_POLICY_AUDIT_CONFIG: PolicyAuditConfig = Object.freeze({
  maxExamples: 20,
  maxServices: 1000,
});

/**
 * Can the two behaviours judge `record` differently under `thresholds`? Only when the scorer scored the
 * incumbent and some floor puts it out; otherwise one replay serves both (the law the tests check).
 */
export function behavioursMayDiffer(record: DecisionRecord, thresholds: ReplayThresholds = {}): boolean {
  const incumbent = record.incumbent;
  if (incumbent === undefined || !incumbent.scored) return false;
  const floor = replayedFloor(record, thresholds);
  if (floor === undefined) return false;
  let recorded = false;
  for (const c of record.ranked) {
    if (c.id !== incumbent.id) continue;
    recorded = true;
    if (!isAlive(sanitizeScore(c.score), floor)) return true;
  }
  // Scored but left out of the record: it ranks below the last recorded candidate, maybe below the floor.
  return !recorded;
}

/** The replay under each behaviour; one replay when they cannot differ. */
export function replayUnderBoth(
  record: DecisionRecord,
  thresholds: ReplayThresholds = {},
): Readonly<Record<PolicySemantics, ReplayOutcome>> {
  const contract = replayDecision(record, thresholds, 'contract');
  if (!behavioursMayDiffer(record, thresholds)) {
    return { contract, 'agentfootprint-9.62': relabel(contract, 'agentfootprint-9.62') };
  }
  return { contract, 'agentfootprint-9.62': replayDecision(record, thresholds, 'agentfootprint-9.62') };
}

function relabel(o: ReplayOutcome, semantics: PolicySemantics): ReplayOutcome {
  return o.kind === 'replayed' ? { ...o, semantics } : o;
}

/** Did the replay reproduce the record? undefined when it could not be decided. */
function reproduces(o: ReplayOutcome): boolean | undefined {
  return o.kind === 'replayed' ? o.differences.length === 0 : undefined;
}

interface Tally {
  complete: number;
  partial: number;
  undecidable: number;
  inconsistent: number;
}

function createTally(): Tally {
  return { complete: 0, partial: 0, undecidable: 0, inconsistent: 0 };
}

function count(t: Tally, o: ReplayOutcome): void {
  if (o.kind === 'undecidable') t.undecidable++;
  else {
    if (o.complete) t.complete++;
    else t.partial++;
    if (o.differences.length > 0) t.inconsistent++;
  }
}

interface ServiceState {
  readonly service: string | null;
  decisions: number;
  readonly recorded: Record<PolicySemantics, number>;
  readonly evidence: Record<PolicySemantics, number>;
  /** Decided at once: decisions that record their behaviour, or every one when forced. */
  readonly settled: Tally;
  /** Decisions that record no behaviour, tallied under each behaviour until the service's is known. */
  readonly open: Record<PolicySemantics, Tally>;
  readonly openFindings: Record<PolicySemantics, AuditFinding[]>;
}

const BEHAVIOURS = POLICY_SEMANTICS;
const OTHER_SERVICES = '(other)';

/** Start an audit under `choice`. */
export function createPolicyAudit(
  choice: PolicyChoice,
  config: Partial<PolicyAuditConfig> = {},
): PolicyAudit {
  const cfg = resolveConfig(DEFAULT_POLICY_AUDIT_CONFIG, config);
  const services = new Map<string | null, ServiceState>();
  let pooled: ServiceState | undefined;
  const settledFindings: AuditFinding[] = [];
  let seq = 0;

  const fresh = (service: string | null): ServiceState => ({
    service,
    decisions: 0,
    recorded: { contract: 0, 'agentfootprint-9.62': 0 },
    evidence: { contract: 0, 'agentfootprint-9.62': 0 },
    settled: createTally(),
    open: { contract: createTally(), 'agentfootprint-9.62': createTally() },
    openFindings: { contract: [], 'agentfootprint-9.62': [] },
  });

  const stateOf = (d: Pick<DecisionRecord, 'service'>, create: boolean): ServiceState | undefined => {
    const key = d.service ?? null;
    const found = services.get(key);
    if (found !== undefined) return found;
    if (services.size < cfg.maxServices) {
      if (!create) return undefined;
      const s = fresh(key);
      services.set(key, s);
      return s;
    }
    if (create) pooled ??= fresh(OTHER_SERVICES);
    return pooled;
  };

  const resolve = (s: ServiceState | undefined): { semantics: PolicySemantics; by: ResolvedBy } => {
    if (choice !== 'auto') return { semantics: choice, by: 'forced' };
    if (s === undefined) return { semantics: 'contract', by: 'default' };
    const c = s.evidence.contract;
    const n = s.evidence['agentfootprint-9.62'];
    if (c !== n) return { semantics: c > n ? 'contract' : 'agentfootprint-9.62', by: 'evidence' };
    const rc = s.recorded.contract;
    const rn = s.recorded['agentfootprint-9.62'];
    if (rc !== rn) return { semantics: rc > rn ? 'contract' : 'agentfootprint-9.62', by: 'recorded' };
    return { semantics: 'contract', by: 'default' };
  };

  const judge = (d: Pick<DecisionRecord, 'service' | 'semantics'>): PolicySemantics => {
    if (choice !== 'auto') return choice;
    return d.semantics ?? resolve(stateOf(d, false)).semantics;
  };

  const keep = (list: AuditFinding[], finding: AuditFinding): void => {
    if (list.length < cfg.maxExamples) list.push(finding);
  };

  const mergeService = (into: ServiceState, o: ServiceState, offset: number): void => {
    into.decisions += o.decisions;
    for (const b of BEHAVIOURS) {
      into.recorded[b] += o.recorded[b];
      into.evidence[b] += o.evidence[b];
      addTally(into.open[b], o.open[b]);
      for (const f of o.openFindings[b]) keep(into.openFindings[b], { ...f, seq: f.seq + offset });
    }
    addTally(into.settled, o.settled);
  };

  const audit: PolicyAudit = {
    merge(other) {
      const o = auditStates.get(other);
      if (o === undefined) throw new TypeError('merge takes an audit made by createPolicyAudit');
      if (o.choice !== choice) throw new TypeError(`cannot merge a ${o.choice} audit into a ${choice} one`);
      const offset = seq;
      for (const [key, os] of o.services)
        mergeService(stateOf({ service: key ?? undefined }, true)!, os, offset);
      const op = o.pooled();
      if (op !== undefined) mergeService((pooled ??= fresh(OTHER_SERVICES)), op, offset);
      for (const f of o.settledFindings) keep(settledFindings, { ...f, seq: f.seq + offset });
      seq += o.seq();
    },
    add(d) {
      const at = seq++;
      const s = stateOf(d, true)!;
      s.decisions++;
      if (d.semantics !== undefined) s.recorded[d.semantics]++;
      const replays = replayUnderBoth(d);
      const c = reproduces(replays.contract);
      const n = reproduces(replays['agentfootprint-9.62']);
      if (c === true && n === false) s.evidence.contract++;
      if (n === true && c === false) s.evidence['agentfootprint-9.62']++;
      const fixed = choice !== 'auto' ? choice : d.semantics;
      if (fixed !== undefined) {
        const replay = replays[fixed];
        count(s.settled, replay);
        if (replay.kind === 'replayed' && replay.differences.length > 0) {
          keep(settledFindings, { seq: at, record: d, semantics: fixed, differences: replay.differences });
        }
        return { semantics: fixed, replay, seq: at, replays };
      }
      for (const b of BEHAVIOURS) {
        const replay = replays[b];
        count(s.open[b], replay);
        if (replay.kind === 'replayed' && replay.differences.length > 0) {
          keep(s.openFindings[b], { seq: at, record: d, semantics: b, differences: replay.differences });
        }
      }
      const now = resolve(s).semantics;
      return { semantics: now, replay: replays[now], seq: at, replays };
    },
    judge,
    finish() {
      const total = createTally();
      const findings = settledFindings.slice();
      const rows: ServiceBehaviour[] = [];
      const all = [...services.values(), ...(pooled === undefined ? [] : [pooled])];
      for (const s of all) {
        const { semantics, by } = resolve(s);
        const open = s.open[semantics];
        const inconsistent = s.settled.inconsistent + open.inconsistent;
        for (const k of ['complete', 'partial', 'undecidable', 'inconsistent'] as const) {
          total[k] += s.settled[k] + open[k];
        }
        findings.push(...s.openFindings[semantics]);
        rows.push({
          service: s.service,
          semantics,
          resolvedBy: by,
          decisions: s.decisions,
          recorded: { ...s.recorded },
          evidence: { ...s.evidence },
          inconsistent,
        });
      }
      findings.sort((a, b) => a.seq - b.seq);
      rows.sort((a, b) => b.decisions - a.decisions || compareService(a.service, b.service));
      return {
        choice,
        audited: total.complete + total.partial,
        complete: total.complete,
        partial: total.partial,
        undecidable: total.undecidable,
        inconsistent: total.inconsistent,
        examples: findings.slice(0, cfg.maxExamples),
        services: rows,
      };
    },
  };
  auditStates.set(audit, { choice, services, pooled: () => pooled, settledFindings, seq: () => seq });
  return audit;
}

function addTally(into: Tally, t: Tally): void {
  into.complete += t.complete;
  into.partial += t.partial;
  into.undecidable += t.undecidable;
  into.inconsistent += t.inconsistent;
}

function compareService(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}
