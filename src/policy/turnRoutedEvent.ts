/**
 * turnRoutedEvent — read agentfootprint's `agentfootprint.skill.turn_routed` event into the decision it records.
 *
 * The framework's RouteTurn stage calls decideTier2 itself and reports each routed turn on this event: the
 * scores it judged (ranked), the policy (with the EFFECTIVE floor), `from`, and what happened (`by`, `to`,
 * `offered`) — but no verdict kind. This module narrows an event of unknown shape (an in-process object, or a
 * line of a JSON log where every non-finite number became `null`), rebuilds the tier-2 verdict by judging the
 * event's own numbers under one published behaviour, and lists where that verdict and what the event says
 * happened disagree. It never "fixes" either side: the decision it returns is what happened. The strategy in
 * instrument/ and the event-log reader in trace/ both read events through here, so a decision is the same
 * whichever way it reached routescope. Pure.
 */
import {
  describe,
  isObject,
  type Json,
  type Mutable,
  numberOrNull,
  optionalNumber,
  optionalString,
  readDecider,
  readDroppedResume,
  readMeta,
  readTurn,
} from './readEventFields.js';
import { compareWithEvent, verdictThatHappened, type Numbers } from './compareWithEvent.js';
import { withEffectiveFloor } from './floorSource.js';
import { createDecideTier2, judgeKeepingRanking, sanitizeScore } from './routingPolicy.js';
import type {
  IntentScore,
  PolicySemantics,
  RankedIntentScore,
  RoutingPolicy,
  ScorerTraits,
  Tier2Verdict,
  TurnRoute,
  TurnRouteBy,
} from './types.js';

/** The event type the framework emits once per routed turn. */
export const TURN_ROUTED_EVENT_TYPE = 'agentfootprint.skill.turn_routed';

/** The scorers the framework ships as categorical (one pick scored 1, every other 0). */
export const DEFAULT_CATEGORICAL_SCORERS: readonly string[] = Object.freeze(['llm-classifier']);

/** Events with more candidates than this are not judged (their turn route is still read). */
export const DEFAULT_MAX_JUDGED_CANDIDATES = 1000;

/** How to read an event: which behaviour judges it, which scorers are categorical, how many candidates at most. */
export interface ReadTurnRoutedOptions {
  readonly semantics: PolicySemantics;
  readonly categoricalScorers: readonly string[];
  readonly maxJudgedCandidates: number;
}

/** The envelope fields routescope uses. */
export interface TurnRoutedMeta {
  readonly runId?: string;
  readonly sessionId?: string;
  /** When the event was emitted, milliseconds since the Unix epoch. */
  readonly wallClockMs?: number;
  /** Echoed only when the caller passed a `traceId` run option; not the framework span's. */
  readonly traceId?: string;
}

/** The tier-2 decision an event records: the call as the framework made it, what happened, and the rebuild. */
export interface TurnRoutedDecision {
  /** The event's scores in its order (best first), `null` read as NaN. */
  readonly scores: readonly IntentScore[];
  readonly incumbentId: string | undefined;
  /**
   * The event's policy; its `floor`, when there is one, is the effective floor the framework judged with (the
   * policy's or the scorer's: the event does not say), and the policy is marked so (`floorSource: 'effective'`).
   */
  readonly policy: RoutingPolicy;
  readonly scorerTraits: ScorerTraits;
  readonly semantics: PolicySemantics;
  /** What the event says happened, as a verdict: the event's ranking, runner-up and decisive flag. */
  readonly happened: Tier2Verdict;
  /** What `semantics` gives on the event's own numbers. */
  readonly rebuilt: Tier2Verdict;
  /** Where the two disagree, one line each; empty when they agree. */
  readonly differences: readonly string[];
}

/** One event, read. */
export interface TurnRoutedReading {
  readonly kind: 'turn_routed';
  readonly turn: TurnRoute;
  readonly decider?: { readonly provider: string; readonly model?: string; readonly picked?: string };
  readonly droppedResume?: { readonly id?: string; readonly reason?: string };
  /** The name the scorer's result reports (`keyword`, `embedding`, `llm-classifier`, …). */
  readonly scorer?: string;
  /** Prior turns the scorer saw. */
  readonly window?: number;
  readonly meta: TurnRoutedMeta;
  /** Present when tier 2 ran (the event carries scores) and its numbers could be judged. */
  readonly decision?: TurnRoutedDecision;
  /** What was left out because it was not valid, one line each; empty for a well-formed event. */
  readonly problems: readonly string[];
}

/** An event that is a `turn_routed` event by its type but holds nothing that can be read. */
export interface TurnRoutedInvalid {
  readonly kind: 'invalid';
  readonly reason: string;
}

// Shared, frozen: a decision's traits are read, never written, and one object per routed turn is garbage.
const NO_TRAITS: ScorerTraits = Object.freeze({});
const CATEGORICAL_TRAITS: ScorerTraits = Object.freeze({ categorical: true });

