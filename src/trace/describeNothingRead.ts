/**
 * describeNothingRead — what to say when the inputs held no span at all: what was found, and what was expected.
 *
 * An empty file, JSON that is not a trace or a Tempo search response would otherwise report "0 routing
 * decisions" and pass, which in a CI gate or an incident is a wrong answer; the CLI turns this into an input
 * error (exit 2). The first problem the read reported is usually the reason, so it is quoted. Pure.
 */
import { KNOWN_FORMATS } from './formats/readLimits.js';
import type { ReadStats } from './types.js';
import { countProblems } from './readStats.js';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The message for inputs (`paths`, as named) whose read, `stats`, found no span. */
export function describeNothingRead(paths: readonly string[], stats: ReadStats): string {
  const problems = countProblems(stats);
  const found =
    stats.files === 0
      ? 'no file could be read'
      : stats.lines === 0
        ? `${plural(stats.files, 'file')} with nothing in ${stats.files === 1 ? 'it' : 'them'} (empty, or blank lines only)`
        : `${plural(stats.files, 'file')}, ${plural(stats.lines, 'line')}, and not one span in them`;
  const first = stats.problems[0];
  const why =
    first === undefined
      ? stats.lines > 0
        ? ' (metrics or logs only?)'
        : ''
      : `; ${plural(problems, 'problem')}, the first: ${first.file}${first.line > 0 ? `:${first.line}` : ''}: ${first.reason}`;
  return `${paths.join(', ')}: no span found: ${found}${why}${namedEmpty(stats)}. Expected trace spans: ${KNOWN_FORMATS}.`;
}

/** The first few files that held nothing, by name. */
function namedEmpty(stats: ReadStats): string {
  const count = stats.filesWithoutTraces.length + stats.filesWithoutTracesDropped;
  if (count === 0) return '';
  const shown = stats.filesWithoutTraces.slice(0, 3).map((f) => f.file);
  return `; ${plural(count, 'file')} without traces: ${shown.join(', ')}${count > shown.length ? `, and ${count - shown.length} more` : ''}`;
}
