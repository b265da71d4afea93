/**
 * indexPart — the lists' index of consecutive records (one slice of serve's window), as compact columns.
 *
 * Per decision a handful of numbers (time, verdict, gap, margin, flags, the recorded behaviour, whether each
 * behaviour reproduces it) and indexes into the part's own string tables, all in typed arrays that grow by
 * doubling; trace and span ids as their bytes (16 and 8), an id that is not lower-case hex of that length kept
 * aside as text. A part lives as long as its slice, so it is small and holds no string per decision; the index
 * of the window (windowIndex) is made from the parts when a list or a search first asks. Pure. No I/O.
 */
import type { AuditObserver } from '../../analyze/summarizeDecisions.js';
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

// Reproduction per behaviour: 0 undecided, 1 reproduces, 2 does not.
const reproCode = (o: { kind: string; differences?: readonly string[] }): number =>
  o.kind !== 'replayed' ? 0 : (o.differences?.length ?? 0) === 0 ? 1 : 2;

/** The string tables of an index or of one part of it. */
export interface Tables {
  readonly conversations: StringTable;
  readonly routers: StringTable;
  readonly scorers: StringTable;
  readonly skills: StringTable;
  readonly services: StringTable;
}
export const TABLE_NAMES = ['conversations', 'routers', 'scorers', 'skills', 'services'] as const;
export type TableName = (typeof TABLE_NAMES)[number];

/** A part as it was when the snapshot was taken: its first `decisions` decisions, `marks` marks, table entries. */
export interface PartSnapshot {
  readonly part: IndexPart;
  readonly decisions: number;
  readonly marks: number;
  readonly sizes: Readonly<Record<TableName, number>>;
}
export const createTables = (): Tables => ({
  conversations: new StringTable(),
  routers: new StringTable(),
  scorers: new StringTable(),
  skills: new StringTable(),
  services: new StringTable(),
});

/** A recorded behaviour by the code a part keeps (0 none). */
export const SEMANTICS_OF_CODE: readonly (PolicySemantics | undefined)[] = [
  undefined,
  'contract',
  'agentfootprint-9.62',
];

/** Lower-case hex of exactly `bytes` bytes written into `into` at `at`; false (nothing kept) for anything else. */
function writeHexId(id: string, into: Buffer, at: number, bytes: number): boolean {
  if (id.length !== bytes * 2) return false;
  for (let i = 0; i < bytes; i++) {
    const hi = nibble(id.charCodeAt(2 * i));
    const lo = nibble(id.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) return false;
    into[at + i] = (hi << 4) | lo;
  }
  return true;
}

function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

const TRACE_BYTES = 16;
const SPAN_BYTES = 8;

/**
 * The index of consecutive records: columns per decision, indexes into its own string tables. Parts are merged,
 * in the order of their records, into the index of all of them (windowIndex's mergeIndexParts).
 */
