/**
 * argumentHints — what to say when a command line is almost right: the flag meant by one that does not exist,
 * and the id and the path given the wrong way round.
 *
 * yargs says "Unknown arguments: fial-on, fialOn"; a user needs "--fial-on: did you mean --fail-on?". The
 * nearest flag is the one within a small edit distance (a typo, a swapped letter) or the only flag it starts;
 * a flag too far from every other gets no guess. Pure.
 */
import { RUN_COMMAND } from './helpText.js';

/** The edit distance (insert, delete, replace, swap two neighbours) between `a` and `b`. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/** The flag `name` most likely meant among `known` (names without dashes), or undefined when none is close. */
export function nearestFlag(name: string, known: readonly string[]): string | undefined {
  const wanted = name.replace(/^-+/, '').toLowerCase();
  let best: { flag: string; distance: number } | undefined;
  for (const flag of known) {
    const distance = editDistance(wanted, flag.toLowerCase());
    if (best === undefined || distance < best.distance) best = { flag, distance };
  }
  // A typo is one or two edits, fewer in a short name: `--fomrat` → format, never `--x` → `--jobs`.
  if (best !== undefined && best.distance <= Math.min(2, Math.floor(wanted.length / 3))) return best.flag;
  const starting = known.filter((flag) => flag.startsWith(wanted) && wanted.length >= 3);
  return starting.length === 1 ? starting[0] : undefined;
}

/**
 * The words of yargs' "Unknown argument(s): …" as flags the user typed: yargs lists each unknown flag twice, as
 * typed and camel-cased (`fial-on, fialOn`); positional leftovers (no dash on the command line) are kept apart.
 */
export function unknownFlags(
  message: string,
  argv: readonly string[],
): { flags: string[]; words: string[] } | undefined {
  const m = /^Unknown arguments?: (.+)$/.exec(message);
  if (m === null) return undefined;
  const typed = new Set(
    argv.filter((a) => a.startsWith('-') && a !== '-').map((a) => a.replace(/^-+/, '').split('=')[0]!),
  );
  const flags: string[] = [];
  const words: string[] = [];
  for (const item of m[1]!.split(', ')) {
    if (typed.has(item)) flags.push(item);
    else if (!argv.includes(item))
      continue; // the camel-cased twin of a flag
    else words.push(item);
  }
  return { flags, words };
}

/** One line per unknown flag, with the nearest known one when there is one. */
export function describeUnknownFlags(flags: readonly string[], known: readonly string[]): string {
  return flags
    .map((flag) => {
      const near = nearestFlag(flag, known);
      const dashes = flag.length === 1 ? '-' : '--';
      return `unknown option ${dashes}${flag}${near === undefined ? '' : `: did you mean --${near}?`}`;
    })
    .join('\n');
}

/**
 * An input that is no file or folder but reads like a trace or span id (8 to 32 hex digits): what it likely is,
 * and the command that takes it; undefined when every input may be a path. `exists` is the file system's say.
 */
export function describeIdAsInput(
  inputs: readonly string[],
  exists: (path: string) => boolean,
): string | undefined {
  const id = inputs.find((x) => x !== '-' && /^[0-9a-f]{8,32}$/i.test(x) && !exists(x));
  return id === undefined
    ? undefined
    : `'${id}' is no file or folder here; it reads like a trace or span id. Its decisions: ${RUN_COMMAND} explain ${id} <inputs..>`;
}
