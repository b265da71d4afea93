/**
 * explainDecisions — the post-mortem of one trace or conversation: every routing decision, why, and what
 * would have changed it.
 *
 * Given a trace id or a `gen_ai.conversation.id`, this keeps only the records that belong to it (decisions,
 * turn routes, misroute marks), in time order, and for each decision states the verdict in one plain sentence
 * from the recorded numbers, replays it (so a verdict the policy does not reproduce is flagged) and finds the
 * counterfactuals. Feedback and turn spans without a conversation id are joined through their trace id, so a
 * bounded number of them is held until the end. It is the one analysis that keeps records, and only those
 * of the target. Each decision is judged by the behaviour its service runs (`policy`, see policyAudit): under
 * `auto` every decision read counts as evidence, and the target's are judged at the end. Pure. No I/O.
 */
import type { PolicySemantics } from '../policy/types.js';
import type { DecisionRecord, MisrouteRecord, TraceRecord, TurnRecord } from '../record/types.js';
import { detectAnomalies, type Anomaly } from './detectAnomalies.js';
import { findCounterfactuals, type CounterfactualSet } from './findCounterfactuals.js';
import { createPolicyAudit, type PolicyChoice } from './policyAudit.js';
import { formatScoreValue, formatThreshold } from './formatFigures.js';
import type { ReplayOutcome } from './replayDecision.js';
import { resolveConfig } from './resolveConfig.js';

/** Options of `explain`. */
export interface ExplainConfig {
  /** Records of the target kept; further ones are counted in `truncated`. @default 10000 */
  readonly maxRecords: number;
  /** Records without a conversation id held for the trace-id join. @default 10000 */
  readonly maxPending: number;
  /** Which behaviour judges (`--policy`). @default 'auto' */
  readonly policy: PolicyChoice;
}

/** The defaults `explainDecisions` uses. */
export const DEFAULT_EXPLAIN_CONFIG: ExplainConfig = Object.freeze({
  maxRecords: 10_000,
  maxPending: 10_000,
  policy: 'auto',
});

/** One explained decision. */
export interface ExplainedDecision {
  readonly kind: 'decision';
  readonly record: DecisionRecord;
  /** The behaviour that judged the replay and the counterfactuals. */
  readonly semantics: PolicySemantics;
  /** The verdict and its reason, in one sentence, from the recorded numbers. */
  readonly why: string;
  readonly replay: ReplayOutcome;
  readonly anomalies: readonly Anomaly[];
  readonly counterfactuals: CounterfactualSet;
}

/** One entry of the timeline. */
export type ExplainEntry =
  | ExplainedDecision
  | { readonly kind: 'turn'; readonly record: TurnRecord }
  | { readonly kind: 'misroute'; readonly record: MisrouteRecord };

/** The explain report. */
export interface ExplainReport {
  readonly kind: 'explain';
  readonly target: string;
  /** What the target matched: trace ids, conversation ids, both, or nothing. */
  readonly matchedBy: readonly ('trace' | 'conversation')[];
  readonly traceIds: readonly string[];
  /** Of `traceIds`, those routescope synthesized for event-log records: no trace store holds them. */
  readonly syntheticTraceIds: readonly string[];
  readonly conversationIds: readonly string[];
  readonly decisions: number;
  /** Records matched and kept (decisions, turn routes, misroute marks), all of them whatever `entries` holds. */
  readonly records: number;
  /** Of those, turn routes and misroute marks. */
  readonly turns: number;
  readonly marks: number;
  /** Time order (span start), then input order: all the records, or the page `finish` was asked for. */
  readonly entries: readonly ExplainEntry[];
  /** Matching records beyond `maxRecords`, not kept. */
  readonly truncated: number;
  /** Records without a conversation id that could not be held for the trace-id join. */
  readonly pendingDropped: number;
  /**
   * When the target is a trace-id prefix that matched more than one trace (and nothing matched exactly):
   * the first few of those trace ids. The report then has no entries.
   */
  readonly ambiguous?: readonly string[];
}

/** Which of the matched records to explain: `count` of them from the `from`-th, in time order. */
export interface ExplainPageRange {
  readonly from: number;
  readonly count: number;
}

/**
 * A streaming explain: feed records, then `finish()`. Explaining a decision (its replay and counterfactuals) is
 * the costly part, so `finish(page)` explains only that page's records, the counts still over all of them; it
 * may be called again for another page (records added after the first `finish` are not taken).
 */
