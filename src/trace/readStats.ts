/**
 * readStats — the counters every read fills, and the bounded list of problems it reports.
 *
 * Problems are kept in input order up to a cap so a file of garbage cannot grow memory; past the cap they
 * are still counted. No I/O.
 */
import type { ReadProblem, ReadStats } from './types.js';

/** How many problems a read keeps verbatim before it only counts them. */
export const MAX_KEPT_PROBLEMS = 1000;

/** Fresh, zeroed counters. */
export function createReadStats(): ReadStats {
  return {
    files: 0,
    lines: 0,
    spans: 0,
    routingSpans: 0,
    turnSpans: 0,
    duplicates: 0,
    nonRoutingSpans: 0,
    events: 0,
    otherEvents: 0,
    duplicateEvents: 0,
    duplicateAcrossSources: 0,
    duplicateTurnsAcrossSources: 0,
    problems: [],
    problemsDropped: 0,
    filesWithoutTraces: [],
    filesWithoutTracesDropped: 0,
    scan: { exact: false, simdLines: 0, javascriptLines: 0, simdUnavailable: undefined },
  };
}

/** Problems a read reported, kept or only counted past the cap. */
export function countProblems(stats: ReadStats): number {
  return stats.problems.length + stats.problemsDropped;
}

/** Record a problem: kept while under the cap, counted always. */
export function reportProblem(stats: ReadStats, problem: ReadProblem, cap: number = MAX_KEPT_PROBLEMS): void {
  if (stats.problems.length < cap) stats.problems.push(problem);
  else stats.problemsDropped++;
}

/**
 * Add what one read counted on its own (`from`: lines, files, events, the scanner's lines, problems) to `into`;
 * the span counts are the record builder's and are not touched. serve reads each body into statistics of its
 * own and adds them only when it keeps the body.
 */
export function addReadCounts(into: ReadStats, from: ReadStats): void {
  into.files += from.files;
  into.lines += from.lines;
  into.events += from.events;
  into.otherEvents += from.otherEvents;
  for (const problem of from.problems) reportProblem(into, problem);
  into.problemsDropped += from.problemsDropped;
  for (const file of from.filesWithoutTraces)
    if (into.filesWithoutTraces.length < MAX_KEPT_PROBLEMS) into.filesWithoutTraces.push(file);
    else into.filesWithoutTracesDropped++;
  into.filesWithoutTracesDropped += from.filesWithoutTracesDropped;
  into.scan.simdLines += from.scan.simdLines;
  into.scan.javascriptLines += from.scan.javascriptLines;
  into.scan.simdUnavailable ??= from.scan.simdUnavailable;
}
