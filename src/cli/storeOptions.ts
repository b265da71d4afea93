/**
 * storeOptions — the trace-store options (`--tempo URL`, `--jaeger URL --service S`, with `--since`, `--query`,
 * `--limit`, `--timeout`, `--retries`, `--max-answer-mb`, and `--header` from readStoreHeaders), grouped under
 * "Trace stores:" in --help, and their reading into the remote sources the readers take; see docs/sources.md.
 */
import type { Argv } from 'yargs';
import type { RemoteSource } from '../trace/stores/remoteSource.js';
import type { CliArgs } from './cliCommand.js';
import { escapeControlChars } from '../report/escapeControlChars.js';
import { readStoreHeaders, type HeaderEnvironment } from './readStoreHeaders.js';
import { readInteger, readNumber } from './numberOptions.js';
import { UsageError } from './usageError.js';

/** The trace-store options, as one group of --help. */
export function withStoreOptions(y: Argv): Argv {
  return y
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
