/**
 * commonOptions — the options several commands share: inputs and trace stores, `--policy`, `--jobs`, and the
 * checks of number options. The `--fail-on` gates are in gateOptions.ts.
 *
 * Values that yargs cannot validate (a duration, a count) are checked here, before any input is read,
 * so a typo costs no time and exits 2 with a message that says what to type instead. Inputs are files,
 * folders, stdin, and trace stores (`--tempo URL`, `--jaeger URL --service S`, with `--since`, `--query`,
 * `--limit`, `--timeout`, `--retries`, `--header` in readStoreHeaders); see docs/sources.md.
 */
import type { Argv } from 'yargs';
import { POLICY_CHOICES, type PolicyChoice } from '../analyze/policyAudit.js';
import { PARALLEL_MIN_BYTES } from '../trace/parallel/readInParallel.js';
import type { RemoteSource, TraceInput } from '../trace/stores/remoteSource.js';
import type { ScannerChoice } from '../trace/types.js';
import type { CliArgs } from './cliCommand.js';
import { escapeControlChars } from '../report/escapeControlChars.js';
import { readStoreHeaders, withStoreHeaders, type HeaderEnvironment } from './readStoreHeaders.js';
import { UsageError } from './usageError.js';

/** What main.ts puts in place of a lone `-` (yargs drops it); no file name can contain NUL. */
export const STDIN_TOKEN = '\u0000-';

/** The `[inputs..]` positional and the trace-store options. */
export function withInputs(y: Argv): Argv {
  return withStoreHeaders(y)
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
    .option('tempo', {
      type: 'string',
      requiresArg: true,
      describe: 'read from Tempo: its HTTP API base URL (e.g. http://tempo:3200); see docs/sources.md',
    })
    .option('jaeger', {
      type: 'string',
      requiresArg: true,
      describe: 'read from Jaeger: the query service base URL (e.g. http://jaeger:16686); needs --service',
    })
    .option('service', {
      type: 'string',
      requiresArg: true,
      describe: 'service.name whose routing spans are read (required with --jaeger; narrows --tempo)',
    })
    .option('since', {
      type: 'string',
      requiresArg: true,
      describe: `how far back the store is searched: a duration (90m, 24h, 7d, 1h30m) or an ISO time; default ${DEFAULT_SINCE}`,
    })
    .option('query', {
      type: 'string',
      requiresArg: true,
      describe:
        'TraceQL ANDed with the routing filter (--tempo only), e.g. \'{ resource.deployment.environment = "prod" }\'',
    })
    .option('limit', {
      type: 'number',
      requiresArg: true,
      describe: `most traces read from each store; default ${DEFAULT_REMOTE_LIMIT}`,
    })
    .option('timeout', {
      type: 'number',
      requiresArg: true,
      describe: 'seconds one request to a store may take; default 30',
    })
    .option('retries', {
      type: 'number',
      requiresArg: true,
      describe: 'further attempts after a 429, 5xx, timeout or network error (with back-off); default 3',
    })
    .option('max-answer-mb', {
      type: 'number',
      requiresArg: true,
      describe: `largest answer read from a store, in MB (memory for store answers stays within about 5 × this); default ${DEFAULT_MAX_ANSWER_MB}`,
    })
    .group(
      [
        'tempo',
        'jaeger',
        'service',
        'since',
        'query',
        'limit',
        'timeout',
        'retries',
        'max-answer-mb',
        'header',
      ],
      'Trace stores:',
    );
}

/** How far back a store is searched without --since. */
export const DEFAULT_SINCE = '24h';
/** Most traces read from one store without --limit. */
export const DEFAULT_REMOTE_LIMIT = 1000;
/** `--max-answer-mb`'s default: httpFetch's MAX_RESPONSE_BYTES in MB (a test keeps the two equal). */
export const DEFAULT_MAX_ANSWER_MB = 64;

const DURATION_UNITS_MS: Readonly<Record<string, number>> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** `--since`: a duration back from `nowMs` (`90m`, `1h30m`, `7d`) or an ISO time; the start in ms. */
export function parseSince(text: string, nowMs: number): number | undefined {
  const trimmed = text.trim();
  if (/^(\d+(\.\d+)?[smhdw])+$/.test(trimmed)) {
    let total = 0;
    for (const m of trimmed.matchAll(/(\d+(?:\.\d+)?)([smhdw])/g)) {
      total += Number(m[1]) * DURATION_UNITS_MS[m[2]!]!;
    }
    return total > 0 ? nowMs - total : undefined;
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(trimmed)) {
    const at = Date.parse(trimmed);
    return Number.isNaN(at) || at >= nowMs ? undefined : at;
  }
  return undefined;
}

function readUrlOption(args: CliArgs, key: string, flag: string): string | undefined {
  const v = args[key];
  if (v === undefined) return undefined;
  const text = String(v);
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    // Reported below.
  }
  if (url !== undefined && (url.username !== '' || url.password !== '')) {
    // Not echoed: the text holds a secret.
    throw new UsageError(
      `${flag}: a URL with credentials in it is refused (it would show in reports and process lists); send them with --header 'Authorization: Basic \${VARIABLE}' instead, see docs/sources.md`,
    );
  }
  if (url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:')) return text;
  throw new UsageError(
    `${flag} must be an http(s) URL such as ${flag === '--tempo' ? 'http://tempo:3200' : 'http://jaeger:16686'}, got '${escapeControlChars(text)}'`,
  );
}