export class IndexPart {
  private n = 0;
  private capacity = 0;
  time = new Float64Array(0);
  verdict = new Int8Array(0);
  gap = new Float64Array(0);
  margin = new Float64Array(0);
  flags = new Uint8Array(0);
  conversation = new Int32Array(0);
  router = new Int32Array(0);
  scorer = new Int32Array(0);
  skill = new Int32Array(0);
  runnerUp = new Int32Array(0);
  service = new Int32Array(0);
  /** The behaviour a decision recorded: 0 none, 1 the contract, 2 agentfootprint 9.62. */
  recordedSemantics = new Uint8Array(0);
  /** Whether each behaviour reproduces the decision: bits 0–1 the contract, 2–3 agentfootprint 9.62. */
  repro = new Uint8Array(0);
  private traceBytes = Buffer.alloc(0);
  private spanBytes = Buffer.alloc(0);
  /** Ids that are not lower-case hex of their length, by position. */
  private readonly oddIds = new Map<number, { trace?: string; span?: string }>();
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
    return this.n;
  }

  /** The trace id of decision `i`. */
  traceId(i: number): string {
    return (
      this.oddIds.get(i)?.trace ?? this.traceBytes.toString('hex', i * TRACE_BYTES, (i + 1) * TRACE_BYTES)
    );
  }

  /** The span id of decision `i`. */
  spanId(i: number): string {
    return this.oddIds.get(i)?.span ?? this.spanBytes.toString('hex', i * SPAN_BYTES, (i + 1) * SPAN_BYTES);
  }

  /** What the part holds now: merging the snapshot later leaves out what came after (see mergeIndexParts). */
  snapshot(): PartSnapshot {
    const sizes = {} as Record<TableName, number>;
    for (const name of TABLE_NAMES) sizes[name] = this.tables[name].size;
    return { part: this, decisions: this.n, marks: this.marks.length, sizes };
  }

  private sorted: Int32Array | undefined;
  /** This part's first `n` decisions newest first (by start time, then arrival), kept until asked for others. */
  newestFirst(n: number = this.n): Int32Array {
    if (this.sorted?.length !== n) {
      const time = this.time;
      this.sorted = Int32Array.from({ length: n }, (_, i) => n - 1 - i).sort(
        (a, b) => time[b]! - time[a]! || b - a,
      );
    }
    return this.sorted;
  }

  add(r: TraceRecord): void {
    if (r.kind === 'decision') this.addDecision(r);
    else if (r.kind === 'misroute') {
      this.tables.conversations.intern(r.conversationId);
      this.marks.push(markRow(r, r.mark));
    } else this.tables.conversations.intern(r.conversationId);
  }

  private grow(): void {
    const next = Math.max(64, this.capacity * 2);
    const grown = <T extends Float64Array | Int32Array | Int8Array | Uint8Array>(
      a: T,
      make: (n: number) => T,
    ): T => {
      const b = make(next);
      b.set(a);
      return b;
    };
    this.time = grown(this.time, (k) => new Float64Array(k));
    this.verdict = grown(this.verdict, (k) => new Int8Array(k));
    this.gap = grown(this.gap, (k) => new Float64Array(k));
    this.margin = grown(this.margin, (k) => new Float64Array(k));
    this.flags = grown(this.flags, (k) => new Uint8Array(k));
    this.conversation = grown(this.conversation, (k) => new Int32Array(k));
    this.router = grown(this.router, (k) => new Int32Array(k));
    this.scorer = grown(this.scorer, (k) => new Int32Array(k));
    this.skill = grown(this.skill, (k) => new Int32Array(k));
    this.runnerUp = grown(this.runnerUp, (k) => new Int32Array(k));
    this.service = grown(this.service, (k) => new Int32Array(k));
    this.recordedSemantics = grown(this.recordedSemantics, (k) => new Uint8Array(k));
    this.repro = grown(this.repro, (k) => new Uint8Array(k));
    const traces = Buffer.alloc(next * TRACE_BYTES);
    this.traceBytes.copy(traces);
    this.traceBytes = traces;
    const spans = Buffer.alloc(next * SPAN_BYTES);
    this.spanBytes.copy(spans);
    this.spanBytes = spans;
    this.capacity = next;
  }

  private addDecision(d: DecisionRecord): void {
    if (this.n === this.capacity) this.grow();
    const i = this.n++;
    const tables = this.tables;
    this.time[i] = d.timeUnixMs;
    this.verdict[i] = VERDICTS.indexOf(d.verdict);
    this.gap[i] = d.runnerUp?.gap ?? NaN;
    this.margin[i] = d.policy.nearTieMargin;
    this.flags[i] =
      (d.nearTie ? NEAR_TIE : 0) |
      (d.floorDeclared ? 0 : FLOORLESS) |
      (d.misroutes.length > 0 ? MISROUTED : 0);
    this.conversation[i] = tables.conversations.intern(d.conversationId);
    const hexTrace = writeHexId(d.traceId, this.traceBytes, i * TRACE_BYTES, TRACE_BYTES);
    const hexSpan = writeHexId(d.spanId, this.spanBytes, i * SPAN_BYTES, SPAN_BYTES);
    if (!hexTrace || !hexSpan) {
      this.oddIds.set(i, {
        ...(hexTrace ? {} : { trace: d.traceId }),
        ...(hexSpan ? {} : { span: d.spanId }),
      });
    }
    this.router[i] = tables.routers.intern(d.router);
    this.scorer[i] = tables.scorers.intern(d.scorer);
    const to = d.verdict === 'move' ? d.to : d.ranked[0]?.id;
    this.skill[i] = tables.skills.intern(to);
    this.runnerUp[i] = tables.skills.intern(d.runnerUp?.id);
    this.service[i] = tables.services.intern(d.service);
    this.recordedSemantics[i] = d.semantics === undefined ? 0 : d.semantics === 'contract' ? 1 : 2;
    this.repro[i] = this.observedRecord === d ? this.observedCode : 0;
    this.observedRecord = undefined;
    for (const m of d.misroutes) this.marks.push(markRow(d, m, d.verdict === 'move' ? d.to : d.verdict));
  }
}

export function markRow(r: TraceRecord, mark: MisrouteMark, routedTo?: string): MarkRow {
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
