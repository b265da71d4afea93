/**
 * commonOptions — the options several commands share: inputs, `--policy`, `--jobs` and how inputs are read.
 * The trace stores' options are storeOptions.ts, the checks of number options numberOptions.ts, the
 * `--fail-on` gates gateOptions.ts.
 *
 * Values that yargs cannot validate (a duration, a count) are checked before any input is read, so a typo
 * costs no time and exits 2 with a message that says what to type instead. Inputs are files, folders, stdin,
 * and trace stores; see docs/sources.md.
 */
import type { Argv } from 'yargs';
import { POLICY_CHOICES, type PolicyChoice } from '../analyze/policyAudit.js';
import { PARALLEL_MIN_BYTES } from '../trace/parallel/readInParallel.js';
import type { TraceInput } from '../trace/stores/remoteSource.js';
import type { ScannerChoice } from '../trace/types.js';
import type { CliArgs } from './cliCommand.js';
import { escapeControlChars } from '../report/escapeControlChars.js';
import { withStoreHeaders, type HeaderEnvironment } from './readStoreHeaders.js';
import { readRemoteSources, withStoreOptions } from './storeOptions.js';
import { readInteger } from './numberOptions.js';
import { UsageError } from './usageError.js';
import { describeIdAsInput } from './argumentHints.js';
import { existsSync } from 'node:fs';

/** What main.ts puts in place of a lone `-` (yargs drops it); no file name can contain NUL. */
export const STDIN_TOKEN = '\u0000-';

/** The `[inputs..]` positional and the trace-store options. */
export function withInputs(y: Argv): Argv {
  return withStoreOptions(withStoreHeaders(y))
    .positional('inputs', {
      type: 'string',
      array: true,
      // No `[default: []]` in --help: at least one input is needed, unless a trace store is named. yargs then
      // hands over [undefined] for no input, which readInputs drops.
      default: undefined,
      describe:
        'trace files, folders (every file inside) or - for stdin; formats are detected from content. At least one, unless --tempo or --jaeger names a trace store',
    })
    .option('jobs', {
      type: 'number',
      requiresArg: true,
      describe:
        'reader threads: files, and large JSON-lines files cut at line ends, are read in parallel; same report as --jobs 1',
      default: 1,
    })
    .option('jobs-min-mib', {
      type: 'number',
      requiresArg: true,
      describe:
        'with --jobs: inputs under this many MiB in all are read on one thread, where threads cost more than they save',
      default: PARALLEL_MIN_BYTES / MIB,
    })
    .option('exact-read', {
      type: 'boolean',
      describe:
        'walk every byte of every line instead of skipping to the routing spans: slower, and also reports damage in the middle of a line (a lost bracket) that the skipping read cannot see',
      default: false,
    })
    .option('scanner', {
      type: 'string',
      requiresArg: true,
      describe:
        'what indexes the lines the skipping read passes through: simd (WebAssembly SIMD, the JavaScript scanner where this runtime cannot run it) or javascript; the same report either way, and its input section says which read',
      default: 'simd',
    })
    .group(['jobs', 'jobs-min-mib', 'exact-read', 'scanner'], 'Reading:');
}

export { DEFAULT_MAX_ANSWER_MB, DEFAULT_REMOTE_LIMIT, DEFAULT_SINCE, parseSince } from './storeOptions.js';

/** The inputs named on the command line: paths, then the trace stores of --tempo / --jaeger. */
export function readInputs(args: CliArgs, env: HeaderEnvironment): TraceInput[] {
  const raw = args.inputs;
  const list: TraceInput[] = (
    Array.isArray(raw)
      ? raw.filter((x) => x !== undefined).map(String)
      : raw === undefined
        ? []
        : [String(raw)]
  ).map((x) => (x === STDIN_TOKEN ? '-' : x));
  const mistaken = describeIdAsInput(
    list.filter((x) => typeof x === 'string'),
    existsSync,
  );
  if (mistaken !== undefined) throw new UsageError(mistaken);
  list.push(...readRemoteSources(args, env));
  if (list.length === 0) {
    throw new UsageError(
      'name at least one trace file, folder, or - for stdin, or a trace store with --tempo URL or --jaeger URL --service NAME',
    );
  }
  return list;
}

/**
 * How inputs are read: reader threads (`--jobs`, 1 to 64), the input size from which they are used
 * (`--jobs-min-mib`), whether every byte is walked (`--exact-read`), and the behaviour agentfootprint event
 * logs are judged under (an explicit `--policy`).
 */
export interface ReaderThreads {
  readonly jobs: number;
  readonly minBytes: number;
  /** @default 'agentfootprint-9.62' (the framework's own) */
  readonly eventSemantics?: Exclude<PolicyChoice, 'auto'>;
  /** `--exact-read`: walk every byte of every line (ReadOptions.exact). @default false */
  readonly exact?: boolean;
  /** `--scanner`: what indexes lines for the skipping read (ReadOptions.scanner). @default 'simd' */
  readonly scanner?: ScannerChoice;
}

const POLICY_LIST = POLICY_CHOICES.join(', ');

/** The `--policy` option of every command that judges decisions. */
export function withPolicy(y: Argv): Argv {
  return y.option('policy', {
    type: 'string',
    requiresArg: true,
    describe: `which published behaviour of the policy judges: ${POLICY_LIST}. auto: what a decision records, else what its service's decisions show, else the contract; agentfootprint event logs are judged as agentfootprint-9.62 unless a behaviour is named`,
    default: 'auto',
  });
}

/** `--policy`; anything but its values is a usage error listing them. */
export function readPolicy(args: CliArgs): PolicyChoice {
  const v = args.policy === undefined ? 'auto' : String(args.policy);
  if (!(POLICY_CHOICES as readonly string[]).includes(v)) {
    throw new UsageError(`--policy must be one of ${POLICY_LIST}, got '${escapeControlChars(v)}'`);
  }
  return v as PolicyChoice;
}

/** `--jobs`, `--jobs-min-mib` and, for event logs, the behaviour `--policy` names explicitly. */
export function readJobsAndPolicy(args: CliArgs, policy: PolicyChoice): ReaderThreads {
  const threads = readJobs(args);
  return policy === 'auto' ? threads : { ...threads, eventSemantics: policy };
}

const MIB = 1024 * 1024;

const SCANNERS: readonly ScannerChoice[] = ['simd', 'javascript'];

/** `--jobs N`, `--jobs-min-mib M`, `--exact-read` and `--scanner`. */
export function readJobs(args: CliArgs): ReaderThreads {
  const jobs = readInteger(args, 'jobs', '--jobs', 1, 64) ?? 1;
  const minMib = readInteger(args, 'jobsMinMib', '--jobs-min-mib', 0) ?? PARALLEL_MIN_BYTES / MIB;
  const scanner = args.scanner === undefined ? 'simd' : String(args.scanner);
  if (!(SCANNERS as readonly string[]).includes(scanner))
    throw new UsageError(`--scanner must be simd or javascript, got '${escapeControlChars(scanner)}'`);
  return {
    jobs,
    minBytes: minMib * MIB,
    ...(args.exactRead === true ? { exact: true } : {}),
    ...(scanner === 'javascript' ? { scanner: 'javascript' as const } : {}),
  };
}

export { parseShare, readInteger, readNumber, readShare } from './numberOptions.js';
