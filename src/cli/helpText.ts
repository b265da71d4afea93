/**
 * helpText — how `--help` shows examples and option tags, so what it prints can be copied and read as is.
 *
 * yargs lays an example out as two wrapped columns, which cuts a long command across lines; here each example
 * is a `# what it shows` comment line over the whole command on a line of its own, so a pasted block runs.
 * yargs also sets an option's `[type] [default]` tags right after its description when the description fills
 * the line ("catches[number]"); tidyHelp moves such tags to a line of their own, right-aligned, as yargs does
 * when a description wraps. The flags a user needs come first: the command's own options right under its
 * positionals, then the groups (reading, trace stores), and last what every command takes (--format, --verbose,
 * --version, --help). Pure.
 */
import type { Argv } from 'yargs';

/** Width `--help` is laid out in (yargs `.wrap`). */
export const HELP_WIDTH = 100;

/** What runs the CLI from a clone or a project that installed it: every hint and example prints this. */
export const RUN_COMMAND = 'npx routescope';

/** One example: the command (`$0` for the program) and what it shows. */
export type HelpExample = readonly [command: string, why: string];

/** Add examples as a comment line and an unbroken command line each. */
export function withExamples(y: Argv, examples: readonly HelpExample[]): Argv {
  let out = y;
  for (const [command, why] of examples) {
    out = out.example(`# ${why}`, '').example(command.replace(/\$0/g, RUN_COMMAND), '');
  }
  return out;
}

const TAG = /\[(?:string|number|boolean|array|count|required|choices:|default:|deprecated)/;

/**
 * The help text with every option tag that ran into its description moved to its own line, and the inputs
 * shown as needed (`<inputs..>`) in the list of commands: yargs takes them as optional only because a trace
 * store (--tempo, --jaeger) may stand in for them.
 */
export function tidyHelp(text: string, width = HELP_WIDTH): string {
  return orderSections(text)
    .replace(/ \[inputs\.\.\]/g, ' <inputs..>')
    .split('\n')
    .map((line) => {
      const m = new RegExp(`(\\S)(${TAG.source}.*)$`).exec(line);
      if (m === null || m.index === undefined) return line;
      const tags = m[2]!;
      const head = line.slice(0, m.index + 1);
      return `${head}\n${' '.repeat(Math.max(0, width - tags.length))}${tags}`;
    })
    .join('\n');
}

/** What every command takes: listed after a command's own options. */
const GENERAL = /^\s+(?:-h, )?--(?:format|verbose|version|help)\b/;

/** The help with its positionals, then "Options:" (general flags last), then the other groups, then the rest. */
function orderSections(text: string): string {
  const sections = text.split('\n\n');
  const kindOf = (s: string): 'positionals' | 'options' | 'group' | 'other' =>
    s.startsWith('Positionals:\n')
      ? 'positionals'
      : s.startsWith('Options:\n')
        ? 'options'
        : /^[A-Z][\w ]*:\n\s+-/.test(s)
          ? 'group'
          : 'other';
  const first = sections.findIndex((s) => kindOf(s) !== 'other');
  if (first === -1) return text;
  const of = (kind: string): string[] => sections.filter((s, i) => i >= first && kindOf(s) === kind);
  return [
    ...sections.slice(0, first),
    ...of('positionals'),
    ...of('options').map(generalLast),
    ...of('group'),
    ...of('other'),
  ].join('\n\n');
}

/** An "Options:" section with the flags every command takes moved to its end. */
function generalLast(section: string): string {
  const [title, ...lines] = section.split('\n');
  // Each option is its first line and the indented lines that continue it.
  const options: string[][] = [];
  for (const line of lines) {
    if (/^\s+-/.test(line) || options.length === 0) options.push([line]);
    else options[options.length - 1]!.push(line);
  }
  const own = options.filter((o) => !GENERAL.test(o[0]!));
  const general = options.filter((o) => GENERAL.test(o[0]!));
  return [title!, ...[...own, ...general].flat()].join('\n');
}
