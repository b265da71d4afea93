/**
 * flapping — conversations whose routing bounces between skills, or holds on to one by ambiguity alone.
 *
 * Two symptoms of a skill graph whose intents overlap: a conversation that moves A → B and straight back to A
 * within a few turns, and a run of near-tie `stay` verdicts where the incumbent is kept only because nothing
 * beat it by the margin. Both are found per conversation (`gen_ai.conversation.id`, else the trace) and per
 * router, because skills of two routers are different graphs. Where the conversation went after a menu is
 * learnt from the next decision's incumbent. Records arrive in file order, not time order, so each
 * conversation keeps a small reorder buffer; memory grows with the number of conversations, never with the
 * number of decisions. Pure. No I/O.
 */
import type { DecisionRecord, TraceRecord } from '../record/types.js';
import type { Tier2VerdictKind } from '../policy/types.js';
import { resolveConfig } from './resolveConfig.js';
import { groupKey } from './groupKey.js';
import { compareConversations, comparePairs, pushTop } from './flappingReport.js';
import type {
  FlappingConfig,
  FlappingConversation,
  FlappingEvent,
  FlappingReport,
} from './flappingReport.js';

export type {
  FlappingConfig,
  FlappingConversation,
  FlappingEvent,
  FlappingPair,
  FlappingReport,
} from './flappingReport.js';

/** The defaults `resolveFlappingConfig` fills in. */
export const DEFAULT_FLAPPING_CONFIG: FlappingConfig = Object.freeze({
  window: 3,
  minStayRun: 3,
  top: 10,
  examplesPerConversation: 3,
  reorderWindow: 8,
});

/** Fill a partial config against the defaults; throws RangeError on a value that cannot work. */
export function resolveFlappingConfig(config: Partial<FlappingConfig> = {}): FlappingConfig {
  const resolved = resolveConfig(DEFAULT_FLAPPING_CONFIG, config);
  for (const key of Object.keys(DEFAULT_FLAPPING_CONFIG) as (keyof FlappingConfig)[]) {
    const v = resolved[key];
    const min = key === 'window' || key === 'minStayRun' ? 1 : 0;
    if (!Number.isInteger(v) || v < min) {
      throw new RangeError(`flapping: ${key} must be an integer >= ${min}, got ${String(v)}`);
    }
  }
  return resolved;
}

/** A streaming flapping analysis: feed records, then `finish()` once. */
export interface FlappingAnalysis {
  add(record: TraceRecord): void;
  finish(): FlappingReport;
}

/** The few fields of a decision the state machine needs (kept small: it sits in the reorder buffer). */
interface Step {
  readonly t: number;
  readonly seq: number;
  readonly verdict: Tier2VerdictKind;
  readonly to: string | undefined;
  readonly incumbent: string | undefined;
  readonly nearTie: boolean;
  readonly challenger: string | undefined;
  readonly traceId: string;
}

interface Transition {
  readonly from: string;
  readonly to: string;
  readonly turn: number;
  readonly traceId: string;
}

interface Run {
  readonly incumbent: string;
  readonly fromTurn: number;
  length: number;
  readonly challengers: string[];
  readonly firstTrace: string;
  lastTrace: string;
}

interface ConversationState {
  readonly id: string;
  readonly keyedBy: 'conversation' | 'trace';
  readonly router: string | undefined;
  readonly service: string | undefined;
  readonly buffer: Step[];
  lastFlushed: number;
  turn: number;
  lastSkill: string | undefined;
  lastTransition: Transition | undefined;
  run: Run | undefined;
  bounces: number;
  nearTieStays: number;
  stayRuns: number;
  longestStayRun: number;
  readonly examples: FlappingEvent[];
  /** Indexes of the pairs already counted for this conversation: a packed array of small integers, the
   * cheapest per-conversation memory for the few pairs a conversation touches. */
  readonly pairsSeen: number[];
}

interface PairTally {
  readonly index: number;
  readonly router: string | undefined;
  readonly pair: readonly [string, string];
  bounces: number;
  nearTieStays: number;
  stayRuns: number;
  conversations: number;
}