export interface ExplainAnalysis {
  add(record: TraceRecord): void;
  finish(page?: ExplainPageRange): ExplainReport;
}

// Stryker disable next-line Regex: equivalent — a target that is not all hex digits, or longer, can equal no trace id.
const TRACE_ID = /^[0-9a-f]{32}$/i;
/** A trace-id prefix explain accepts: 8 to 31 hex digits (a shorter one would match too many traces). */
// Stryker disable next-line Regex: equivalent — a target that is not all hex digits can start no trace id.
const TRACE_ID_PREFIX = /^[0-9a-f]{8,31}$/i;
/** Trace ids an ambiguous prefix lists. */
const MAX_AMBIGUOUS = 10;

/**
 * Start explaining `target`: a trace id (any case), a unique prefix of one (8 digits or more, as reports
 * that cut ids show them), or a conversation id. An exact match wins over a prefix.
 */
export function createExplainAnalysis(target: string, config: Partial<ExplainConfig> = {}): ExplainAnalysis {
  const cfg = resolveConfig(DEFAULT_EXPLAIN_CONFIG, config);
  const traceTarget = TRACE_ID.test(target) ? target.toLowerCase() : undefined;
  const prefix = TRACE_ID_PREFIX.test(target) ? target.toLowerCase() : undefined;
  // Records of the first trace the prefix matched, and the other trace ids it matched (for the message).
  const byPrefix: { seq: number; record: TraceRecord }[] = [];
  // Records of that trace past maxRecords: truncated, should the prefix turn out to be the match.
  let prefixTruncated = 0;
  let prefixTrace: string | undefined;
  const otherPrefixTraces = new Set<string>();
  const kept: { seq: number; record: TraceRecord }[] = [];
  const pending: { seq: number; record: TraceRecord }[] = [];
  const matchedBy = new Set<'trace' | 'conversation'>();
  let seq = 0;
  let truncated = 0;
  let pendingDropped = 0;
  let settled = false;
  let ambiguous: string[] | undefined;
  // Under `auto` every decision is evidence of its service's behaviour; a forced one needs none.
  // Stryker disable next-line ObjectLiteral: equivalent — explain reads no examples from the audit.
  const audit = createPolicyAudit(cfg.policy, { maxExamples: 0 });

  const keep = (item: { seq: number; record: TraceRecord }): void => {
    if (kept.length < cfg.maxRecords) kept.push(item);
    else truncated++;
  };

  return {
    add(record: TraceRecord): void {
      const item = { seq: seq++, record };
      if (record.kind === 'decision' && cfg.policy === 'auto') audit.add(record);
      const byTrace = traceTarget !== undefined && record.traceId.toLowerCase() === traceTarget;
      const byConversation = record.conversationId !== undefined && record.conversationId === target;
      if (byTrace) matchedBy.add('trace');
      if (byConversation) matchedBy.add('conversation');
      if (byTrace || byConversation) keep(item);
      else if (prefix !== undefined && record.traceId.toLowerCase().startsWith(prefix)) {
        const id = record.traceId.toLowerCase();
        prefixTrace ??= id;
        if (id === prefixTrace) {
          // Stryker disable next-line EqualityOperator: equivalent — keep() caps and counts them again at the end; this cap only bounds memory.
          if (byPrefix.length < cfg.maxRecords) byPrefix.push(item);
          else prefixTruncated++;
        } else if (otherPrefixTraces.size < MAX_AMBIGUOUS) otherPrefixTraces.add(id);
      } else if (record.conversationId === undefined) {
        if (pending.length < cfg.maxPending) pending.push(item);
        else pendingDropped++;
      }
    },
    finish(page?: ExplainPageRange): ExplainReport {
      if (!settled) {
        settled = true;
        if (matchedBy.size === 0 && prefixTrace !== undefined) {
          if (otherPrefixTraces.size > 0) ambiguous = [prefixTrace, ...otherPrefixTraces];
          else {
            matchedBy.add('trace');
            for (const item of byPrefix) keep(item);
            truncated += prefixTruncated;
          }
        }
        const traces = new Set(kept.map((k) => k.record.traceId.toLowerCase()));
        for (const p of pending) if (traces.has(p.record.traceId.toLowerCase())) keep(p);
        kept.sort((a, b) => a.record.timeUnixMs - b.record.timeUnixMs || a.seq - b.seq);
      }
      const conversations = new Set<string>();
      const kinds = { decision: 0, turn: 0, misroute: 0 };
      for (const k of kept) {
        kinds[k.record.kind]++;
        if (k.record.conversationId !== undefined) conversations.add(k.record.conversationId);
      }
      const shown = page === undefined ? kept : kept.slice(page.from, page.from + page.count);
      const entries = shown.map((k) =>
        toEntry(k.record, k.record.kind === 'decision' ? audit.judge(k.record) : 'contract'),
      );
      return {
        kind: 'explain',
        target,
        matchedBy: (['trace', 'conversation'] as const).filter((m) => matchedBy.has(m)),
        traceIds: [...new Set(kept.map((k) => k.record.traceId))],
        syntheticTraceIds: [
          ...new Set(kept.filter((k) => k.record.syntheticTraceId === true).map((k) => k.record.traceId)),
        ],
        conversationIds: [...conversations],
        decisions: kinds.decision,
        records: kept.length,
        turns: kinds.turn,
        marks: kinds.misroute,
        entries,
        truncated,
        pendingDropped: matchedBy.size === 0 ? 0 : pendingDropped,
        ...(ambiguous === undefined ? {} : { ambiguous }),
      };
    },
  };
}

