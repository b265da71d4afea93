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
import type { TraceRecord } from '../../record/types.js';
import {
  INCONSISTENT,
  IndexPart,
  NEAR_TIE,
  SEMANTICS_OF_CODE,
  StringTable,
  TABLE_NAMES,
  createTables,
  type MarkRow,
  type PartSnapshot,
  type TableName,
} from './indexPart.js';

export {
  FLOORLESS,
  INCONSISTENT,
  MISROUTED,
  NEAR_TIE,
  StringTable,
  VERDICTS,
  type MarkRow,
} from './indexPart.js';

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
  readonly time: Float64Array;
  readonly verdict: Int8Array;
  readonly gap: Float64Array;
  readonly margin: Float64Array;
  readonly flags: Uint8Array;
  readonly conversation: Int32Array;
  /** Trace and span ids per decision, as strings: nearly every one is unique, so a table would only cost. */
  readonly traceIds: readonly string[];
  readonly spanIds: readonly string[];
  readonly router: Int32Array;
  readonly scorer: Int32Array;
  /** The skill the turn went to (move), else the top-ranked candidate. */
  readonly skill: Int32Array;
  readonly runnerUp: Int32Array;
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

/** Start an index of the window: one part, settled by itself. */
export function createWindowIndex(): WindowIndexBuilder {
  const part = new IndexPart();
  return {
    observe: part.observe,
    add: (r) => part.add(r),
    finish: (summary) => mergeIndexParts([part.snapshot()], summary),
  };
}

/** `from`'s first `n` string indexes mapped through `map` (-1 stays -1), copied into `into` at `at`. */
function copyMapped(into: Int32Array, at: number, from: Int32Array, n: number, map: Int32Array): void {
  for (let i = 0; i < n; i++) {
    const t = from[i]!;
    into[at + i] = t < 0 ? -1 : map[t]!;
  }
}

/**
 * The index of the records of `parts`, in order, as one part of them all would give: string tables filled in
 * the order the strings first appear, each decision flagged inconsistent under the behaviour that judged it
 * (`summary`, the merged analysis, after its finish). Parts are left as they were. Costs a copy of the columns,
 * a lookup per distinct string of each part (never one per decision) and a merge of the parts' sorted orders.
 */
export function mergeIndexParts(
  snapshots: readonly PartSnapshot[],
  summary: Pick<SummaryAnalysis, 'judge'>,
): WindowIndex {
  let n = 0;
  for (const s of snapshots) n += s.decisions;
  const tables = createTables();
  const time = new Float64Array(n);
  const verdict = new Int8Array(n);
  const gap = new Float64Array(n);
  const margin = new Float64Array(n);
  const flags = new Uint8Array(n);
  const conversation = new Int32Array(n);
  const router = new Int32Array(n);
  const scorer = new Int32Array(n);
  const skill = new Int32Array(n);
  const runnerUp = new Int32Array(n);
  const traceIds = new Array<string>(n);
  const spanIds = new Array<string>(n);
  const marks: MarkRow[] = [];
  const runs: Int32Array[] = [];
  // The behaviour that judges a decision, per service and recorded behaviour: a judge per pair, not per decision.
  let judged = new Int8Array(0);
  let at = 0;
  for (const snapshot of snapshots) {
    const { part: p, decisions: count } = snapshot;
    const maps = {} as Record<TableName, Int32Array>;
    for (const name of TABLE_NAMES) {
      const values = p.tables[name].values;
      const map = new Int32Array(snapshot.sizes[name]);
      for (let t = 0; t < map.length; t++) map[t] = tables[name].intern(values[t]);
      maps[name] = map;
    }
    time.set(p.time.subarray(0, count), at);
    verdict.set(p.verdict.subarray(0, count), at);
    gap.set(p.gap.subarray(0, count), at);
    margin.set(p.margin.subarray(0, count), at);
    for (let i = 0; i < count; i++) {
      traceIds[at + i] = p.traceId(i);
      spanIds[at + i] = p.spanId(i);
    }
    copyMapped(conversation, at, p.conversation, count, maps.conversations);
    copyMapped(router, at, p.router, count, maps.routers);
    copyMapped(scorer, at, p.scorer, count, maps.scorers);
    copyMapped(skill, at, p.skill, count, maps.skills);
    copyMapped(runnerUp, at, p.runnerUp, count, maps.skills);
    const keys = (tables.services.size + 1) * 3;
    if (judged.length < keys) {
      const grown = new Int8Array(keys).fill(-1);
      grown.set(judged);
      judged = grown;
    }
    for (let i = 0; i < count; i++) {
      const recorded = p.recordedSemantics[i]!;
      const sv = p.service[i]! < 0 ? -1 : maps.services[p.service[i]!]!;
      const key = (sv + 1) * 3 + recorded;
      if (judged[key] === -1) {
        const semantics = summary.judge({
          service: tables.services.get(sv),
          semantics: SEMANTICS_OF_CODE[recorded],
        });
        judged[key] = semantics === 'contract' ? 0 : 2;
      }
      const code = (p.repro[i]! >> judged[key]!) & 3;
      flags[at + i] = code === 2 ? p.flags[i]! | INCONSISTENT : p.flags[i]!;
    }
    for (let i = 0; i < snapshot.marks; i++) marks.push(p.marks[i]!);
    const local = p.newestFirst(count);
    const run = new Int32Array(local.length);
    for (let i = 0; i < local.length; i++) run[i] = local[i]! + at;
    runs.push(run);
    at += count;
  }
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
    newestFirst: mergeRuns(runs, time),
    conversations: tables.conversations,
    routers: tables.routers,
    scorers: tables.scorers,
    skills: tables.skills,
    marks: marks.sort((a, b) => b.timeUnixMs - a.timeUnixMs),
    conversationRows: conversationRows(n, conversation, flags, time, marks, tables.conversations),
  };
}