/** One of the `by` values the framework writes: compared in turn, cheaper than hashing the string into a Set. */
function isTurnRouteBy(by: string): boolean {
  return (
    by === 'intent' ||
    by === 'continuity' ||
    by === 'menu' ||
    by === 'entry' ||
    by === 'decider' ||
    by === 'none'
  );
}

/** Is this a `turn_routed` event by its type? One comparison for any other value. */
export function isTurnRoutedEvent(event: unknown): boolean {
  return (
    typeof event === 'object' &&
    event !== null &&
    (event as { type?: unknown }).type === TURN_ROUTED_EVENT_TYPE
  );
}

/**
 * Read one `turn_routed` event: its turn route, and when it carries scores the decision, judged under
 * `options.semantics` and compared with what the event says happened. Never throws on any input.
 */
export function readTurnRoutedEvent(
  event: unknown,
  options: ReadTurnRoutedOptions,
): TurnRoutedReading | TurnRoutedInvalid {
  return readEvent(event, options, false);
}

/**
 * The same reading, except that `decision.rebuilt.ranked` is the event's own ranking rather than one rebuilt
 * with fresh shares; every decision field of `rebuilt` (kind, to, offered, runner-up, decisive) is exactly
 * `readTurnRoutedEvent`'s. For a recorder that writes the event's numbers and compares only the decision: it
 * spares a softmax and one object per candidate on every routed turn.
 */
export function readTurnRoutedEventForRecording(
  event: unknown,
  options: ReadTurnRoutedOptions,
): TurnRoutedReading | TurnRoutedInvalid {
  return readEvent(event, options, true);
}

function readEvent(
  event: unknown,
  options: ReadTurnRoutedOptions,
  keepRanking: boolean,
): TurnRoutedReading | TurnRoutedInvalid {
  if (!isTurnRoutedEvent(event)) return { kind: 'invalid', reason: `not a ${TURN_ROUTED_EVENT_TYPE} event` };
  const payload = (event as { payload?: unknown }).payload;
  if (!isObject(payload)) return { kind: 'invalid', reason: 'the event has no payload object' };
  const by = payload.by;
  if (typeof by !== 'string' || !isTurnRouteBy(by)) {
    return {
      kind: 'invalid',
      reason: `payload.by is ${describe(by)}, not one of entry, intent, continuity, menu, decider, none`,
    };
  }
  const problems: string[] = [];
  const turn = readTurn(payload, by as TurnRouteBy, problems);
  const scorer = optionalString(payload.scorer, 'payload.scorer', problems);
  const window = optionalNumber(payload.window, 'payload.window', problems);
  const decider = readDecider(payload.decider, problems);
  const droppedResume = readDroppedResume(payload.droppedResume, problems);
  const meta = readMeta((event as { meta?: unknown }).meta, problems);
  const decision =
    payload.scores === undefined
      ? undefined
      : readDecision(payload, turn, decider, scorer, options, keepRanking, problems);
  // Built key by key, not by conditional spreads: this runs once per routed turn inside the host's event loop.
  const reading: Mutable<TurnRoutedReading> = { kind: 'turn_routed', turn, meta, problems };
  if (decider !== undefined) reading.decider = decider;
  if (droppedResume !== undefined) reading.droppedResume = droppedResume;
  if (scorer !== undefined) reading.scorer = scorer;
  if (window !== undefined) reading.window = window;
  if (decision !== undefined) reading.decision = decision;
  return reading;
}

function readPolicy(v: unknown, problems: string[]): RoutingPolicy | undefined {
  if (!isObject(v)) {
    problems.push(
      `payload.policy is ${describe(v)}, not {nearTieMargin, menuSize, floor?}: the scores are not judged`,
    );
    return undefined;
  }
  const margin = numberOrNull(v.nearTieMargin);
  const menuSize = numberOrNull(v.menuSize);
  const floor = v.floor === undefined ? undefined : numberOrNull(v.floor);
  if (margin === undefined || menuSize === undefined || (v.floor !== undefined && floor === undefined)) {
    problems.push('payload.policy holds a value that is not a number: the scores are not judged');
    return undefined;
  }
  // The event's floor is the one that judged, the policy's or the scorer's: marked so, never passed off as the
  // policy's own (floorSource.ts).
  return floor === undefined
    ? { nearTieMargin: margin, menuSize }
    : withEffectiveFloor(margin, menuSize, floor);
}

interface EventScores {
  /** The candidates as the event ranks them, each with its share (NaN where JSON wrote `null`). */
  readonly ranked: RankedIntentScore[];
  /** Their sanitized scores, made in the same pass (what the policy ranks and judges by). */
  readonly sanitized: number[];
  /** Indexes of entries that carried no share at all (a hand-built event); usually none. */
  readonly unshared: number[] | undefined;
}

/**
 * The event's candidates, narrowed. With `reuse`, an entry that already is `{id: string, score: number,
 * relevance: number}` is used as it is rather than copied, and so is the event's list when every entry is
 * (nothing downstream of a recording writes to either).
 */
