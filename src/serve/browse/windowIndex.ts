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

/** The string tables of an index or of one part of it. */
interface Tables {
  readonly conversations: StringTable;
  readonly routers: StringTable;
  readonly scorers: StringTable;
  readonly skills: StringTable;
  readonly services: StringTable;
}
const TABLE_NAMES = ['conversations', 'routers', 'scorers', 'skills', 'services'] as const;
const createTables = (): Tables => ({
  conversations: new StringTable(),
  routers: new StringTable(),
  scorers: new StringTable(),
  skills: new StringTable(),
  services: new StringTable(),
});

/**
 * The index of consecutive records (one slice of serve's window): columns per decision, indexes into its own
 * string tables. Parts are merged, in the order of their records, into the index of all of them (mergeIndexParts).
 */
export class IndexPart implements Omit<WindowIndexBuilder, 'finish'> {
  readonly time: number[] = [];
  readonly verdict: number[] = [];
  readonly gap: number[] = [];
  readonly margin: number[] = [];
  readonly flags: number[] = [];
  readonly conversation: number[] = [];
  readonly traceIds: string[] = [];
  readonly spanIds: string[] = [];
  readonly router: number[] = [];
  readonly scorer: number[] = [];
  readonly skill: number[] = [];
  readonly runnerUp: number[] = [];
  readonly service: number[] = [];
  readonly recordedSemantics: (PolicySemantics | undefined)[] = [];
  readonly repro: number[] = [];
  readonly tables: Tables = createTables();
  readonly marks: MarkRow[] = [];
  // The audit tells each decision before `add` sees it: its reproduction waits here.
  private observedRecord: DecisionRecord | undefined;
  private observedCode = 0;

  readonly observe: AuditObserver = (d, replays) => {
    this.observedRecord = d;
    this.observedCode = reproCode(replays.contract) | (reproCode(replays['agentfootprint-9.62']) << 2);
  };

  get decisions(): number {
    return this.time.length;
  }

  add(r: TraceRecord): void {
    if (r.kind === 'decision') this.addDecision(r);
    else if (r.kind === 'misroute') {
      this.tables.conversations.intern(r.conversationId);
      this.marks.push(markRow(r, r.mark));
    } else this.tables.conversations.intern(r.conversationId);
  }

  private addDecision(d: DecisionRecord): void {
    const tables = this.tables;
    this.time.push(d.timeUnixMs);
    this.verdict.push(VERDICTS.indexOf(d.verdict));
    this.gap.push(d.runnerUp?.gap ?? NaN);
    this.margin.push(d.policy.nearTieMargin);
    this.flags.push(
      (d.nearTie ? NEAR_TIE : 0) |
        (d.floorDeclared ? 0 : FLOORLESS) |
        (d.misroutes.length > 0 ? MISROUTED : 0),
    );
    this.conversation.push(tables.conversations.intern(d.conversationId));
    this.traceIds.push(d.traceId);
    this.spanIds.push(d.spanId);
    this.router.push(tables.routers.intern(d.router));
    this.scorer.push(tables.scorers.intern(d.scorer));
    const to = d.verdict === 'move' ? d.to : d.ranked[0]?.id;
    this.skill.push(tables.skills.intern(to));
    this.runnerUp.push(tables.skills.intern(d.runnerUp?.id));
    this.service.push(tables.services.intern(d.service));
    this.recordedSemantics.push(d.semantics);
    this.repro.push(this.observedRecord === d ? this.observedCode : 0);
    this.observedRecord = undefined;
    for (const m of d.misroutes) this.marks.push(markRow(d, m, d.verdict === 'move' ? d.to : d.verdict));
  }
}

function markRow(r: TraceRecord, mark: MisrouteMark, routedTo?: string): MarkRow {
  return {
    timeUnixMs: mark.timeUnixMs ?? r.timeUnixMs,
    traceId: r.traceId,
    spanId: r.spanId,
    ...(r.conversationId === undefined ? {} : { conversationId: r.conversationId }),
    ...(r.router === undefined ? {} : { router: r.router }),
    ...(routedTo === undefined ? {} : { routedTo }),
    mark,
  };
}

