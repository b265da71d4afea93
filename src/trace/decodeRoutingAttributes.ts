/**
 * decodeRoutingAttributes — rebuild a recorded decision from a routing span's attributes.
 *
 * Every reader flattens its format's attributes into a plain key → value map and hands it here, so the
 * attribute layout is decoded in one place. Numbers are accepted as numbers or as the strings a Go
 * collector writes ("NaN", "Infinity", "-Infinity", decimal int64); arrays also as the JSON text Jaeger
 * puts in string tags. A span missing a required attribute is `incomplete`: reported, never guessed.
 * Pure.
 */
import type { Mutable } from '../policy/readEventFields.js';
import { POLICY_SEMANTICS } from '../policy/routingPolicy.js';
import type {
  PolicySemantics,
  RoutingPolicy,
  ScorerTraits,
  Tier2VerdictKind,
  TurnRouteBy,
} from '../policy/types.js';
import {
  ATTR_ROUTING_BY,
  ATTR_ROUTING_CANDIDATE_ALIVE_COUNT,
  ATTR_ROUTING_CANDIDATE_COUNT,
  ATTR_ROUTING_CANDIDATE_IDS,
  ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES,
  ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES,
  ATTR_ROUTING_CANDIDATE_OMITTED,
  ATTR_ROUTING_CANDIDATE_RELEVANCES,
  ATTR_ROUTING_CANDIDATE_SCORES,
  ATTR_ROUTING_DECIDER_MODEL,
  ATTR_ROUTING_DECIDER_PICKED,
  ATTR_ROUTING_DECIDER_PROVIDER,
  ATTR_ROUTING_DECISIVE,
  ATTR_ROUTING_DROPPED_RESUME_ID,
  ATTR_ROUTING_DROPPED_RESUME_REASON,
  ATTR_ROUTING_EFFECTIVE_FLOOR,
  ATTR_ROUTING_FLOOR_DECLARED,
  ATTR_ROUTING_FLOOR_SOURCE,
  ATTR_ROUTING_FROM,
  ATTR_ROUTING_INCUMBENT_ID,
  ATTR_ROUTING_INCUMBENT_SCORED,
  ATTR_ROUTING_NEAR_TIE,
  ATTR_ROUTING_OFFERED,
  ATTR_ROUTING_POLICY_FLOOR,
  ATTR_ROUTING_POLICY_MENU_SIZE,
  ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN,
  ATTR_ROUTING_POLICY_SEMANTICS,
  ATTR_ROUTING_REBUILT_DIFFERENCES,
  ATTR_ROUTING_REBUILT_VERDICT,
  ATTR_ROUTING_RUNNER_UP_GAP,
  ATTR_ROUTING_RUNNER_UP_ID,
  ATTR_ROUTING_SCORER_CATEGORICAL,
  ATTR_ROUTING_SCORER_FLOOR,
  ATTR_ROUTING_SCORER_WINDOW,
  ATTR_ROUTING_SOURCE,
  ATTR_ROUTING_STAY_OFFERED,
  ATTR_ROUTING_TO,
  ATTR_ROUTING_VERDICT,
  ATTR_ROUTING_WITNESS_KEYWORD,
  ATTR_ROUTING_WITNESS_TEXT,
  FLOOR_SOURCE_EFFECTIVE,
} from '../semconv/semconv.js';
import type { RecordedBy, RecordedDecision } from '../record/types.js';
import type { AttributeMap, AttributeValue } from './internal-types.js';

/** The outcome of decoding: the decision, or what was missing or malformed. */
export type DecodeResult<T> =
  { readonly kind: 'ok'; readonly value: T } | { readonly kind: 'incomplete'; readonly reason: string };

const VERDICTS: ReadonlySet<string> = new Set(['move', 'stay', 'menu', 'unmatched']);
const SEMANTICS: ReadonlySet<string> = new Set(POLICY_SEMANTICS);
const SOURCES: ReadonlySet<string> = new Set<RecordedBy>(['wrapper', 'turn_routed']);
const TURN_BY: ReadonlySet<string> = new Set(['entry', 'intent', 'continuity', 'menu', 'decider', 'none']);

/** A number from a number, a numeric string, or one of the non-finite spellings; undefined otherwise. */
export function toNumber(value: AttributeValue | undefined): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  switch (value) {
    case 'NaN':
      return NaN;
    case 'Infinity':
    case '+Infinity':
    case 'Inf':
      return Infinity;
    case '-Infinity':
    case '-Inf':
      return -Infinity;
  }
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  const n = Number(trimmed);
  return Number.isNaN(n) ? undefined : n;
}