/** Start a streaming flapping analysis. */
export function createFlappingAnalysis(config: Partial<FlappingConfig> = {}): FlappingAnalysis {
  const cfg = resolveFlappingConfig(config);
  const conversations = new Map<string, ConversationState>();
  const pairs = new Map<string, PairTally>();
  let decisions = 0;
  let outOfOrder = 0;
  let seq = 0;
  let finished = false;

  const tallyPair = (state: ConversationState, a: string, b: string): PairTally => {
    // Stryker disable next-line EqualityOperator: equivalent — the two skills of a pair always differ.
    const sorted: [string, string] = a < b ? [a, b] : [b, a];
    const key = groupKey(state.router, sorted[0], sorted[1]);
    let tally = pairs.get(key);
    if (tally === undefined) {
      tally = {
        index: pairs.size,
        router: state.router,
        pair: sorted,
        bounces: 0,
        nearTieStays: 0,
        stayRuns: 0,
        conversations: 0,
      };
      pairs.set(key, tally);
    }
    if (!state.pairsSeen.includes(tally.index)) {
      state.pairsSeen.push(tally.index);
      tally.conversations++;
    }
    return tally;
  };

  const keepExample = (state: ConversationState, event: FlappingEvent): void => {
    if (state.examples.length < cfg.examplesPerConversation) state.examples.push(event);
  };

  const transition = (state: ConversationState, to: string, turn: number, traceId: string): void => {
    const from = state.lastSkill;
    state.lastSkill = to;
    if (from === undefined || from === to) return;
    const last = state.lastTransition;
    if (last !== undefined && last.to === from && last.from === to && turn - last.turn <= cfg.window) {
      state.bounces++;
      tallyPair(state, to, from).bounces++;
      keepExample(state, {
        kind: 'bounce',
        skill: to,
        via: from,
        fromTurn: last.turn,
        toTurn: turn,
        traceIds: last.traceId === traceId ? [traceId] : [last.traceId, traceId],
      });
    }
    state.lastTransition = { from, to, turn, traceId };
  };

  const closeRun = (state: ConversationState): void => {
    const run = state.run;
    state.run = undefined;
    if (run === undefined || run.length < cfg.minStayRun) return;
    state.stayRuns++;
    // Stryker disable next-line EqualityOperator: equivalent — replacing the longest with an equal length changes nothing.
    if (run.length > state.longestStayRun) state.longestStayRun = run.length;
    for (const c of run.challengers) tallyPair(state, run.incumbent, c).stayRuns++;
    keepExample(state, {
      kind: 'stay-run',
      incumbent: run.incumbent,
      challengers: run.challengers,
      fromTurn: run.fromTurn,
      length: run.length,
      traceIds: run.firstTrace === run.lastTrace ? [run.firstTrace] : [run.firstTrace, run.lastTrace],
    });
  };

  const judge = (state: ConversationState, step: Step): void => {
    state.turn++;
    const turn = state.turn;
    // The incumbent says where the previous turn ended up (a menu's pick, a tier-1 hop): an arrival there.
    if (step.incumbent !== undefined && step.incumbent !== state.lastSkill) {
      if (state.lastSkill === undefined) state.lastSkill = step.incumbent;
      else transition(state, step.incumbent, turn - 1, step.traceId);
    }
    if (step.verdict === 'move' && step.to !== undefined) transition(state, step.to, turn, step.traceId);

    const keptByAmbiguity = step.verdict === 'stay' && step.nearTie && step.incumbent !== undefined;
    if (!keptByAmbiguity) {
      closeRun(state);
      return;
    }
    const incumbent = step.incumbent!;
    state.nearTieStays++;
    if (step.challenger !== undefined) tallyPair(state, incumbent, step.challenger).nearTieStays++;
    if (state.run !== undefined && state.run.incumbent !== incumbent) closeRun(state);
    if (state.run === undefined) {
      state.run = {
        incumbent,
        fromTurn: turn,
        length: 0,
        challengers: [],
        firstTrace: step.traceId,
        lastTrace: step.traceId,
      };
    }
    const run = state.run;
    run.length++;
    run.lastTrace = step.traceId;
    if (
      step.challenger !== undefined &&
      run.challengers.length < 3 &&
      !run.challengers.includes(step.challenger)
    ) {
      run.challengers.push(step.challenger);
    }
  };

  const flushOne = (state: ConversationState): void => {
    const step = state.buffer.shift();
    if (step === undefined) return;
    state.lastFlushed = step.t;
    judge(state, step);
  };

  return {
    add(record: TraceRecord): void {
      if (finished) throw new Error('flapping: add() after finish()');
      if (record.kind !== 'decision') return;
      decisions++;
      const keyedBy = record.conversationId === undefined ? 'trace' : 'conversation';
      const id = record.conversationId ?? record.traceId;
      const key = groupKey(keyedBy, id, record.router);
      let state = conversations.get(key);
      if (state === undefined) {
        state = {
          id,
          keyedBy,
          router: record.router,
          service: record.service,
          buffer: [],
          lastFlushed: -Infinity,
          turn: 0,
          lastSkill: undefined,
          lastTransition: undefined,
          run: undefined,
          bounces: 0,
          nearTieStays: 0,
          stayRuns: 0,
          longestStayRun: 0,
          examples: [],
          // Stryker disable next-line ArrayDeclaration: equivalent — the list holds pair indexes (numbers); a stray string is never one of them.
          pairsSeen: [],
        };
        conversations.set(key, state);
      }
      // Stryker disable next-line UpdateOperator: equivalent — a step's seq is not read (equal times keep arrival order by insertion).
      const step = toStep(record, seq++);
      if (step.t < state.lastFlushed) outOfOrder++;
      insertByTime(state.buffer, step);
      if (state.buffer.length > cfg.reorderWindow) flushOne(state);
    },

    finish(): FlappingReport {
      if (finished) throw new Error('flapping: finish() called twice');
      finished = true;
      let bounces = 0;
      let nearTieStays = 0;
      let stayRuns = 0;
      let byTrace = 0;
      let flapping = 0;
      const ranked: FlappingConversation[] = [];
      for (const state of conversations.values()) {
        while (state.buffer.length > 0) flushOne(state);
        closeRun(state);
        bounces += state.bounces;
        nearTieStays += state.nearTieStays;
        stayRuns += state.stayRuns;
        if (state.keyedBy === 'trace') byTrace++;
        const flaps = state.bounces + state.stayRuns;
        if (flaps === 0) continue;
        flapping++;
        pushTop(ranked, toConversation(state, flaps), cfg.top, compareConversations);
      }
      const topPairs = [...pairs.values()]
        .map((p) => ({
          ...(p.router === undefined ? {} : { router: p.router }),
          pair: p.pair,
          bounces: p.bounces,
          nearTieStays: p.nearTieStays,
          stayRuns: p.stayRuns,
          flaps: p.bounces + p.stayRuns,
          conversations: p.conversations,
        }))
        .filter((p) => p.flaps > 0 || p.nearTieStays > 0)
        .sort(comparePairs)
        .slice(0, cfg.top);
      return {
        kind: 'flapping',
        config: cfg,
        decisions,
        conversations: conversations.size,
        conversationsKeyedByTrace: byTrace,
        conversationsFlapping: flapping,
        bounces,
        nearTieStays,
        stayRuns,
        outOfOrder,
        topConversations: ranked,
        topPairs,
      };
    },
  };
}

