/**
 * routingPolicy — agentfootprint's tier-2 routing verdict, written to its published contract.
 *
 * routescope replays recorded decisions under other thresholds and audits recorded verdicts, so it needs the
 * policy itself, bit for bit: sanitization (non-finite scores never win but stay raw on the record), the
 * effective floor (`policy.floor ?? scorer.floor`, AT the floor is out), the pairwise margin
 * `tanh((top − second) / 2)` (count-independent), and the menu rules. Two behaviours are published and both are
 * here (`createDecideTier2`): the contract's, whose newer clause makes a near-tie with an incumbent the scorer
 * put at/below the floor a menu of the new candidates, and agentfootprint 9.62's, the release real agents run,
 * where any near-tie with an incumbent stays. Duplicate candidate ids are judged as 9.62 judges them in both:
 * each entry ranks by its own score, but alive / top / runner-up / gap / menu read its id's LAST score.
 * Policy values are not validated here, exactly as upstream: observers flag odd policies, the policy judges.
 * Pure. No I/O.
 */
import type {
  DecideTier2,
  IntentScore,
  PolicySemantics,
  RankedIntentScore,
  RoutingPolicy,
  ScorerTraits,
  Tier2Verdict,
  TurnRoute,
} from './types.js';
import { judgedScores } from './judgedScores.js';

/** The published behaviours of the policy, in the order `--policy` lists them. */
export const POLICY_SEMANTICS: readonly PolicySemantics[] = Object.freeze([
  'contract',
  'agentfootprint-9.62',
]);

/** Pairwise (top-2 softmax) gap below which tier 2 is a NEAR-TIE. */
export const NEAR_TIE_MARGIN = 0.15;

/** How many near-tied candidates the tier-3 menu offers (plus STAY). */
export const MENU_SIZE = 3;

/** The defaults, as one value — what an undeclared policy resolves to. */
export const DEFAULT_ROUTING_POLICY: RoutingPolicy = Object.freeze({
  nearTieMargin: NEAR_TIE_MARGIN,
  menuSize: MENU_SIZE,
});

/** Fill a partial override against the defaults; `floor` is kept only when it is defined. Pure. */
export function resolveRoutingPolicy(policy?: Partial<RoutingPolicy>): RoutingPolicy {
  const resolved: { nearTieMargin: number; menuSize: number; floor?: number } = {
    nearTieMargin: policy?.nearTieMargin ?? NEAR_TIE_MARGIN,
    menuSize: policy?.menuSize ?? MENU_SIZE,
  };
  if (policy?.floor !== undefined) resolved.floor = policy.floor;
  return resolved;
}

/** The score a candidate is ranked and judged by: raw when finite, −Infinity otherwise. */
export function sanitizeScore(score: number): number {
  return Number.isFinite(score) ? score : -Infinity;
}

/** The pairwise top-2 softmax gap the margin is compared with: `tanh((top − second) / 2)`. */
export function pairwiseGap(top: number, second: number): number {
  return Math.tanh((top - second) / 2);
}

/**
 * Full softmax over sanitized scores (max-subtracted; dead candidates get 0). Falls back to uniform 1/N when
 * the sum is 0 or non-finite, which is the case when every score is non-finite.
 */
export function softmaxRelevance(sanitized: readonly number[]): number[] {
  const n = sanitized.length;
  if (n === 0) return [];
  let max = -Infinity;
  // Stryker disable next-line EqualityOperator: equivalent — index n reads undefined (never > max); `>=` keeps the same max.
  for (let i = 0; i < n; i++) if (sanitized[i]! > max) max = sanitized[i]!;
  // Sized once: pushing would grow (and copy) the array several times on long candidate lists.
  // Stryker disable next-line ArrayDeclaration: equivalent — a growing array ends with the same values.
  const out = new Array<number>(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const e = Math.exp(sanitized[i]! - max);
    out[i] = e;
    sum += e;
  }
  // Stryker disable next-line ConditionalExpression: equivalent for `sum === 0` — the max's own term is exp(0) = 1, so sum ≥ 1 or NaN.
  if (sum === 0 || !Number.isFinite(sum)) {
    for (let i = 0; i < n; i++) out[i] = 1 / n;
    return out;
  }
  for (let i = 0; i < n; i++) out[i] = out[i]! / sum;
  return out;
}

