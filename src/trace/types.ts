/**
 * trace/types — what a read saw besides the records: its counts and the problems it met.
 *
 * Every reader fills one ReadStats; the `input` block of every report is built from it. The records themselves
 * are in record/types.ts. Types only.
 */
/** A problem found while reading: counted and reported, never fatal. */
export interface ReadProblem {
  readonly file: string;
  /** 1-based line or record number; 0 when the problem is about the file as a whole (or a whole document). */
  readonly line: number;
  /**
   * `bad-line` unparseable or wrong shape; `incomplete` a routing span missing attributes; `unsupported` a
   * file in no known format, or not a regular file, skipped; `unreadable` a file in a folder that could not
   * be opened, skipped.
   */
  readonly kind: 'bad-line' | 'incomplete' | 'unsupported' | 'unreadable';
  readonly reason: string;
}

/** A file that was read but held no trace span and no agentfootprint event: skipped, and named. */
export interface FileWithoutTraces {
  readonly file: string;
  readonly reason: string;
}

/** What a read saw, for the `input` block of every report. */
export interface ReadStats {
  files: number;
  lines: number;
  spans: number;
  routingSpans: number;
  turnSpans: number;
  duplicates: number;
  nonRoutingSpans: number;
  /** agentfootprint events read from event logs (JSON lines `{type: 'agentfootprint.…', payload, meta}`). */
  events: number;
  /** Of `events`, those of another type than `turn_routed`: counted and skipped. */
  otherEvents: number;
  /** `turn_routed` events seen before (same run, stage and time): counted once. */
  duplicateEvents: number;
  /**
   * Decisions read both ways, as a span of routescopeObservability and from the event log (same conversation,
   * time and decision: crossSourceKey): counted once, the span kept when it can be.
   */
  duplicateAcrossSources: number;
  /** Turn routes read both ways, likewise. */
  duplicateTurnsAcrossSources: number;
  /** Problems, in input order; capped (see `problemsDropped`). */
  problems: ReadProblem[];
  /** Problems counted beyond the cap kept in `problems`. */
  problemsDropped: number;
  /** Files read that held no span and no event (empty, or metrics or logs), in input order; capped. */
  filesWithoutTraces: FileWithoutTraces[];
  /** Such files counted beyond the cap kept in `filesWithoutTraces`. */
  filesWithoutTracesDropped: number;
  /** Which path read the JSON lines: the scanner that indexed them, or the exact walk. */
  scan: ScanPath;
}

/** The scanner that indexes JSON lines for the fast path (`--scanner`). */
export type ScannerChoice = 'simd' | 'javascript';

/**
 * How the JSON lines were read. Without `--exact-read`, a line in the Collector's shape is indexed by a scanner
 * (fastPath/lineNeedles) and only its routing spans are parsed; every other line is walked or parsed whole.
 */
export interface ScanPath {
  /** `--exact-read`: every byte of every line walked, no scanner used. */
  exact: boolean;
  /** Lines indexed by the WebAssembly SIMD scanner. */
  simdLines: number;
  /** Lines indexed by the JavaScript scanner. */
  javascriptLines: number;
  /** Why the SIMD scanner did not read here (not available, or `--scanner javascript`); undefined when it could. */
  simdUnavailable: string | undefined;
}
