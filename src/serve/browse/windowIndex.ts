/**
 * windowIndex — the window's decisions as columns, for the lists and the search of serve's live page.
 *
 * Made in the same replay as the window's analyze view (one pass per revision, kept with it): per decision a
 * handful of numbers (time, verdict, gap, margin, flags) and indexes into string tables (conversation, trace,
 * span, router, scorer, skills), so a filter, a page of a list or a search is a scan of arrays, never another
 * replay of the records. Inconsistent decisions are known only when the audit is settled: each decision keeps
 * whether each behaviour reproduces it, and `finish` applies the behaviour that judged it. Its size follows the
 * window's (--max-decisions, --max-window-mb), never a sender's. Pure. No I/O.
 */
import type { AuditObserver, SummaryAnalysis } from '../../analyze/summarizeDecisions.js';
import type { PolicySemantics, Tier2VerdictKind } from '../../policy/types.js';
import type { DecisionRecord, MisrouteMark, TraceRecord } from '../../record/types.js';

/** The verdicts, by the code the index keeps. */
export const VERDICTS: readonly Tier2VerdictKind[] = ['move', 'stay', 'menu', 'unmatched'];

/** Flags of a decision. */
export const NEAR_TIE = 1;
export const FLOORLESS = 2;
export const MISROUTED = 4;
export const INCONSISTENT = 8;

/** Distinct strings of one kind, each kept once; index -1 is "none". */
export class StringTable {
  readonly values: string[] = [];
  private readonly at = new Map<string, number>();

  /** The index of `value` (added when new); -1 for undefined. */
  intern(value: string | undefined): number {
    if (value === undefined) return -1;
    let i = this.at.get(value);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(value);
      this.at.set(value, i);
    }
    return i;
  }

  /** The index of `value`, or -1 when the table does not hold it. */
  find(value: string): number {
    return this.at.get(value) ?? -1;
  }

  /** The string at `i`, or undefined for -1. */
  get(i: number): string | undefined {
    return i < 0 ? undefined : this.values[i];
  }

  get size(): number {
    return this.values.length;
  }
}

/** One misroute mark in the window: where it was recorded and what the reviewer said. */
export interface MarkRow {
  readonly timeUnixMs: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly conversationId?: string;
  readonly router?: string;
  /** Where the turn went (the decision's skill or verdict), when the mark is on a decision. */
  readonly routedTo?: string;
  readonly mark: MisrouteMark;
}

/** One conversation of the window. */
export interface ConversationRow {
  readonly conversation: number;
  readonly decisions: number;
  readonly nearTies: number;
  readonly marks: number;
  readonly firstMs: number;
  readonly lastMs: number;
}

/** The index as built; read by browseQueries. */
export interface WindowIndex {
  readonly decisions: number;
  readonly time: readonly number[];
  readonly verdict: readonly number[];
  readonly gap: readonly number[];
  readonly margin: readonly number[];
  readonly flags: readonly number[];
  readonly conversation: readonly number[];
  /** Trace and span ids per decision, as strings: nearly every one is unique, so a table would only cost. */
  readonly traceIds: readonly string[];
  readonly spanIds: readonly string[];
  readonly router: readonly number[];
  readonly scorer: readonly number[];
  /** The skill the turn went to (move), else the top-ranked candidate. */
  readonly skill: readonly number[];
  readonly runnerUp: readonly number[];
  /** Decision positions, newest first (by start time, then arrival). */
  readonly newestFirst: Int32Array;
  readonly conversations: StringTable;
  readonly routers: StringTable;
  readonly scorers: StringTable;
  readonly skills: StringTable;
  /** Every misroute mark of the window, newest first. */
  readonly marks: readonly MarkRow[];
  /** The conversations with their counts, most recent first. */
  readonly conversationRows: readonly ConversationRow[];
}

/** The index being built: `observe` goes to the summary analysis, `add` sees every record. */
export interface WindowIndexBuilder {
  readonly observe: AuditObserver;
  add(r: TraceRecord): void;
  /** Settle the index; `summary` is the analysis whose audit judged the decisions (after its finish). */
  finish(summary: Pick<SummaryAnalysis, 'judge'>): WindowIndex;
}

// Reproduction per behaviour: 0 undecided, 1 reproduces, 2 does not.
const reproCode = (o: { kind: string; differences?: readonly string[] }): number =>
  o.kind !== 'replayed' ? 0 : (o.differences?.length ?? 0) === 0 ? 1 : 2;

