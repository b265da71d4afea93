/**
 * flappingConversation — one conversation's routing judged turn by turn: A → B → A bounces and runs of
 * near-tie stays, once a small reorder buffer has put its decisions back in time order.
 *
 * Records arrive in file order, not time order, so each conversation holds its last few decisions and judges
 * the earliest when the buffer is full. Where the conversation went after a menu is learnt from the next
 * decision's incumbent. There is one such object per conversation (per router) for the whole input, so its
 * state is flat fields and short arrays, and what every conversation shares (the limits, the pair counts) is
 * one reference each. Pure.
 */
import type { Tier2VerdictKind } from '../policy/types.js';
import type { DecisionRecord } from '../record/types.js';
import type { FlappingConfig, FlappingConversation, FlappingEvent } from './flappingReport.js';
import type { PairTallies } from './flappingPairs.js';

/** The few fields of a decision the state machine needs (kept small: it sits in the reorder buffer). */
export interface Step {
  readonly t: number;
  readonly verdict: Tier2VerdictKind;
  readonly to: string | undefined;
  readonly incumbent: string | undefined;
  readonly nearTie: boolean;
  readonly challenger: string | undefined;
  readonly traceId: string;
  /** The trace id was synthesized for an event-log record. */
  readonly synthetic: boolean;
}

/** A decision reduced to a step. (Equal times keep arrival order: the reorder buffer inserts after its equals.) */
export function toStep(record: DecisionRecord): Step {
  const incumbent = record.incumbent?.id;
  const top = record.ranked[0]?.id;
  const challenger = top !== undefined && top !== incumbent ? top : record.runnerUp?.id;
  return {
    t: Number.isFinite(record.timeUnixMs) ? record.timeUnixMs : 0,
    verdict: record.verdict,
    to: record.to,
    incumbent,
    nearTie: record.nearTie,
    challenger: challenger !== incumbent ? challenger : undefined,
    traceId: record.traceId,
    synthetic: record.syntheticTraceId === true,
  };
}

/** An example's trace ids (one, or first and last) and the synthesized ones among them. */
function exampleTraces(
  first: string,
  firstSynthetic: boolean,
  last: string,
  lastSynthetic: boolean,
): Pick<FlappingEvent, 'traceIds' | 'syntheticTraceIds'> {
  const traceIds = first === last ? [first] : [first, last];
  const synthetic = traceIds.filter((id, i) => (i === 0 ? firstSynthetic : lastSynthetic));
  return synthetic.length === 0 ? { traceIds } : { traceIds, syntheticTraceIds: synthetic };
}

/** The last move from one skill to another. */
interface Transition {
  readonly from: string;
  readonly to: string;
  readonly turn: number;
  readonly traceId: string;
  readonly synthetic: boolean;
}

/** Near-tie stays in a row on one incumbent. */
interface Run {
  readonly incumbent: string;
  readonly fromTurn: number;
  length: number;
  readonly challengers: string[];
  readonly firstTrace: string;
  readonly firstSynthetic: boolean;
  lastTrace: string;
  lastSynthetic: boolean;
}

/** One conversation (per router): feed it steps with `add`, then `finish()` once. */
export class ConversationFlaps {
  private readonly buffer: Step[] = [];
  private lastFlushed = -Infinity;
  /** Decisions judged; the last one's turn (1-based). */
  private turn = 0;
  private lastSkill: string | undefined = undefined;
  private lastTransition: Transition | undefined = undefined;
  private run: Run | undefined = undefined;
  bounces = 0;
  nearTieStays = 0;
  stayRuns = 0;
  private longestStayRun = 0;
  private readonly examples: FlappingEvent[] = [];
  /** Indexes of the pairs already counted for this conversation (see flappingPairs). */
  // Stryker disable next-line ArrayDeclaration: equivalent — the list holds pair indexes (numbers); a stray string is never one of them.
  private readonly pairsSeen: number[] = [];

  constructor(
    readonly id: string,
    readonly keyedBy: 'conversation' | 'trace',
    private readonly router: string | undefined,
    private readonly service: string | undefined,
    private readonly cfg: FlappingConfig,
    private readonly pairs: PairTallies,
    /** Keyed by a trace id routescope synthesized (an event-log record without a session). */
    private readonly syntheticId = false,
  ) {}

  /** Buffer one step, judging the earliest when the buffer is full; true when it came too late to reorder. */
  add(step: Step): boolean {
    const late = step.t < this.lastFlushed;
    insertByTime(this.buffer, step);
    if (this.buffer.length > this.cfg.reorderWindow) this.flushOne();
    return late;
  }

  /** Judge what is still buffered and close the open run. */
  finish(): void {
    while (this.buffer.length > 0) this.flushOne();
    this.closeRun();
  }

