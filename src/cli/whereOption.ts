/**
 * whereOption — the repeatable `--where key=value` option of replay and tune: its yargs definition, its
 * parsing (a bad clause is a usage error), and the watch that says which values matched no decision.
 */
import type { Argv } from 'yargs';
import {
  createWhereCatalog,
  parseWhereClauses,
  type DecisionFilter,
  type UnknownWhereValue,
} from '../analyze/filterDecisions.js';
import type { CliArgs, CommandContext } from './cliCommand.js';
import { EXIT_OK, EXIT_USAGE } from './cliCommand.js';
import { escapeControlChars } from '../report/escapeControlChars.js';
import type { RecordSink } from './runAnalysisPass.js';
import { UsageError } from './usageError.js';

/** The repeatable `--where key=value` option (replay and tune). */
export function withWhere(y: Argv): Argv {
  return y.option('where', {
    type: 'string',
    array: true,
    requiresArg: true,
    describe: 'only decisions with router=NAME, scorer=NAME or service=NAME; repeatable (same key: either)',
  });
}

/** Parse every `--where`; a bad clause is a usage error. */
export function readWhere(args: CliArgs): ReturnType<typeof parseWhereClauses> {
  const raw = args.where;
  const list = Array.isArray(raw) ? raw.map(String) : raw === undefined ? [] : [String(raw)];
  try {
    return parseWhereClauses(list);
  } catch (err) {
    throw new UsageError(escapeControlChars(err instanceof Error ? err.message : String(err)));
  }
}

/** Names listed after a `--where` value that matched nothing. */
const MAX_LISTED_NAMES = 20;

/**
 * A sink that learns the router, scorer and service names of the input, and `finish` that says on stderr which
 * `--where` values named none of them (with the names there are) and gives the exit code: 2 when one did.
 */
export function watchWhere(where: DecisionFilter): RecordSink & {
  finish(ctx: CommandContext): number;
} {
  const catalog = createWhereCatalog(where);
  return {
    add(record) {
      if (record.kind === 'decision') catalog.add(record);
    },
    finish(ctx) {
      const unknown = catalog.unknownValues();
      for (const u of unknown) ctx.io.stderr.write(`routescope: ${describeUnknownWhere(u)}\n`);
      return unknown.length > 0 ? EXIT_USAGE : EXIT_OK;
    },
  };
}

function describeUnknownWhere(u: UnknownWhereValue): string {
  const shown = u.known.slice(0, MAX_LISTED_NAMES).map((n) => escapeControlChars(n));
  const names =
    u.known.length === 0
      ? `no decision in the input names a ${u.key}`
      : `the ${u.key}s in the input are ${shown.join(', ')}${u.known.length > shown.length ? ` and ${u.known.length - shown.length} more` : ''}`;
  return `--where ${u.key}=${escapeControlChars(u.value)} matched no decision; ${names}`;
}