function toBool(value: AttributeValue | undefined): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

function toStr(value: AttributeValue | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** An array, or the JSON text of one (Jaeger stores array attributes as string tags). */
function toArray(value: AttributeValue | undefined): readonly AttributeValue[] | undefined {
  if (Array.isArray(value)) return value as readonly AttributeValue[];
  if (typeof value === 'string' && value.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(value);
      return Array.isArray(parsed) ? (parsed as AttributeValue[]) : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function toStringArray(value: AttributeValue | undefined): string[] | undefined {
  const arr = toArray(value);
  if (arr === undefined) return undefined;
  const out: string[] = [];
  for (const v of arr) {
    const s = toStr(v);
    if (s === undefined) return undefined;
    out.push(s);
  }
  return out;
}

function toNumberArray(value: AttributeValue | undefined): number[] | undefined {
  const arr = toArray(value);
  if (arr === undefined) return undefined;
  const out: number[] = [];
  for (const v of arr) {
    // null is how the JS exporter serializes a non-finite double; keep it as NaN rather than drop the span.
    const n = v === null ? NaN : toNumber(v);
    if (n === undefined) return undefined;
    out.push(n);
  }
  return out;
}

/** Is this attribute map a tier-2 routing decision (it names a verdict)? */
export function hasRoutingVerdict(attrs: AttributeMap): boolean {
  return attrs.has(ATTR_ROUTING_VERDICT);
}

/** Decode the tier-2 decision recorded in `attrs`. */
export function decodeRoutingAttributes(attrs: AttributeMap): DecodeResult<RecordedDecision> {
  const missing: string[] = [];
  const need = <T>(key: string, value: T | undefined): T | undefined => {
    if (value === undefined) missing.push(key);
    return value;
  };
  const verdictRaw = need(ATTR_ROUTING_VERDICT, toStr(attrs.get(ATTR_ROUTING_VERDICT)));
  const decisive = need(ATTR_ROUTING_DECISIVE, toBool(attrs.get(ATTR_ROUTING_DECISIVE)));
  const ids = need(ATTR_ROUTING_CANDIDATE_IDS, toStringArray(attrs.get(ATTR_ROUTING_CANDIDATE_IDS)));
  const scores = need(ATTR_ROUTING_CANDIDATE_SCORES, toNumberArray(attrs.get(ATTR_ROUTING_CANDIDATE_SCORES)));
  const relevances = need(
    ATTR_ROUTING_CANDIDATE_RELEVANCES,
    toNumberArray(attrs.get(ATTR_ROUTING_CANDIDATE_RELEVANCES)),
  );
  const margin = need(
    ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN,
    toNumber(attrs.get(ATTR_ROUTING_POLICY_NEAR_TIE_MARGIN)),
  );
  const menuSize = need(ATTR_ROUTING_POLICY_MENU_SIZE, toNumber(attrs.get(ATTR_ROUTING_POLICY_MENU_SIZE)));
  const floorDeclared = need(ATTR_ROUTING_FLOOR_DECLARED, toBool(attrs.get(ATTR_ROUTING_FLOOR_DECLARED)));
  if (missing.length > 0)
    return { kind: 'incomplete', reason: `missing or malformed: ${missing.join(', ')}` };
  if (!VERDICTS.has(verdictRaw!))
    return { kind: 'incomplete', reason: `unknown verdict ${JSON.stringify(verdictRaw)}` };
  if (ids!.length !== scores!.length || ids!.length !== relevances!.length) {
    return {
      kind: 'incomplete',
      reason: `candidate arrays differ in length (ids ${ids!.length}, scores ${scores!.length}, relevances ${relevances!.length})`,
    };
  }
  const restored = restoreNonFinite(scores!, attrs);
  if (typeof restored === 'string') return { kind: 'incomplete', reason: restored };
  const verdict = verdictRaw as Tier2VerdictKind;

  const onlyEffective = carriesOnlyEffectiveFloor(attrs);
  const recordedPolicyFloor = toNumber(attrs.get(ATTR_ROUTING_POLICY_FLOOR));
  const policyFloor = onlyEffective ? undefined : recordedPolicyFloor;
  const policy: RoutingPolicy =
    policyFloor === undefined
      ? { nearTieMargin: margin!, menuSize: menuSize! }
      : { nearTieMargin: margin!, menuSize: menuSize!, floor: policyFloor };
  const scorerFloor = toNumber(attrs.get(ATTR_ROUTING_SCORER_FLOOR));
  const categorical = toBool(attrs.get(ATTR_ROUTING_SCORER_CATEGORICAL));
  const scorerTraits: Mutable<ScorerTraits> = {};
  if (scorerFloor !== undefined) scorerTraits.floor = scorerFloor;
  if (categorical !== undefined) scorerTraits.categorical = categorical;
  const effectiveFloor =
    toNumber(attrs.get(ATTR_ROUTING_EFFECTIVE_FLOOR)) ?? recordedPolicyFloor ?? scorerFloor;

  const to = toStr(attrs.get(ATTR_ROUTING_TO));
  const offered = toStringArray(attrs.get(ATTR_ROUTING_OFFERED));
  if (verdict === 'move' && to === undefined)
    return { kind: 'incomplete', reason: `move without ${ATTR_ROUTING_TO}` };
  if (verdict === 'menu' && offered === undefined) {
    return { kind: 'incomplete', reason: `menu without ${ATTR_ROUTING_OFFERED}` };
  }
  const runnerUpId = toStr(attrs.get(ATTR_ROUTING_RUNNER_UP_ID));
  const runnerUpGap = toNumber(attrs.get(ATTR_ROUTING_RUNNER_UP_GAP));
  const incumbentId = toStr(attrs.get(ATTR_ROUTING_INCUMBENT_ID));
  const omitted = toNumber(attrs.get(ATTR_ROUTING_CANDIDATE_OMITTED)) ?? 0;
  const candidateCount = toNumber(attrs.get(ATTR_ROUTING_CANDIDATE_COUNT)) ?? ids!.length + omitted;
  const aliveCount = toNumber(attrs.get(ATTR_ROUTING_CANDIDATE_ALIVE_COUNT));
  const nearTie =
    toBool(attrs.get(ATTR_ROUTING_NEAR_TIE)) ??
    (!decisive! && runnerUpId !== undefined && runnerUpGap !== undefined);
  // Assigned in the order the fields were always written (a record's JSON keeps its key order), one object
  // built where a dozen conditional spreads built one each.
  const value = { verdict } as Mutable<RecordedDecision>;
  if (verdict === 'move') value.to = to!;
  if (verdict === 'menu') value.offered = offered!;
  value.decisive = decisive!;
  value.nearTie = nearTie;
  value.ranked = ids!.map((id, i) => ({ id, score: restored[i]!, relevance: relevances![i]! }));
  value.candidateCount = candidateCount;
  value.omitted = omitted;
  if (aliveCount !== undefined) value.aliveCount = aliveCount;
  if (runnerUpId !== undefined && runnerUpGap !== undefined)
    value.runnerUp = { id: runnerUpId, gap: runnerUpGap };
  if (incumbentId !== undefined)
    value.incumbent = {
      id: incumbentId,
      scored: toBool(attrs.get(ATTR_ROUTING_INCUMBENT_SCORED)) ?? ids!.includes(incumbentId),
    };
  value.policy = policy;
  value.scorerTraits = scorerTraits;
  if (effectiveFloor !== undefined) value.effectiveFloor = effectiveFloor;
  if (onlyEffective && effectiveFloor !== undefined) value.floorSource = FLOOR_SOURCE_EFFECTIVE;
  value.floorDeclared = floorDeclared!;
  addProvenance(value, attrs);
  return { kind: 'ok', value };
}

/**
 * Does the span know only the floor that judged, not whose it was? Said by `floor_source = effective`. A span
 * the agentfootprint strategy wrote before that key existed has `source = turn_routed` and the event's floor
 * as `policy.floor`: that floor was the effective one, and is read the same way. Any other value of
 * `floor_source` is not one this routescope writes: the floors are read as the span states them.
 */
function carriesOnlyEffectiveFloor(attrs: AttributeMap): boolean {
  const stated = toStr(attrs.get(ATTR_ROUTING_FLOOR_SOURCE));
  if (stated !== undefined) return stated === FLOOR_SOURCE_EFFECTIVE;
  return toStr(attrs.get(ATTR_ROUTING_SOURCE)) === 'turn_routed' && attrs.has(ATTR_ROUTING_POLICY_FLOOR);
}

/**
 * Which behaviour judged, which path wrote the record, the scorer's window and the rebuilt verdict. All
 * optional: a value this routescope does not know (a behaviour a newer release adds, say) is left out rather
 * than refused — the decision itself is whole, and `--policy auto` infers the behaviour of a record without one.
 */
function addProvenance(into: Mutable<RecordedDecision>, attrs: AttributeMap): void {
  const semantics = toStr(attrs.get(ATTR_ROUTING_POLICY_SEMANTICS));
  const source = toStr(attrs.get(ATTR_ROUTING_SOURCE));
  const window = toNumber(attrs.get(ATTR_ROUTING_SCORER_WINDOW));
  const rebuiltVerdict = toStr(attrs.get(ATTR_ROUTING_REBUILT_VERDICT));
  if (semantics !== undefined && SEMANTICS.has(semantics)) into.semantics = semantics as PolicySemantics;
  if (source !== undefined && SOURCES.has(source)) into.recordedBy = source as RecordedBy;
  if (window !== undefined && Number.isFinite(window)) into.scorerWindow = window;
  if (rebuiltVerdict !== undefined && VERDICTS.has(rebuiltVerdict))
    into.rebuilt = {
      verdict: rebuiltVerdict as Tier2VerdictKind,
      differences: toStringArray(attrs.get(ATTR_ROUTING_REBUILT_DIFFERENCES)) ?? [],
    };
}

/** Put the recorded non-finite scores back at their indexes; a string names what was inconsistent. */
function restoreNonFinite(scores: number[], attrs: AttributeMap): number[] | string {
  const indexesRaw = attrs.get(ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES);
  if (indexesRaw === undefined) return scores;
  const indexes = toNumberArray(indexesRaw);
  const values = toNumberArray(attrs.get(ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES));
  if (indexes === undefined || values === undefined || indexes.length !== values.length) {
    return `${ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES} and ${ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES} do not pair up`;
  }
  const out = scores.slice();
  for (let k = 0; k < indexes.length; k++) {
    const at = indexes[k]!;
    if (!Number.isInteger(at) || at < 0 || at >= out.length) return `non-finite index ${at} is out of range`;
    out[at] = values[k]!;
  }
  return out;
}

/** The turn-level route recorded in `attrs` (tiers 1 and 3), or undefined when `by` is absent or unknown. */
export function decodeTurnAttributes(attrs: AttributeMap):
  | {
      by: TurnRouteBy;
      from?: string;
      to?: string;
      offered?: string[];
      stayOffered?: boolean;
      witnessKeyword?: string;
      witnessText?: string;
      droppedResume?: { id?: string; reason?: string };
      decider?: { provider?: string; model?: string; picked?: string };
    }
  | undefined {
  const by = toStr(attrs.get(ATTR_ROUTING_BY));
  if (by === undefined || !TURN_BY.has(by)) return undefined;
  const pick = (key: string): string | undefined => toStr(attrs.get(key));
  const out: ReturnType<typeof decodeTurnAttributes> & object = { by: by as TurnRouteBy };
  const from = pick(ATTR_ROUTING_FROM);
  if (from !== undefined) out.from = from;
  const to = pick(ATTR_ROUTING_TO);
  if (to !== undefined) out.to = to;
  const offered = toStringArray(attrs.get(ATTR_ROUTING_OFFERED));
  if (offered !== undefined) out.offered = offered;
  const stayOffered = toBool(attrs.get(ATTR_ROUTING_STAY_OFFERED));
  if (stayOffered !== undefined) out.stayOffered = stayOffered;
  const witnessKeyword = pick(ATTR_ROUTING_WITNESS_KEYWORD);
  if (witnessKeyword !== undefined) out.witnessKeyword = witnessKeyword;
  const witnessText = pick(ATTR_ROUTING_WITNESS_TEXT);
  if (witnessText !== undefined) out.witnessText = witnessText;
  const droppedId = pick(ATTR_ROUTING_DROPPED_RESUME_ID);
  const droppedReason = pick(ATTR_ROUTING_DROPPED_RESUME_REASON);
  if (droppedId !== undefined || droppedReason !== undefined) {
    out.droppedResume = {
      ...(droppedId === undefined ? {} : { id: droppedId }),
      ...(droppedReason === undefined ? {} : { reason: droppedReason }),
    };
  }
  const provider = pick(ATTR_ROUTING_DECIDER_PROVIDER);
  const model = pick(ATTR_ROUTING_DECIDER_MODEL);
  const picked = pick(ATTR_ROUTING_DECIDER_PICKED);
  if (provider !== undefined || model !== undefined || picked !== undefined) {
    out.decider = {
      ...(provider === undefined ? {} : { provider }),
      ...(model === undefined ? {} : { model }),
      ...(picked === undefined ? {} : { picked }),
    };
  }
  return out;
}
