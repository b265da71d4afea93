/**
 * encodeRoutingAttributes — turn one tier-2 call (inputs and verdict) into span attributes.
 *
 * The layout is the one documented in docs/semconv.md and decoded by trace/decodeRoutingAttributes: parallel
 * arrays for the ranked candidates, flat keys for everything an analyzer filters on. No attribute ever holds
 * a non-finite number — the JS OTLP/JSON exporter writes those as null and the collector then rejects the
 * whole batch — so non-finite scores become 0 in the scores array and are recorded exactly beside it, and a
 * non-finite policy or scorer number is written as its string spelling ("NaN", "Infinity", "-Infinity").
 * A policy that carries only the effective floor (an agentfootprint event's) writes `floor_source` instead of
 * `policy.floor`. Pure.
 */
import type { Attributes, AttributeValue } from '@opentelemetry/api';
import type { Tier2Verdict } from '../policy/types.js';
import {
  ATTR_ROUTING_CANDIDATE_ALIVE_COUNT,
  ATTR_ROUTING_CANDIDATE_COUNT,
  ATTR_ROUTING_CANDIDATE_IDS,
  ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES,
  ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES,
  ATTR_ROUTING_CANDIDATE_OMITTED,
  ATTR_ROUTING_CANDIDATE_RELEVANCES,
  ATTR_ROUTING_CANDIDATE_SCORES,
  ATTR_ROUTING_DECISIVE,
  ATTR_ROUTING_EFFECTIVE_FLOOR,
  ATTR_ROUTING_FLOOR_DECLARED,
  ATTR_ROUTING_FLOOR_SOURCE,
  ATTR_ROUTING_INCUMBENT_ID,
  ATTR_ROUTING_INCUMBENT_SCORED,
  ATTR_ROUTING_NEAR_TIE,
  ATTR_ROUTING_OFFERED,
  ATTR_ROUTING_POLICY_FLOOR,
  ATTR_ROUTING_POLICY_MENU_SIZE,
  ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN,
  ATTR_ROUTING_RECORD_VERSION,
  ATTR_ROUTING_RUNNER_UP_GAP,
  ATTR_ROUTING_RUNNER_UP_ID,
  ATTR_ROUTING_SCORER_CATEGORICAL,
  ATTR_ROUTING_SCORER_FLOOR,
  ATTR_ROUTING_TIER,
  ATTR_ROUTING_TO,
  ATTR_ROUTING_TOP_ID,
  ATTR_ROUTING_TOP_RELEVANCE,
  ATTR_ROUTING_TOP_SCORE,
  ATTR_ROUTING_VERDICT,
  FLOOR_SOURCE_EFFECTIVE,
  ROUTING_RECORD_VERSION,
} from '../semconv/semconv.js';
import { carriesEffectiveFloor } from '../policy/floorSource.js';
import type { Tier2CallInput } from './types.js';
import { sinkInto } from './addRoutingContext.js';
import type { AttributeSink } from './addRoutingContext.js';

/** A finite number as itself; a non-finite one as its string spelling, so no exporter ever sees it. */
export function encodeNumber(value: number): number | string {
  if (Number.isFinite(value)) return value;
  // Stryker disable next-line EqualityOperator: equivalent — only non-finite values get here, so 0 never does.
  return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
}

/**
 * The attributes of one tier-2 decision; `maxCandidates` bounds the ranked arrays (the rest are counted;
 * a fractional bound keeps its whole part, a negative one records none, NaN records all).
 */
export function encodeRoutingAttributes(
  input: Tier2CallInput,
  verdict: Tier2Verdict,
  maxCandidates: number,
): Attributes {
  const attrs: Attributes = {};
  writeRoutingAttributes(sinkInto(attrs), input, verdict, maxCandidates);
  return attrs;
}

/**
 * The same attributes, in the same order, handed to `sink` one by one: the instrumentation passes the span
 * itself, which spares building a 20-odd-key object the SDK would only walk and copy.
 */
