/**
 * flapping — conversations whose routing bounces between skills, or holds on to one by ambiguity alone.
 *
 * Two symptoms of a skill graph whose intents overlap: a conversation that moves A → B and straight back to A
 * within a few turns, and a run of near-tie `stay` verdicts where the incumbent is kept only because nothing
 * beat it by the margin. Both are found per conversation (`gen_ai.conversation.id`, else the trace) and per
 * router, because skills of two routers are different graphs. Where the conversation went after a menu is
 * learnt from the next decision's incumbent. Records arrive in file order, not time order, so each
 * conversation keeps a small reorder buffer; memory grows with the number of conversations, never with the
 * number of decisions. One conversation's rules are in flappingConversation, the skill pairs' counts in
 * flappingPairs, the report's shape and rankings in flappingReport. Pure. No I/O.
 */
import type { DecisionRecord, TraceRecord } from '../record/types.js';
import { resolveConfig } from './resolveConfig.js';
import { groupKey } from './groupKey.js';
import { compareConversations, pushTop } from './flappingReport.js';
import type { FlappingConfig, FlappingConversation, FlappingReport } from './flappingReport.js';
import { ConversationFlaps, toStep } from './flappingConversation.js';
import { PairTallies } from './flappingPairs.js';

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

/** Start a streaming flapping analysis. */
export function createFlappingAnalysis(config: Partial<FlappingConfig> = {}): FlappingAnalysis {
  const cfg = resolveFlappingConfig(config);
  const conversations = new Map<string, ConversationFlaps>();
  const pairs = new PairTallies();
  let decisions = 0;
  let outOfOrder = 0;
  let finished = false;

  /** The conversation a decision belongs to (its id, else its trace; per router), started on first sight. */
  const conversationOf = (record: DecisionRecord): ConversationFlaps => {
    const keyedBy = record.conversationId === undefined ? 'trace' : 'conversation';
    const id = record.conversationId ?? record.traceId;
    const key = groupKey(keyedBy, id, record.router);
    let conversation = conversations.get(key);
    if (conversation === undefined) {
      const synthetic = keyedBy === 'trace' && record.syntheticTraceId === true;
      conversation = new ConversationFlaps(id, keyedBy, record.router, record.service, cfg, pairs, synthetic);
      conversations.set(key, conversation);
    }
    return conversation;
  };

  return {
    add(record: TraceRecord): void {
      if (finished) throw new Error('flapping: add() after finish()');
      if (record.kind !== 'decision') return;
      decisions++;
      const conversation = conversationOf(record);
      const step = toStep(record);
      if (conversation.add(step)) outOfOrder++;
    },

    finish(): FlappingReport {
      if (finished) throw new Error('flapping: finish() called twice');
      finished = true;
      const totals = new ConversationTotals(cfg.top);
      for (const conversation of conversations.values()) {
        conversation.finish();
        totals.add(conversation);
      }
      return {
        kind: 'flapping',
        config: cfg,
        decisions,
        conversations: conversations.size,
        conversationsKeyedByTrace: totals.keyedByTrace,
        conversationsFlapping: totals.flapping,
        bounces: totals.bounces,
        nearTieStays: totals.nearTieStays,
        stayRuns: totals.stayRuns,
        outOfOrder,
        topConversations: totals.ranked,
        topPairs: pairs.top(cfg.top),
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

/** The report's sums over finished conversations, and the most flapping of them in order. */
class ConversationTotals {
  bounces = 0;
  nearTieStays = 0;
  stayRuns = 0;
  keyedByTrace = 0;
  flapping = 0;
  readonly ranked: FlappingConversation[] = [];

  constructor(private readonly top: number) {}

  /** Add one finished conversation. */
  add(c: ConversationFlaps): void {
    this.bounces += c.bounces;
    this.nearTieStays += c.nearTieStays;
    this.stayRuns += c.stayRuns;
    if (c.keyedBy === 'trace') this.keyedByTrace++;
    const flaps = c.bounces + c.stayRuns;
    if (flaps === 0) return;
    this.flapping++;
    pushTop(this.ranked, c.toConversation(flaps), this.top, compareConversations);
  }
}