/** The trace stores named by --tempo / --jaeger, with their search window and limits. */
export function readRemoteSources(
  args: CliArgs,
  env: HeaderEnvironment,
  nowMs: number = Date.now(),
): RemoteSource[] {
  const tempo = readUrlOption(args, 'tempo', '--tempo');
  const jaeger = readUrlOption(args, 'jaeger', '--jaeger');
  const service = args.service === undefined ? undefined : String(args.service);
  const query = args.query === undefined ? undefined : String(args.query);
  if (tempo === undefined && jaeger === undefined) {
    for (const [key, flag] of [
      ['service', '--service'],
      ['since', '--since'],
      ['query', '--query'],
      ['limit', '--limit'],
      ['timeout', '--timeout'],
      ['retries', '--retries'],
      ['maxAnswerMb', '--max-answer-mb'],
      ['header', '--header'],
    ] as const) {
      if (args[key] !== undefined)
        throw new UsageError(`${flag} applies to a trace store; add --tempo URL or --jaeger URL`);
    }
    return [];
  }
  if (query !== undefined && tempo === undefined) {
    throw new UsageError('--query is TraceQL, for --tempo only; Jaeger is filtered by --service');
  }
  if (jaeger !== undefined && (service === undefined || service.trim() === '')) {
    throw new UsageError('--jaeger needs --service NAME: Jaeger searches one service at a time');
  }
  const sinceText = args.since === undefined ? DEFAULT_SINCE : String(args.since);
  const startMs = parseSince(sinceText, nowMs);
  if (startMs === undefined) {
    throw new UsageError(
      `--since must be a duration such as 90m, 24h, 7d or 1h30m, or a past ISO time such as 2026-01-15T09:00:00Z, got '${escapeControlChars(sinceText)}'`,
    );
  }
  const limit = readInteger(args, 'limit', '--limit', 1) ?? DEFAULT_REMOTE_LIMIT;
  const timeout = readNumber(args, 'timeout', '--timeout', 0.001, 3600);
  const retries = readInteger(args, 'retries', '--retries', 0, 10);
  const maxAnswerMb = readNumber(args, 'maxAnswerMb', '--max-answer-mb', 0.001, 4096);
  const headers = readStoreHeaders(args, env);
  const http = {
    ...(headers === undefined ? {} : { headers }),
    ...(maxAnswerMb === undefined ? {} : { maxBytes: Math.floor(maxAnswerMb * 1_000_000) }),
    ...(timeout === undefined ? {} : { timeoutMs: timeout * 1000 }),
    ...(retries === undefined ? {} : { retries }),
  };
  const window = { startMs, endMs: nowMs, limit, http };
  const sources: RemoteSource[] = [];
  if (tempo !== undefined) {
    sources.push({
      kind: 'tempo',
      url: tempo,
      ...window,
      ...(query === undefined ? {} : { query }),
      ...(service === undefined ? {} : { service }),
    });
  }
  if (jaeger !== undefined) sources.push({ kind: 'jaeger', url: jaeger, service: service!, ...window });
  return sources;
}

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

/** A number option within [min, max]; a usage error otherwise. */
export function readNumber(
  args: CliArgs,
  key: string,
  flag: string,
  min: number,
  max: number,
): number | undefined {
  const v = args[key];
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  if (!(n >= min && n <= max)) {
    throw new UsageError(
      `${flag} must be a number from ${min} to ${max}, got ${escapeControlChars(String(v))}`,
    );
  }
  return n;
}

/**
 * A rate, share or margin within [min, max], given as a number (`0.1`) or a percentage (`10%`), as `--fail-on`
 * reads them; `above` makes `min` itself refused (a sweep step of 0). A usage error otherwise.
 */
export function readShare(
  args: CliArgs,
  key: string,
  flag: string,
  range: { readonly min?: number; readonly max?: number; readonly above?: boolean } = {},
): number | undefined {
  const v = args[key];
  if (v === undefined) return undefined;
  const min = range.min ?? 0;
  const max = range.max ?? 1;
  const n = parseShare(v);
  if (!((range.above === true ? n > min : n >= min) && n <= max)) {
    const bounds = range.above === true ? `greater than ${min} and at most ${max}` : `from ${min} to ${max}`;
    throw new UsageError(
      `${flag} must be ${bounds}, as a number or a percentage (0.1 or 10%), got ${escapeControlChars(String(v))}`,
    );
  }
  return n;
}

/** `0.1` or `10%` as 0.1; NaN for anything else. */
export function parseShare(v: unknown): number {
  if (typeof v === 'number') return v;
  const text = String(v).trim();
  const percent = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*%$/.exec(text);
  if (percent !== null) return Number(percent[1]) / 100;
  return text === '' ? NaN : Number(text);
}

/** A whole number option within [min, max]; a usage error otherwise. */
export function readInteger(
  args: CliArgs,
  key: string,
  flag: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  const v = args[key];
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(
      `${flag} must be a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}, got ${escapeControlChars(String(v))}`,
    );
  }
  return n;
}