export function writeRoutingAttributes(
  sink: AttributeSink,
  input: Tier2CallInput,
  verdict: Tier2Verdict,
  maxCandidates: number,
): void {
  const { policy, incumbentId } = input;
  const scorer = input.scorer ?? {};
  const ranked = verdict.ranked;
  const total = ranked.length;
  // A NaN limit (a bad config value) must not cost the record or throw: keep every candidate.
  const limit = Number.isNaN(maxCandidates) ? total : Math.max(0, Math.floor(maxCandidates));
  const kept = Math.min(total, limit);
  const floor = policy.floor ?? scorer.floor;

  // Sized once and filled by index. Grown by push instead, each array is reallocated as it grows and the
  // numeric ones change element kind on their first fraction: about 1.1–1.4× the cost at 8 to 64 entries, the
  // SDK's own walk and copy of each array included (docs/performance.md, change 22).
  // Stryker disable next-line ArrayDeclaration: equivalent — a growing array ends with the same values.
  const ids = new Array<string>(kept);
  // Stryker disable next-line ArrayDeclaration: equivalent — a growing array ends with the same values.
  const scores = new Array<number>(kept);
  // Stryker disable next-line ArrayDeclaration: equivalent — a growing array ends with the same values.
  const relevances = new Array<number>(kept);
  let nonFiniteIndexes: number[] | undefined;
  let nonFiniteValues: string[] | undefined;
  for (let i = 0; i < kept; i++) {
    const c = ranked[i]!;
    ids[i] = c.id;
    relevances[i] = Number.isFinite(c.relevance) ? c.relevance : 0;
    if (Number.isFinite(c.score)) {
      scores[i] = c.score;
    } else {
      scores[i] = 0;
      (nonFiniteIndexes ??= []).push(i);
      (nonFiniteValues ??= []).push(encodeNumber(c.score) as string);
    }
  }
  let alive = 0;
  for (let i = 0; i < total; i++) {
    const s = ranked[i]!.score;
    if (Number.isFinite(s) && (floor === undefined || s > floor)) alive++;
  }

  sink.setAttribute(ATTR_ROUTING_RECORD_VERSION, ROUTING_RECORD_VERSION);
  sink.setAttribute(ATTR_ROUTING_TIER, 2);
  sink.setAttribute(ATTR_ROUTING_VERDICT, verdict.kind);
  sink.setAttribute(ATTR_ROUTING_DECISIVE, verdict.decisive);
  sink.setAttribute(ATTR_ROUTING_NEAR_TIE, !verdict.decisive && verdict.runnerUp !== undefined);
  sink.setAttribute(ATTR_ROUTING_CANDIDATE_COUNT, total);
  sink.setAttribute(ATTR_ROUTING_CANDIDATE_ALIVE_COUNT, alive);
  sink.setAttribute(ATTR_ROUTING_CANDIDATE_OMITTED, total - kept);
  sink.setAttribute(ATTR_ROUTING_CANDIDATE_IDS, ids);
  sink.setAttribute(ATTR_ROUTING_CANDIDATE_SCORES, scores);
  sink.setAttribute(ATTR_ROUTING_CANDIDATE_RELEVANCES, relevances);
  sink.setAttribute(ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN, encodeNumber(policy.nearTieMargin));
  sink.setAttribute(ATTR_ROUTING_POLICY_MENU_SIZE, encodeNumber(policy.menuSize));
  sink.setAttribute(ATTR_ROUTING_FLOOR_DECLARED, floor !== undefined);
  if (verdict.kind === 'move') sink.setAttribute(ATTR_ROUTING_TO, verdict.to);
  else if (verdict.kind === 'menu') sink.setAttribute(ATTR_ROUTING_OFFERED, verdict.offered.slice());
  if (nonFiniteIndexes !== undefined) {
    sink.setAttribute(ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES, nonFiniteIndexes);
    sink.setAttribute(ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES, nonFiniteValues as AttributeValue);
  }
  if (total > 0) {
    const top = ranked[0]!;
    sink.setAttribute(ATTR_ROUTING_TOP_ID, top.id);
    sink.setAttribute(ATTR_ROUTING_TOP_SCORE, encodeNumber(top.score));
    sink.setAttribute(ATTR_ROUTING_TOP_RELEVANCE, encodeNumber(top.relevance));
  }
  if (verdict.runnerUp !== undefined) {
    sink.setAttribute(ATTR_ROUTING_RUNNER_UP_ID, verdict.runnerUp.id);
    sink.setAttribute(ATTR_ROUTING_RUNNER_UP_GAP, encodeNumber(verdict.runnerUp.gap));
  }
  if (incumbentId !== undefined) {
    sink.setAttribute(ATTR_ROUTING_INCUMBENT_ID, incumbentId);
    let scored = false;
    for (const s of input.scores) {
      if (s.id === incumbentId) {
        scored = true;
        break;
      }
    }
    sink.setAttribute(ATTR_ROUTING_INCUMBENT_SCORED, scored);
  }
  // An event's policy carries the effective floor, the policy's or the scorer's: recorded as that, never as
  // either one's own (policy/floorSource.ts).
  if (carriesEffectiveFloor(policy)) sink.setAttribute(ATTR_ROUTING_FLOOR_SOURCE, FLOOR_SOURCE_EFFECTIVE);
  else if (policy.floor !== undefined)
    sink.setAttribute(ATTR_ROUTING_POLICY_FLOOR, encodeNumber(policy.floor));
  if (scorer.floor !== undefined) sink.setAttribute(ATTR_ROUTING_SCORER_FLOOR, encodeNumber(scorer.floor));
  if (scorer.categorical !== undefined)
    sink.setAttribute(ATTR_ROUTING_SCORER_CATEGORICAL, scorer.categorical);
  if (floor !== undefined) sink.setAttribute(ATTR_ROUTING_EFFECTIVE_FLOOR, encodeNumber(floor));
}
