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
