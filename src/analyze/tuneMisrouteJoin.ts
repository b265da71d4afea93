/**
 * tuneMisrouteJoin — which swept decisions are known misroutes, for tune's "misroutes caught" figures.
 *
 * A decision is marked misrouted by an event on its own span, or by a feedback span (a misroute record) that
 * names the decision's span, or only its trace. A feedback span may come before or after its decisions in the
 * input, so marks wait in a bounded set of pending traces and decisions in a bounded window of recent ones
 * (oldest trace dropped first); the two are joined whenever either side arrives. A decision counts once
 * however many marks name it. Pure.
 */
import type { DecisionRecord, MisrouteRecord } from '../record/types.js';
import type { Swept } from './tuneCurve.js';

/** The most traces whose marks may wait for their decisions; marks of further traces are dropped. */
const MAX_MARKED_TRACES = 100_000;

/** What the marks joined to, once the input is over. */
export interface JoinedMisroutes {
  /** Whether the input held any mark (on a decision's span or a feedback span). */
  readonly hasMarks: boolean;
  /** The decisions marked misrouted, swept, each once. */
  readonly marked: readonly Swept[];
  /** Of `marked`, recorded as a menu. */
  readonly caughtRecorded: number;
  /** Feedback marks whose trace held no decision in the input (or one too old to join). */
  readonly unjoined: number;
}

/** A recent decision held for the marks of its trace. */
interface Held {
  readonly spanId: string;
  readonly swept: Swept;
  readonly recordedMenu: boolean;
}

/** Joins misroute marks to swept decisions: feed both in input order, then `finish()` once. */
export class MisrouteJoin {
  private readonly marked: Swept[] = [];
  private caughtRecorded = 0;
  private readonly markedKeys = new Set<string>();
  /** Recent decisions by trace, oldest trace first. */
  private readonly recent = new Map<string, Held[]>();
  private recentSize = 0;
  /** Marks waiting for their decisions: trace → the span ids they name ('' = none named). */
  private readonly pendingMarks = new Map<string, Set<string>>();
  private markCount = 0;

  /** `joinWindow`: how many recent decisions are held for marks that come after them. */
  constructor(private readonly joinWindow: number) {}

  /** A swept decision: marked if its own span says so, held for later marks, joined to earlier ones. */
  addDecision(d: DecisionRecord, swept: Swept): void {
    const recordedMenu = d.verdict === 'menu';
    if (d.misroutes.length > 0) this.markDecision(d.traceId, d.spanId, swept, recordedMenu);
    let held = this.recent.get(d.traceId);
    if (held === undefined) {
      held = [];
      this.recent.set(d.traceId, held);
    }
    held.push({ spanId: d.spanId, swept, recordedMenu });
    this.recentSize++;
    if (this.pendingMarks.has(d.traceId)) this.resolveMarks(d.traceId);
    this.evictOldest();
  }

  /** A feedback span's mark: joined to its trace's recent decisions, and kept for decisions still to come. */
  addMark(m: MisrouteRecord): void {
    let parents = this.pendingMarks.get(m.traceId);
    if (parents === undefined) {
      if (this.pendingMarks.size >= MAX_MARKED_TRACES) return;
      parents = new Set();
      this.pendingMarks.set(m.traceId, parents);
    }
    this.markCount++;
    // Stryker disable next-line StringLiteral: equivalent — '' stands for "no span named"; any text that is no span id does the same.
    parents.add(m.parentSpanId ?? '');
    this.resolveMarks(m.traceId);
  }

  /** Join what is still pending, and count the marks that found no decision. */
  finish(): JoinedMisroutes {
    // Stryker disable next-line ArrayDeclaration: equivalent — every pending mark was already tried when its trace's last decision arrived.
    for (const traceId of [...this.pendingMarks.keys()]) this.resolveMarks(traceId);
    let unjoined = 0;
    for (const parents of this.pendingMarks.values()) unjoined += parents.size;
    return {
      hasMarks: this.marked.length > 0 || this.markCount > 0,
      marked: this.marked,
      caughtRecorded: this.caughtRecorded,
      unjoined,
    };
  }

  private markDecision(traceId: string, spanId: string, swept: Swept, recordedMenu: boolean): void {
    const key = `${traceId}/${spanId}`;
    if (this.markedKeys.has(key)) return;
    this.markedKeys.add(key);
    this.marked.push(swept);
    if (recordedMenu) this.caughtRecorded++;
  }

  /** Join the marks of a trace to its recent decisions: the marked span if named, else every decision. */
  private resolveMarks(traceId: string): void {
    const parents = this.pendingMarks.get(traceId);
    const held = this.recent.get(traceId);
    if (parents === undefined || held === undefined) return;
    const named = held.filter((h) => parents.has(h.spanId));
    for (const h of named.length > 0 ? named : held)
      this.markDecision(traceId, h.spanId, h.swept, h.recordedMenu);
    this.pendingMarks.delete(traceId);
  }

  /** Drop the oldest traces' decisions while more than `joinWindow` are held. */
  private evictOldest(): void {
    while (this.recentSize > this.joinWindow) {
      const oldest = this.recent.keys().next();
      if (oldest.done === true) break;
      this.recentSize -= this.recent.get(oldest.value)!.length;
      this.recent.delete(oldest.value);
    }
  }
}