/** Start an index of the window. */
export function createWindowIndex(): WindowIndexBuilder {
  const time: number[] = [];
  const verdict: number[] = [];
  const gap: number[] = [];
  const margin: number[] = [];
  const flags: number[] = [];
  const conversation: number[] = [];
  const traceIds: string[] = [];
  const spanIds: string[] = [];
  const router: number[] = [];
  const scorer: number[] = [];
  const skill: number[] = [];
  const runnerUp: number[] = [];
  const service: number[] = [];
  const recordedSemantics: (PolicySemantics | undefined)[] = [];
  const repro: number[] = [];
  const tables = {
    conversations: new StringTable(),
    routers: new StringTable(),
    scorers: new StringTable(),
    skills: new StringTable(),
    services: new StringTable(),
  };
  const marks: MarkRow[] = [];
  // The audit tells each decision before `add` sees it: its reproduction waits here.
  let observedRecord: DecisionRecord | undefined;
  let observedCode = 0;

  const markRow = (r: TraceRecord, mark: MisrouteMark, routedTo?: string): MarkRow => ({
    timeUnixMs: mark.timeUnixMs ?? r.timeUnixMs,
    traceId: r.traceId,
    spanId: r.spanId,
    ...(r.conversationId === undefined ? {} : { conversationId: r.conversationId }),
    ...(r.router === undefined ? {} : { router: r.router }),
    ...(routedTo === undefined ? {} : { routedTo }),
    mark,
  });

  const addDecision = (d: DecisionRecord): void => {
    time.push(d.timeUnixMs);
    verdict.push(VERDICTS.indexOf(d.verdict));
    gap.push(d.runnerUp?.gap ?? NaN);
    margin.push(d.policy.nearTieMargin);
    flags.push(
      (d.nearTie ? NEAR_TIE : 0) |
        (d.floorDeclared ? 0 : FLOORLESS) |
        (d.misroutes.length > 0 ? MISROUTED : 0),
    );
    conversation.push(tables.conversations.intern(d.conversationId));
    traceIds.push(d.traceId);
    spanIds.push(d.spanId);
    router.push(tables.routers.intern(d.router));
    scorer.push(tables.scorers.intern(d.scorer));
    const to = d.verdict === 'move' ? d.to : d.ranked[0]?.id;
    skill.push(tables.skills.intern(to));
    runnerUp.push(tables.skills.intern(d.runnerUp?.id));
    service.push(tables.services.intern(d.service));
    recordedSemantics.push(d.semantics);
    repro.push(observedRecord === d ? observedCode : 0);
    observedRecord = undefined;
    for (const m of d.misroutes) marks.push(markRow(d, m, d.verdict === 'move' ? d.to : d.verdict));
  };

  return {
    observe(d, replays) {
      observedRecord = d;
      observedCode = reproCode(replays.contract) | (reproCode(replays['agentfootprint-9.62']) << 2);
    },
    add(r) {
      if (r.kind === 'decision') addDecision(r);
      else if (r.kind === 'misroute') {
        tables.conversations.intern(r.conversationId);
        marks.push(markRow(r, r.mark));
      } else tables.conversations.intern(r.conversationId);
    },
    finish(summary) {
      const n = time.length;
      for (let i = 0; i < n; i++) {
        const semantics = summary.judge({
          service: tables.services.get(service[i]!),
          semantics: recordedSemantics[i],
        });
        const code = (repro[i]! >> (semantics === 'contract' ? 0 : 2)) & 3;
        if (code === 2) flags[i] = flags[i]! | INCONSISTENT;
      }
      const newestFirst = Int32Array.from({ length: n }, (_, i) => n - 1 - i).sort(
        (a, b) => time[b]! - time[a]! || b - a,
      );
      return {
        decisions: n,
        time,
        verdict,
        gap,
        margin,
        flags,
        conversation,
        traceIds,
        spanIds,
        router,
        scorer,
        skill,
        runnerUp,
        newestFirst,
        conversations: tables.conversations,
        routers: tables.routers,
        scorers: tables.scorers,
        skills: tables.skills,
        marks: marks.sort((a, b) => b.timeUnixMs - a.timeUnixMs),
        conversationRows: conversationRows(n, conversation, flags, time, marks, tables.conversations),
      };
    },
  };
}

/** Count each conversation's decisions, near-ties and marks; most recently active first. */
function conversationRows(
  n: number,
  conversation: readonly number[],
  flags: readonly number[],
  time: readonly number[],
  marks: readonly MarkRow[],
  table: StringTable,
): ConversationRow[] {
  const rows = new Map<
    number,
    { decisions: number; nearTies: number; marks: number; firstMs: number; lastMs: number }
  >();
  const rowOf = (c: number) => {
    let row = rows.get(c);
    if (row === undefined) {
      row = { decisions: 0, nearTies: 0, marks: 0, firstMs: Infinity, lastMs: -Infinity };
      rows.set(c, row);
    }
    return row;
  };
  for (let i = 0; i < n; i++) {
    if (conversation[i]! < 0) continue;
    const row = rowOf(conversation[i]!);
    row.decisions++;
    if (flags[i]! & NEAR_TIE) row.nearTies++;
    row.firstMs = Math.min(row.firstMs, time[i]!);
    row.lastMs = Math.max(row.lastMs, time[i]!);
  }
  for (const m of marks) {
    if (m.conversationId === undefined) continue;
    const row = rowOf(table.find(m.conversationId));
    row.marks++;
    row.firstMs = Math.min(row.firstMs, m.timeUnixMs);
    row.lastMs = Math.max(row.lastMs, m.timeUnixMs);
  }
  return [...rows]
    .map(([c, r]) => ({ conversation: c, ...r }))
    .sort((a, b) => b.lastMs - a.lastMs || a.conversation - b.conversation);
}