function readScores(v: unknown, max: number, reuse: boolean, problems: string[]): EventScores | undefined {
  if (!Array.isArray(v)) {
    problems.push(`payload.scores is ${describe(v)}, not a list: the scores are not judged`);
    return undefined;
  }
  if (v.length > max) {
    problems.push(
      `payload.scores holds ${v.length} candidates, more than the ${max} judged: the scores are not judged`,
    );
    return undefined;
  }
  // One object per candidate serves as both the judged score and the recorded rank (a RankedIntentScore is an
  // IntentScore): this runs inside the host's event loop on every routed turn. With `reuse`, while every entry
  // is its own reading the event's list is the ranking, and no list is built.
  let ranked: RankedIntentScore[] | undefined = reuse ? undefined : [];
  // Stryker disable next-line ArrayDeclaration: equivalent — a growing array ends with the same values.
  const sanitized = new Array<number>(v.length);
  let unshared: number[] | undefined;
  for (let i = 0; i < v.length; i++) {
    const c: unknown = v[i];
    const score = isObject(c) && typeof c.id === 'string' ? numberOrNull(c.score) : undefined;
    if (score === undefined) {
      problems.push(
        `payload.scores[${i}] is ${describe(c)}, not {id, score, relevance}: the scores are not judged`,
      );
      return undefined;
    }
    const entry = c as Json & { id: string };
    const share = entry.relevance;
    const relevance = numberOrNull(share);
    if (relevance === undefined) (unshared ??= []).push(i);
    // Already two numbers (no `null` read as NaN, no share missing): the entry is its own reading.
    if (reuse && typeof entry.score === 'number' && typeof share === 'number') {
      if (ranked !== undefined) ranked.push(entry as unknown as RankedIntentScore);
    } else {
      ranked ??= (v as RankedIntentScore[]).slice(0, i);
      ranked.push({ id: entry.id, score, relevance: relevance ?? NaN });
    }
    sanitized[i] = sanitizeScore(score);
  }
  return { ranked: ranked ?? (v as RankedIntentScore[]), sanitized, unshared };
}

function readRunnerUp(v: unknown, problems: string[]): { id: string; gap: number } | undefined {
  if (v === undefined) return undefined;
  const gap = isObject(v) ? numberOrNull(v.gap) : undefined;
  if (!isObject(v) || typeof v.id !== 'string' || gap === undefined) {
    problems.push(`payload.runnerUp is ${describe(v)}, not {id, gap}: left out`);
    return undefined;
  }
  return { id: v.id, gap };
}

function readDecision(
  payload: Json,
  turn: TurnRoute,
  decider: TurnRoutedReading['decider'],
  scorer: string | undefined,
  options: ReadTurnRoutedOptions,
  keepRanking: boolean,
  problems: string[],
): TurnRoutedDecision | undefined {
  if (turn.by === 'entry') {
    problems.push(
      'payload.by is entry (a tier-1 rule) but the event carries tier-2 scores: the scores are not judged',
    );
    return undefined;
  }
  const read = readScores(payload.scores, options.maxJudgedCandidates, keepRanking, problems);
  if (read === undefined) return undefined;
  const policy = readPolicy(payload.policy, problems);
  if (policy === undefined) return undefined;
  const scorerTraits =
    scorer !== undefined && options.categoricalScorers.includes(scorer) ? CATEGORICAL_TRAITS : NO_TRAITS;
  // A share missing from the event is taken from a rebuilt ranking, so only then is one built when not asked.
  const rebuilt =
    keepRanking && read.unshared === undefined
      ? judgeKeepingRanking(
          options.semantics,
          read.ranked,
          turn.from,
          policy,
          scorerTraits,
          read.ranked,
          read.sanitized,
        )
      : createDecideTier2(options.semantics)(read.ranked, turn.from, policy, scorerTraits);
  const runnerUp = readRunnerUp(payload.runnerUp, problems);
  let decisive: boolean;
  if (typeof payload.decisive === 'boolean') decisive = payload.decisive;
  else {
    if (payload.decisive !== undefined)
      problems.push(`payload.decisive is ${describe(payload.decisive)}: read as the rebuilt verdict's`);
    decisive = rebuilt.decisive;
  }
  // An entry with no share of its own (a hand-built event) takes the rebuilt one: a missing number is not a
  // disagreement. A share JSON wrote as null stays non-finite.
  let ranked = read.ranked;
  if (read.unshared !== undefined) {
    ranked = ranked.slice();
    for (const i of read.unshared) {
      const c = ranked[i]!;
      ranked[i] = { ...c, relevance: rebuilt.ranked.find((r) => r.id === c.id)?.relevance ?? NaN };
    }
  }
  const numbers: Numbers = runnerUp === undefined ? { ranked, decisive } : { ranked, runnerUp, decisive };
  const happened = verdictThatHappened(turn, decider, rebuilt, numbers);
  const differences = compareWithEvent(rebuilt, turn, decider, runnerUp, decisive, ranked);
  return {
    scores: ranked,
    incumbentId: turn.from,
    policy,
    scorerTraits,
    semantics: options.semantics,
    happened,
    rebuilt,
    differences,
  };
}