/** The floor that judges: the policy's override, else the scorer's declared one; undefined = no floor. */
export function effectiveFloor(policy: RoutingPolicy, scorer: ScorerTraits = {}): number | undefined {
  return policy.floor ?? scorer.floor;
}

/** Alive = a sanitized score that is finite and strictly above the floor (a score AT the floor is out). */
export function isAlive(sanitized: number, floor: number | undefined): boolean {
  return sanitized !== -Infinity && (floor === undefined || sanitized > floor);
}

/**
 * THE verdict function, to the contract — pure, sync. Decisive winner ≠ incumbent → `move`; decisive winner =
 * incumbent, or a near-tie with an incumbent → `stay`, unless the scorer scored that incumbent at/below the
 * floor, when the tie is between new candidates → `menu`; near-tie at cold start → `menu` of the tied cluster
 * (capped at max(2, menuSize)); nothing alive → `unmatched`.
 */
export function decideTier2(
  scores: readonly IntentScore[],
  incumbentId: string | undefined,
  policy: RoutingPolicy,
  scorer: ScorerTraits = {},
): Tier2Verdict {
  return judgeTier2(scores, incumbentId, policy, scorer, true, undefined, sanitizeScores(scores));
}

/** agentfootprint 9.62's verdict: the contract's, less the incumbent-at/below-floor clause. Pure. */
function decideTier2As962(
  scores: readonly IntentScore[],
  incumbentId: string | undefined,
  policy: RoutingPolicy,
  scorer: ScorerTraits = {},
): Tier2Verdict {
  return judgeTier2(scores, incumbentId, policy, scorer, false, undefined, sanitizeScores(scores));
}

const SEMANTICS_OF = new WeakMap<DecideTier2, PolicySemantics>([
  [decideTier2, 'contract'],
  [decideTier2As962, 'agentfootprint-9.62'],
]);

/**
 * The verdict function of one published behaviour, with `decideTier2`'s signature and results: `'contract'`
 * (is `decideTier2`) or `'agentfootprint-9.62'` (no incumbent-at/below-floor clause: a near-tie with any
 * incumbent stays). Throws a RangeError naming the behaviours for anything else.
 */
export function createDecideTier2(semantics: PolicySemantics): DecideTier2 {
  if (semantics === 'contract') return decideTier2;
  if (semantics === 'agentfootprint-9.62') return decideTier2As962;
  throw new RangeError(
    `unknown policy behaviour ${JSON.stringify(semantics)}: use ${POLICY_SEMANTICS.map((b) => `'${b}'`).join(' or ')}`,
  );
}

/** Which published behaviour a verdict function is, when it is one of this module's; undefined otherwise. */
export function policySemanticsOf(decide: unknown): PolicySemantics | undefined {
  return typeof decide === 'function' ? SEMANTICS_OF.get(decide as DecideTier2) : undefined;
}

/**
 * The verdict of one behaviour on `scores` with `ranking` standing as its `ranked` list: kind, `to`, `offered`,
 * `runnerUp` and `decisive` are exactly what `createDecideTier2(semantics)` gives; only the ranking (and so the
 * shares) is the caller's. For a reader that records another ranking — an event's own — and needs only the
 * decision: it spares the softmax and one object per candidate. `sanitized` is `scores`' sanitized scores
 * when the caller made them while reading (one pass over the candidates instead of two). Pure.
 */
