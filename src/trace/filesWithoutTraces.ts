/**
 * filesWithoutTraces — a file that was read but held nothing to analyze is named, never passed over.
 *
 * A folder often holds more than trace exports: an empty file the Collector just rotated to, its metrics or
 * logs exporter's output, a JSON file of something else. Those read without a single bad line, so without this
 * the report would say "bad lines: none" and stay silent about them. Whoever reads a file takes a look at the
 * counters before it, and after it asks here: a file that added no span, no agentfootprint event and no
 * problem of its own (a problem already names it) is listed, capped, and counted beyond the cap. No I/O.
 */
import type { ReadStats } from './types.js';
import { countProblems } from './readStats.js';

/** How many such files a read keeps by name before it only counts them. */
export const MAX_KEPT_FILES_WITHOUT_TRACES = 1000;

/** The counters a file's read is judged by, taken before it. */
export interface FileReadMark {
  readonly spans: number;
  readonly events: number;
  readonly lines: number;
  readonly problems: number;
}

/** The counters now, before reading a file. */
export function markBeforeFile(stats: ReadStats): FileReadMark {
  return {
    spans: stats.spans,
    events: stats.events,
    lines: stats.lines,
    problems: countProblems(stats),
  };
}

/** After reading `file`: name it when it held no span, no event and no problem since `before`. */
export function noteFileWithoutTraces(stats: ReadStats, file: string, before: FileReadMark): void {
  if (stats.spans !== before.spans || stats.events !== before.events) return;
  if (countProblems(stats) !== before.problems) return;
  const lines = stats.lines - before.lines;
  const reason =
    lines === 0
      ? 'empty (or blank lines only): no span or event in it; skipped'
      : `${lines} line${lines === 1 ? '' : 's'} read and not one trace span or agentfootprint event in them (metrics or logs?); skipped`;
  if (stats.filesWithoutTraces.length < MAX_KEPT_FILES_WITHOUT_TRACES)
    stats.filesWithoutTraces.push({ file, reason });
  else stats.filesWithoutTracesDropped++;
}
