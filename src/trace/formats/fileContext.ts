/**
 * fileContext — the state of reading one input file, and how a reader reports what it meets there.
 *
 * Every format reader takes a FileContext: the file's name, whether the user named it (a named file in no known
 * format is an input error; one found in a folder is reported and skipped), the stats it counts into, the
 * record builder, and the line or record number it has reached, which problems carry.
 */
import type { TraceRecordBuilder } from '../buildTraceRecords.js';
import { InputError } from '../inputError.js';
import { reportProblem } from '../readStats.js';
import type { ReadStats, ScannerChoice } from '../types.js';
import type { EventLogOptions } from './readAgentfootprintEvent.js';
import { KNOWN_FORMATS } from './readLimits.js';

/** Per-file reading state. */
export interface FileContext {
  readonly file: string;
  readonly named: boolean;
  readonly stats: ReadStats;
  readonly builder: TraceRecordBuilder;
  readonly events: EventLogOptions;
  /** The last line or record number started (problems after a stream error point just past it). */
  line: number;
  /**
   * Walk every byte of every line (the exact read) instead of skipping to the routing spans where a line is
   * in the Collector's shape (fastPath/skipToRoutingSpans), which cannot see damage in the middle of a line.
   */
  readonly exact?: boolean;
  /** The scanner that indexes lines for the skipping read (ReadOptions.scanner). @default 'simd' */
  readonly scanner?: ScannerChoice;
}

/** A named file in no known format is an input error; one found in a folder is reported and skipped. */
export function rejectFormat(ctx: FileContext, reason: string): void {
  if (ctx.named) {
    throw new InputError(
      `${ctx.file}: ${reason}. ${KNOWN_FORMATS}; export traces in one of those.`,
      ctx.file,
    );
  }
  reportProblem(ctx.stats, { file: ctx.file, line: 0, kind: 'unsupported', reason: `${reason}; skipped` });
}

/** A bad line (or record), counted and reported with its number. */
export function badLine(ctx: FileContext, line: number, reason: string): void {
  reportProblem(ctx.stats, { file: ctx.file, line, kind: 'bad-line', reason });
}