  /** The conversation as the report lists it. */
  toConversation(flaps: number): FlappingConversation {
    return {
      id: this.id,
      keyedBy: this.keyedBy,
      ...(this.syntheticId ? { syntheticId: true as const } : {}),
      ...(this.router === undefined ? {} : { router: this.router }),
      ...(this.service === undefined ? {} : { service: this.service }),
      decisions: this.turn,
      bounces: this.bounces,
      nearTieStays: this.nearTieStays,
      stayRuns: this.stayRuns,
      longestStayRun: this.longestStayRun,
      flaps,
      examples: this.examples,
    };
  }

  private flushOne(): void {
    const step = this.buffer.shift();
    if (step === undefined) return;
    this.lastFlushed = step.t;
    this.judge(step);
  }

  /** One turn: its arrivals (the incumbent, a move), then a near-tie stay extends a run; any other ends it. */
  private judge(step: Step): void {
    this.turn++;
    const turn = this.turn;
    // The incumbent says where the previous turn ended up (a menu's pick, a tier-1 hop): an arrival there.
    if (step.incumbent !== undefined && step.incumbent !== this.lastSkill) {
      if (this.lastSkill === undefined) this.lastSkill = step.incumbent;
      else this.transition(step.incumbent, turn - 1, step.traceId, step.synthetic);
    }
    if (step.verdict === 'move' && step.to !== undefined)
      this.transition(step.to, turn, step.traceId, step.synthetic);

    if (step.verdict === 'stay' && step.nearTie && step.incumbent !== undefined) {
      this.keepByAmbiguity(step.incumbent, step, turn);
    } else {
      this.closeRun();
    }
  }

  /** An arrival at `to`: a bounce when it returns, within the window, to the skill the last move left. */
  private transition(to: string, turn: number, traceId: string, synthetic: boolean): void {
    const from = this.lastSkill;
    this.lastSkill = to;
    if (from === undefined || from === to) return;
    const last = this.lastTransition;
    if (last !== undefined && last.to === from && last.from === to && turn - last.turn <= this.cfg.window) {
      this.bounces++;
      this.pairs.tally(this.router, this.pairsSeen, to, from).bounces++;
      this.keepExample({
        kind: 'bounce',
        skill: to,
        via: from,
        fromTurn: last.turn,
        toTurn: turn,
        ...exampleTraces(last.traceId, last.synthetic, traceId, synthetic),
      });
    }
    this.lastTransition = { from, to, turn, traceId, synthetic };
  }

  /** A near-tie stay on `incumbent`: counted, and a turn of its run (a new run when the incumbent changed). */
  private keepByAmbiguity(incumbent: string, step: Step, turn: number): void {
    this.nearTieStays++;
    if (step.challenger !== undefined)
      this.pairs.tally(this.router, this.pairsSeen, incumbent, step.challenger).nearTieStays++;
    if (this.run !== undefined && this.run.incumbent !== incumbent) this.closeRun();
    if (this.run === undefined) {
      this.run = {
        incumbent,
        fromTurn: turn,
        length: 0,
        challengers: [],
        firstTrace: step.traceId,
        firstSynthetic: step.synthetic,
        lastTrace: step.traceId,
        lastSynthetic: step.synthetic,
      };
    }
    const run = this.run;
    run.length++;
    run.lastTrace = step.traceId;
    run.lastSynthetic = step.synthetic;
    if (
      step.challenger !== undefined &&
      run.challengers.length < 3 &&
      !run.challengers.includes(step.challenger)
    ) {
      run.challengers.push(step.challenger);
    }
  }

  /** End the open run; one at least `minStayRun` long counts, with its challengers' pairs and an example. */
  private closeRun(): void {
    const run = this.run;
    this.run = undefined;
    if (run === undefined || run.length < this.cfg.minStayRun) return;
    this.stayRuns++;
    // Stryker disable next-line EqualityOperator: equivalent — replacing the longest with an equal length changes nothing.
    if (run.length > this.longestStayRun) this.longestStayRun = run.length;
    for (const c of run.challengers)
      this.pairs.tally(this.router, this.pairsSeen, run.incumbent, c).stayRuns++;
    this.keepExample({
      kind: 'stay-run',
      incumbent: run.incumbent,
      challengers: run.challengers,
      fromTurn: run.fromTurn,
      length: run.length,
      ...exampleTraces(run.firstTrace, run.firstSynthetic, run.lastTrace, run.lastSynthetic),
    });
  }

  private keepExample(event: FlappingEvent): void {
    if (this.examples.length < this.cfg.examplesPerConversation) this.examples.push(event);
  }
}

/** Insert keeping time order; equal times keep arrival order. The buffer is short, so a scan is fine. */
function insertByTime(buffer: Step[], step: Step): void {
  let i = buffer.length;
  while (i > 0 && buffer[i - 1]!.t > step.t) i--;
  buffer.splice(i, 0, step);
}