export function judgeKeepingRanking(
  semantics: PolicySemantics,
  scores: readonly IntentScore[],
  incumbentId: string | undefined,
  policy: RoutingPolicy,
  scorer: ScorerTraits,
  ranking: RankedIntentScore[],
  sanitized?: number[],
): Tier2Verdict {
  return judgeTier2(
    scores,
    incumbentId,
    policy,
    scorer,
    semantics === 'contract',
    ranking,
    sanitized ?? sanitizeScores(scores),
  );
}

/** Each candidate's sanitized score, in input order. */
function sanitizeScores(scores: readonly IntentScore[]): number[] {
  // A plain loop into an array sized once: this runs on every routed turn, wrapped or not.
  const n = scores.length;
  // Stryker disable next-line ArrayDeclaration: equivalent — a growing array ends with the same values.
  const sanitized = new Array<number>(n);
  for (let i = 0; i < n; i++) sanitized[i] = sanitizeScore(scores[i]!.score);
  return sanitized;
}

function judgeTier2(
  scores: readonly IntentScore[],
  incumbentId: string | undefined,
  policy: RoutingPolicy,
  scorer: ScorerTraits,
  incumbentClause: boolean,
  ranking: RankedIntentScore[] | undefined,
  sanitized: number[],
): Tier2Verdict {
  const n = scores.length;
  // Stable: equal sanitized scores keep input order, so the earlier candidate wins.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent — both sorts give the same order; only speed differs.
  const order = n <= INSERTION_SORT_MAX ? rankByInsertion(sanitized) : rankByComparator(sanitized);
  const floor = effectiveFloor(policy, scorer);
  const judged = judgedScores(scores, sanitized);
  const ranked = ranking ?? rankedWithShares(scores, sanitized, order);
  // The verdict reads the first two alive candidates in rank order (and a menu the next few): the walk stops
  // there instead of listing every alive candidate of a long list.
  let top = -1;
  let second = -1;
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    if (!isAlive(judged[i]!, floor)) continue;
    if (top !== -1) {
      second = i;
      break;
    }
    top = i;
  }
  if (top === -1) return { kind: 'unmatched', ranked, decisive: false };

  const topScore = judged[top]!;
  const topId = scores[top]!.id;
  const runnerUp =
    second === -1 ? undefined : { id: scores[second]!.id, gap: pairwiseGap(topScore, judged[second]!) };
  const decisive =
    scorer.categorical === true || runnerUp === undefined || runnerUp.gap >= policy.nearTieMargin;

  if (decisive) {
    return incumbentId !== undefined && topId === incumbentId
      ? verdictOf({ kind: 'stay', ranked, decisive }, runnerUp)
      : verdictOf({ kind: 'move', to: topId, ranked, decisive }, runnerUp);
  }
  if (
    incumbentId !== undefined &&
    !(incumbentClause && incumbentScoredOut(scores, judged, incumbentId, floor))
  ) {
    return verdictOf({ kind: 'stay', ranked, decisive }, runnerUp);
  }
  const cap = Math.max(2, policy.menuSize);
  const offered: string[] = [];
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    if (!isAlive(judged[i]!, floor)) continue;
    // The menu may never hold more than `cap`: a fractional cap keeps its whole part, a NaN cap keeps nothing.
    if (!(offered.length + 1 <= cap)) break;
    if (pairwiseGap(topScore, judged[i]!) < policy.nearTieMargin) offered.push(scores[i]!.id);
  }
  return verdictOf({ kind: 'menu', offered, ranked, decisive }, runnerUp);
}

/** The candidates in rank order, each with its softmax share. */
function rankedWithShares(
  scores: readonly IntentScore[],
  sanitized: readonly number[],
  order: readonly number[],
): RankedIntentScore[] {
  const relevance = softmaxRelevance(sanitized);
  const n = order.length;
  // Stryker disable next-line ArrayDeclaration: equivalent — a growing array ends with the same values.
  const ranked = new Array<RankedIntentScore>(n);
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    const c = scores[i]!;
    ranked[k] = { id: c.id, score: c.score, relevance: relevance[i]! };
  }
  return ranked;
}