/** Explain `target` over a finite list of records (tests, small inputs). */
export function explainDecisions(
  records: Iterable<TraceRecord>,
  target: string,
  config: Partial<ExplainConfig> = {},
): ExplainReport {
  const analysis = createExplainAnalysis(target, config);
  for (const r of records) analysis.add(r);
  return analysis.finish();
}

function toEntry(record: TraceRecord, semantics: PolicySemantics): ExplainEntry {
  if (record.kind === 'turn') return { kind: 'turn', record };
  if (record.kind === 'misroute') return { kind: 'misroute', record };
  const check = detectAnomalies(record, semantics);
  return {
    kind: 'decision',
    record,
    semantics,
    why: describeVerdict(record),
    replay: check.replay,
    anomalies: check.anomalies,
    counterfactuals: findCounterfactuals(record, semantics),
  };
}

/** The recorded verdict and its reason in one plain sentence. */
export function describeVerdict(d: DecisionRecord): string {
  const top = d.ranked[0];
  const floor = d.effectiveFloor;
  const floorText = floor === undefined ? '' : ` above the floor ${formatThreshold(floor)}`;
  const incumbent = d.incumbent?.id;
  const margin = formatThreshold(d.policy.nearTieMargin);

  if (d.verdict === 'unmatched') {
    if (top === undefined) return 'No candidate was scored, so nothing matched: unmatched.';
    if (!Number.isFinite(top.score))
      return 'Every score was non-finite, so no candidate could win: unmatched.';
    return `No candidate scored${floorText} (the best, ${top.id}, scored ${formatScoreValue(top.score)}), so nothing matched: unmatched.`;
  }
  const winner = d.verdict === 'move' ? d.to! : (top?.id ?? String(incumbent));
  const outcome =
    d.verdict === 'move'
      ? `tier 2 moved to ${d.to!}`
      : d.verdict === 'stay'
        ? `the turn stayed on ${String(incumbent ?? winner)}`
        : `a menu of [${(d.offered ?? []).join(', ')}] was offered`;
  if (d.decisive) {
    if (d.scorerTraits.categorical === true) {
      return `The categorical scorer picked ${winner}, which is decisive by construction, so ${outcome}.`;
    }
    if (d.runnerUp === undefined) return `Only ${winner} was alive${floorText}, so ${outcome}.`;
    return `${winner} beat ${d.runnerUp.id} by a gap of ${formatScoreValue(d.runnerUp.gap)} >= the margin ${margin}, so ${outcome}.`;
  }
  const tied =
    d.runnerUp === undefined
      ? `The decision was not decisive`
      : `${top?.id ?? '?'} and ${d.runnerUp.id} were within a gap of ${formatScoreValue(d.runnerUp.gap)} < the margin ${margin}`;
  if (d.verdict === 'stay') {
    return `${tied}, and with the incumbent ${String(incumbent)} in place ambiguity keeps it: ${outcome}.`;
  }
  if (d.verdict === 'menu') {
    if (incumbent !== undefined) {
      return `${tied}, and the incumbent ${incumbent} scored at or below the floor${floor === undefined ? '' : ` ${formatThreshold(floor)}`}, so ${outcome} among the new candidates.`;
    }
    return `${tied} at cold start (no incumbent), so ${outcome}.`;
  }
  return `${tied}, yet ${outcome}.`;
}