/** Start an index of the window: one part, settled by itself. */
export function createWindowIndex(): WindowIndexBuilder {
  const part = new IndexPart();
  return {
    observe: part.observe,
    add: (r) => part.add(r),
    finish: (summary) => mergeIndexParts([part], summary),
  };
}

/** `part`'s column `name`, its string indexes mapped through `map` (-1 stays -1), copied into `into` at `at`. */
function copyMapped(into: number[], at: number, from: readonly number[], map: Int32Array): void {
  for (let i = 0; i < from.length; i++) {
    const t = from[i]!;
    into[at + i] = t < 0 ? -1 : map[t]!;
  }
}

function copyPlain<T>(into: T[], at: number, from: readonly T[]): void {
  for (let i = 0; i < from.length; i++) into[at + i] = from[i]!;
}

/**
 * The index of the records of `parts`, in order, as one part of them all would give: string tables filled in
 * the order the strings first appear, each decision flagged inconsistent under the behaviour that judged it
 * (`summary`, the merged analysis, after its finish). Parts are left as they were. Costs a copy of the columns
 * and a lookup per distinct string of each part, never one per decision.
 */
export function mergeIndexParts(
  parts: readonly IndexPart[],
  summary: Pick<SummaryAnalysis, 'judge'>,
): WindowIndex {
  let n = 0;
  for (const p of parts) n += p.decisions;
  const tables = createTables();
  const col = (): number[] => new Array<number>(n);
  const time = col();
  const verdict = col();
  const gap = col();
  const margin = col();
  const flags = col();
  const conversation = col();
  const router = col();
  const scorer = col();
  const skill = col();
  const runnerUp = col();
  const traceIds = new Array<string>(n);
  const spanIds = new Array<string>(n);
  const marks: MarkRow[] = [];
  // The behaviour that judges a decision, per service and recorded behaviour: a judge per pair, not per decision.
  const judged = new Map<number, PolicySemantics>();
  let at = 0;
  for (const p of parts) {
    const maps = {} as Record<(typeof TABLE_NAMES)[number], Int32Array>;
    for (const name of TABLE_NAMES) {
      const values = p.tables[name].values;
      const map = new Int32Array(values.length);
      for (let t = 0; t < values.length; t++) map[t] = tables[name].intern(values[t]);
      maps[name] = map;
    }
    copyPlain(time, at, p.time);
    copyPlain(verdict, at, p.verdict);
    copyPlain(gap, at, p.gap);
    copyPlain(margin, at, p.margin);
    copyPlain(traceIds, at, p.traceIds);
    copyPlain(spanIds, at, p.spanIds);
    copyMapped(conversation, at, p.conversation, maps.conversations);
    copyMapped(router, at, p.router, maps.routers);
    copyMapped(scorer, at, p.scorer, maps.scorers);
    copyMapped(skill, at, p.skill, maps.skills);
    copyMapped(runnerUp, at, p.runnerUp, maps.skills);
    for (let i = 0; i < p.decisions; i++) {
      const recorded = p.recordedSemantics[i];
      const sv = p.service[i]! < 0 ? -1 : maps.services[p.service[i]!]!;
      const key = (sv + 1) * 3 + (recorded === undefined ? 0 : recorded === 'contract' ? 1 : 2);
      let semantics = judged.get(key);
      if (semantics === undefined) {
        semantics = summary.judge({ service: tables.services.get(sv), semantics: recorded });
        judged.set(key, semantics);
      }
      const code = (p.repro[i]! >> (semantics === 'contract' ? 0 : 2)) & 3;
      flags[at + i] = code === 2 ? p.flags[i]! | INCONSISTENT : p.flags[i]!;
    }
    for (const m of p.marks) marks.push(m);
    at += p.decisions;
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