/**
 * The verdict with its runner-up, when there is one, set on it in place: a spread of a numbers object into each
 * verdict literal cost about a tenth of a small call. `runnerUp` is absent, not undefined, without one.
 */
function verdictOf(
  verdict: Tier2Verdict,
  runnerUp: { readonly id: string; readonly gap: number } | undefined,
): Tier2Verdict {
  if (runnerUp !== undefined) (verdict as { runnerUp?: typeof runnerUp }).runnerUp = runnerUp;
  return verdict;
}

/**
 * Up to this many candidates are ranked by insertion sort, which at 64 candidates takes about half the time of
 * Array#sort with a comparator (no call per comparison); past it the quadratic moves cost more than the calls.
 */
const INSERTION_SORT_MAX = 128;

/** Reused sort keys of rankByInsertion, which calls no user code while it holds them: no allocation per call. */
let sortKeys = new Float64Array(256);

/** Indices by sanitized score, highest first, ties in input order (insertion is stable: `<` never passes an equal). */
function rankByInsertion(sanitized: readonly number[]): number[] {
  const n = sanitized.length;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent — a new buffer only costs an allocation.
  if (sortKeys.length < n) sortKeys = new Float64Array(n);
  const keys = sortKeys;
  // Stryker disable next-line ArrayDeclaration: equivalent — a growing array ends with the same values.
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const v = sanitized[i]!;
    let j = i;
    while (j > 0 && keys[j - 1]! < v) {
      keys[j] = keys[j - 1]!;
      order[j] = order[j - 1]!;
      j--;
    }
    keys[j] = v;
    order[j] = i;
  }
  return order;
}

/** The same order as rankByInsertion, by Array#sort (for long candidate lists). */
function rankByComparator(sanitized: readonly number[]): number[] {
  const order: number[] = [];
  for (let i = 0; i < sanitized.length; i++) order.push(i);
  return order.sort((a, b) => {
    const sa = sanitized[a]!;
    const sb = sanitized[b]!;
    if (sa === sb) return a - b;
    // Stryker disable next-line EqualityOperator: equivalent — equal scores returned on the line above.
    return sb > sa ? 1 : -1;
  });
}

/**
 * Did the scorer score the incumbent and put it at/below the floor? Without a floor there is nothing to be
 * below, so the clause cannot apply. With duplicate ids the last occurrence's score is the one judged.
 */
function incumbentScoredOut(
  scores: readonly IntentScore[],
  judged: readonly number[],
  incumbentId: string,
  floor: number | undefined,
): boolean {
  if (floor === undefined) return false;
  const at = scores.findIndex((s) => s.id === incumbentId);
  return at !== -1 && judged[at]! <= floor;
}

/**
 * Do two recorded policy numbers (gaps, shares) agree? Equal (NaN to NaN included), or both finite within a
 * relative 1e-9: a number that went through JSON and back, or was computed in another process, may differ in
 * its last bits. The one tolerance every comparison of a recorded number with a rebuilt one uses.
 */
export function numbersAgree(a: number, b: number): boolean {
  if (Object.is(a, b)) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** A near-tie: at least two candidates alive, not categorical, gap below the margin. */
export function isNearTie(verdict: Tier2Verdict): boolean {
  return !verdict.decisive && verdict.runnerUp !== undefined;
}

/**
 * Is the turn's menu still outstanding — offered and not yet resolved? True while the cursor is where the
 * verdict left it: undefined on a cold menu, the inherited `from` on a mid-conversation one.
 */
export function menuOutstanding(
  turnRoute: TurnRoute | undefined,
  currentSkillId: string | undefined,
): boolean {
  if (turnRoute?.offered === undefined) return false;
  return currentSkillId === undefined || currentSkillId === turnRoute.from;
}
