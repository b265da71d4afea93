/**
 * flappingReport — what the flapping analysis looks for and reports (conversations, skill pairs, their examples),
 * and the order its rankings keep. Pure.
 */

/** What `flapping` looks for. */
export interface FlappingConfig {
  /** A → B → A counts when the return comes at most this many turns after leaving A. @default 3 */
  readonly window: number;
  /** Consecutive near-tie stays on one incumbent that make a run worth reporting. @default 3 */
  readonly minStayRun: number;
  /** How many conversations and skill pairs the report ranks. @default 10 */
  readonly top: number;
  /** Example events kept per conversation. @default 3 */
  readonly examplesPerConversation: number;
  /** Decisions per conversation held back to restore time order before judging. @default 8 */
  readonly reorderWindow: number;
}

/** One flapping event, with the turns (1-based, in conversation order) and traces that show it. */
export type FlappingEvent =
  | {
      readonly kind: 'bounce';
      /** The skill left and returned to. */
      readonly skill: string;
      /** The skill visited in between. */
      readonly via: string;
      readonly fromTurn: number;
      readonly toTurn: number;
      readonly traceIds: readonly string[];
      /** Of `traceIds`, those synthesized for event-log records (absent when none is). */
      readonly syntheticTraceIds?: readonly string[];
    }
  | {
      readonly kind: 'stay-run';
      /** The skill kept by near-ties. */
      readonly incumbent: string;
      /** The skills it tied with (top or runner-up), first seen first, at most three. */
      readonly challengers: readonly string[];
      readonly fromTurn: number;
      readonly length: number;
      readonly traceIds: readonly string[];
      /** Of `traceIds`, those synthesized for event-log records (absent when none is). */
      readonly syntheticTraceIds?: readonly string[];
    };

/** One conversation (per router) that flapped. */
export interface FlappingConversation {
  readonly id: string;
  /** `conversation` = `gen_ai.conversation.id`; `trace` = no conversation id, the trace stands in. */
  readonly keyedBy: 'conversation' | 'trace';
  /** Keyed by a trace id routescope synthesized for event-log records: no trace store holds it. */
  readonly syntheticId?: true;
  readonly router?: string;
  readonly service?: string;
  readonly decisions: number;
  readonly bounces: number;
  readonly nearTieStays: number;
  readonly stayRuns: number;
  readonly longestStayRun: number;
  /** bounces + stay runs: what the ranking sorts by. */
  readonly flaps: number;
  readonly examples: readonly FlappingEvent[];
}

/** An unordered skill pair (sorted) and how often it flapped. */
export interface FlappingPair {
  readonly router?: string;
  readonly pair: readonly [string, string];
  readonly bounces: number;
  /** Near-tie stays where one kept the other out. */
  readonly nearTieStays: number;
  readonly stayRuns: number;
  readonly flaps: number;
  /** Conversations where this pair flapped at least once. */
  readonly conversations: number;
}

/** The flapping report. */
export interface FlappingReport {
  readonly kind: 'flapping';
  readonly config: FlappingConfig;
  readonly decisions: number;
  readonly conversations: number;
  /** Of `conversations`, how many had no conversation id and were keyed by trace. */
  readonly conversationsKeyedByTrace: number;
  readonly conversationsFlapping: number;
  readonly bounces: number;
  readonly nearTieStays: number;
  readonly stayRuns: number;
  /** Decisions that arrived later than the reorder buffer could fix; judged in arrival order. */
  readonly outOfOrder: number;
  readonly topConversations: readonly FlappingConversation[];
  readonly topPairs: readonly FlappingPair[];
}

/** Conversations most flapping first; ties by near-tie stays, decisions, then names. */
export function compareConversations(a: FlappingConversation, b: FlappingConversation): number {
  return (
    b.flaps - a.flaps ||
    b.nearTieStays - a.nearTieStays ||
    b.decisions - a.decisions ||
    compareText(a.id, b.id) ||
    compareText(a.router ?? '', b.router ?? '')
  );
}

/** Skill pairs most flapping first; ties by near-tie stays, conversations, then names. */
export function comparePairs(a: FlappingPair, b: FlappingPair): number {
  return (
    b.flaps - a.flaps ||
    b.nearTieStays - a.nearTieStays ||
    b.conversations - a.conversations ||
    compareText(a.pair.join('\u0000'), b.pair.join('\u0000')) ||
    compareText(a.router ?? '', b.router ?? '')
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Keep the best `limit` items in order; a bounded insertion so the ranking never holds every conversation. */
export function pushTop<T>(top: T[], item: T, limit: number, compare: (a: T, b: T) => number): void {
  if (limit === 0) return;
  if (top.length === limit && compare(item, top[top.length - 1]!) >= 0) return;
  let i = top.length;
  while (i > 0 && compare(item, top[i - 1]!) < 0) i--;
  top.splice(i, 0, item);
  if (top.length > limit) top.pop();
}