/** Find flapping in a finite collection of records (the streaming analysis, run to the end). */
export function findFlapping(
  records: Iterable<TraceRecord>,
  config: Partial<FlappingConfig> = {},
): FlappingReport {
  const analysis = createFlappingAnalysis(config);
  for (const r of records) analysis.add(r);
  return analysis.finish();
}

function toStep(record: DecisionRecord, seq: number): Step {
  const incumbent = record.incumbent?.id;
  const top = record.ranked[0]?.id;
  const challenger = top !== undefined && top !== incumbent ? top : record.runnerUp?.id;
  return {
    t: Number.isFinite(record.timeUnixMs) ? record.timeUnixMs : 0,
    seq,
    verdict: record.verdict,
    to: record.to,
    incumbent,
    nearTie: record.nearTie,
    challenger: challenger !== incumbent ? challenger : undefined,
    traceId: record.traceId,
  };
}

/** Insert keeping time order; equal times keep arrival order. The buffer is short, so a scan is fine. */
function insertByTime(buffer: Step[], step: Step): void {
  let i = buffer.length;
  while (i > 0 && buffer[i - 1]!.t > step.t) i--;
  buffer.splice(i, 0, step);
}

function toConversation(state: ConversationState, flaps: number): FlappingConversation {
  return {
    id: state.id,
    keyedBy: state.keyedBy,
    ...(state.router === undefined ? {} : { router: state.router }),
    ...(state.service === undefined ? {} : { service: state.service }),
    decisions: state.turn,
    bounces: state.bounces,
    nearTieStays: state.nearTieStays,
    stayRuns: state.stayRuns,
    longestStayRun: state.longestStayRun,
    flaps,
    examples: state.examples,
  };
}