/** Runs of positions, each newest first (time descending, then position descending), merged into one. */
function mergeRuns(runs: Int32Array[], time: Float64Array): Int32Array {
  if (runs.length === 0) return new Int32Array(0);
  let level = runs;
  while (level.length > 1) {
    const next: Int32Array[] = [];
    for (let r = 0; r < level.length; r += 2) {
      next.push(r + 1 < level.length ? mergeTwo(level[r]!, level[r + 1]!, time) : level[r]!);
    }
    level = next;
  }
  return level[0]!;
}

function mergeTwo(a: Int32Array, b: Int32Array, time: Float64Array): Int32Array {
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    // Newer first; at equal times the later position first.
    if (time[x]! > time[y]! || (time[x] === time[y] && x > y)) {
      out[k++] = x;
      i++;
    } else {
      out[k++] = y;
      j++;
    }
  }
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

/** Count each conversation's decisions, near-ties and marks; most recently active first. */
function conversationRows(
  n: number,
  conversation: Int32Array,
  flags: Uint8Array,
  time: Float64Array,
  marks: readonly MarkRow[],
  table: StringTable,
): ConversationRow[] {
  const size = table.size;
  const decisions = new Int32Array(size);
  const nearTies = new Int32Array(size);
  const markCount = new Int32Array(size);
  const firstMs = new Float64Array(size).fill(Infinity);
  const lastMs = new Float64Array(size).fill(-Infinity);
  const seen = new Uint8Array(size);
  const order: number[] = [];
  const touch = (c: number, ms: number): void => {
    if (seen[c] === 0) {
      seen[c] = 1;
      order.push(c);
    }
    if (ms < firstMs[c]!) firstMs[c] = ms;
    if (ms > lastMs[c]!) lastMs[c] = ms;
  };
  for (let i = 0; i < n; i++) {
    const c = conversation[i]!;
    if (c < 0) continue;
    decisions[c]!++;
    if (flags[i]! & NEAR_TIE) nearTies[c]!++;
    touch(c, time[i]!);
  }
  for (const m of marks) {
    if (m.conversationId === undefined) continue;
    const c = table.find(m.conversationId);
    markCount[c]!++;
    touch(c, m.timeUnixMs);
  }
  return order
    .map((c) => ({
      conversation: c,
      decisions: decisions[c]!,
      nearTies: nearTies[c]!,
      marks: markCount[c]!,
      firstMs: firstMs[c]!,
      lastMs: lastMs[c]!,
    }))
    .sort((a, b) => b.lastMs - a.lastMs || a.conversation - b.conversation);
}
