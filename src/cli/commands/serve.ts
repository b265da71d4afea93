/**
 * serve — `routescope serve`: OTLP/HTTP in on localhost, the live routing page and Prometheus /metrics out
 * (src/serve).
 *
 * Zero config: `routescope serve`, then point an exporter at http://127.0.0.1:4318, open
 * http://127.0.0.1:4319/ and scrape http://127.0.0.1:4318/metrics. The command parses and checks its flags,
 * starts the servers, prints where they are, and runs until SIGINT or SIGTERM, when it stops taking requests, finishes those in flight, sends what
 * `--forward` holds, flushes `--out`, prints what it received, kept, evicted and refused on stderr, and exits
 * 0. Problems with requests go to stderr, at most ten lines in ten seconds (the rest are counted and said).
 * See docs/serve.md.
 */
import type { CliArgs, CliCommand, CommandContext } from '../cliCommand.js';
import { EXIT_OK } from '../cliCommand.js';
import { readInteger, readPolicy, withPolicy } from '../commonOptions.js';
import { withExamples } from '../helpText.js';
import { readStoreHeaders } from '../readStoreHeaders.js';
import { JSON_SCHEMA_VERSION } from '../emitReport.js';
import { readTraceLinkConfig, withTraceLinkOptions } from '../traceLinkOptions.js';
import { UsageError } from '../usageError.js';
import { escapeControlChars } from '../../report/escapeControlChars.js';
import { countOf, formatCount } from '../../report/formatValues.js';
import { DEFAULT_EVENT_LOG_OPTIONS } from '../../trace/formats/readAgentfootprintEvent.js';
import { DEFAULT_DECISION_WINDOW_CONFIG } from '../../serve/decisionWindow.js';
import { MIN_STORED_STRING } from '../../trace/bytes/cutString.js';
import { DEFAULT_MAX_BODY } from '../../serve/otlpReceiver.js';
import type { OutBacklog } from '../../serve/outFile.js';
import {
  DEFAULT_HOST,
  DEFAULT_OTLP_PORT,
  DEFAULT_UI_PORT,
  ServeStartError,
  startServe,
  type RunningServe,
  type ServeOptions,
} from '../../serve/startServe.js';

/** The environment variable `--token` defaults to (a secret on the command line shows in process lists). */
export const SERVE_TOKEN_ENV = 'ROUTESCOPE_SERVE_TOKEN';

const MIB = 1024 * 1024;

/** What a caller in the same process (demo --serve) does once serve listens. */
export interface ServeHooks {
  onStarted?(endpoint: string): Promise<void>;
}

/** `routescope serve`. */
export const serveCommand: CliCommand & {
  run(args: CliArgs, ctx: CommandContext, hooks?: ServeHooks): Promise<number>;
} = {
  command: 'serve',
  describe: 'receive OTLP/HTTP on localhost and show routing live in a browser, with Prometheus /metrics',
  reports: false,
  builder: (y) =>
    withTraceLinkOptions(
      withPolicy(
        withExamples(y, [
          ['$0 serve', 'OTLP/HTTP on 127.0.0.1:4318, the live page on http://127.0.0.1:4319/'],
          ['$0 serve --out traces.jsonl', 'also keep everything received, for the other commands'],
          [
            '$0 serve --forward http://127.0.0.1:14318',
            'sit in front of a Collector, passing every request on',
          ],
          [
            '$0 serve --host 0.0.0.0 --token "$SECRET"',
            'take spans from other machines, with a bearer token',
          ],
        ]),
      )
        .option('host', {
          type: 'string',
          requiresArg: true,
          default: DEFAULT_HOST,
          describe: 'address the OTLP receiver listens on; beyond loopback only with --token',
        })
        .option('port', {
          type: 'number',
          requiresArg: true,
          default: DEFAULT_OTLP_PORT,
          describe: 'OTLP/HTTP port, also serving /metrics (0: any free port)',
        })
        .option('ui-host', {
          type: 'string',
          requiresArg: true,
          describe: 'address of the live page (default: --host when it is loopback, else 127.0.0.1)',
        })
        .option('ui-port', {
          type: 'number',
          requiresArg: true,
          default: DEFAULT_UI_PORT,
          describe: 'port of the live page (0: any free port)',
        })
        .option('token', {
          type: 'string',
          requiresArg: true,
          describe: `bearer token every request must carry (default: $${SERVE_TOKEN_ENV}); required beyond loopback`,
        })
        .option('max-decisions', {
          type: 'number',
          requiresArg: true,
          default: DEFAULT_DECISION_WINDOW_CONFIG.maxDecisions,
          describe: 'decisions kept, newest first; older ones are evicted and counted (/metrics counts all)',
        })
        .option('max-window-mb', {
          type: 'number',
          requiresArg: true,
          default: DEFAULT_DECISION_WINDOW_CONFIG.maxBytes / MIB,
          describe:
            'MiB the window may hold, packed; past it the oldest records are evicted whatever their count',
        })
        .option('max-string', {
          type: 'number',
          requiresArg: true,
          default: DEFAULT_DECISION_WINDOW_CONFIG.maxString,
          describe: 'longest id, name or value stored whole; longer ones are cut (marked, counted)',
        })
        .option('max-body', {
          type: 'number',
          requiresArg: true,
          default: DEFAULT_MAX_BODY / MIB,
          describe: 'largest request body taken, in MiB, on the wire and decompressed (larger: 413)',
        })
        .option('out', {
          type: 'string',
          requiresArg: true,
          describe: 'append everything received to FILE as OTLP/JSON lines (event logs as they came)',
        })
        .option('forward', {
          type: 'string',
          requiresArg: true,
          describe:
            'pass every request on, unchanged, to this OTLP/HTTP endpoint (a Collector), from a bounded queue',
        })
        .option('allow-host', {
          type: 'string',
          array: true,
          requiresArg: true,
          describe:
            'a host name requests may be addressed to besides localhost, IP addresses and --host/--ui-host (others: 403, against DNS rebinding); repeatable',
        })
        .option('header', {
          type: 'string',
          array: true,
          requiresArg: true,
          describe:
            "HTTP header added to forwarded requests, 'Name: value'; ${NAME} reads environment variable NAME; repeatable",
        }),
    ),
  async run(args, ctx, hooks: ServeHooks = {}) {
    const options = readServeOptions(args, ctx);
    let running: RunningServe;
    try {
      running = await startServe(options);
    } catch (error) {
      if (error instanceof ServeStartError) throw new UsageError(error.message);
      throw error;
    }
    ctx.io.stdout.write(describeStart(running, options));
    const stopped = untilStopped();
    await hooks.onStarted?.(running.endpoint);
    await stopped;
    const unwritten = await running.close();
    (options.log as Partial<ThrottledLog>).flush?.();
    ctx.io.stderr.write(describeStop(running, unwritten));
    return EXIT_OK;
  },
};

/** The flags as ServeOptions; a usage error for any that is wrong. */
export function readServeOptions(args: CliArgs, ctx: CommandContext): ServeOptions {
  const port = readInteger(args, 'port', '--port', 0, 65535) ?? DEFAULT_OTLP_PORT;
  const uiPort = readInteger(args, 'uiPort', '--ui-port', 0, 65535) ?? DEFAULT_UI_PORT;
  if (port !== 0 && port === uiPort) throw new UsageError('--port and --ui-port must differ');
  const maxDecisions = readInteger(args, 'maxDecisions', '--max-decisions', 1, 10_000_000);
  const maxBodyMib = readInteger(args, 'maxBody', '--max-body', 1, 1024);
  const maxWindowMib = readInteger(args, 'maxWindowMb', '--max-window-mb', 1, 65_536);
  const maxString = readInteger(args, 'maxString', '--max-string', MIN_STORED_STRING, 1024 * 1024);
  const tokenArg = args.token === undefined ? ctx.io.env[SERVE_TOKEN_ENV] : String(args.token);
  if (tokenArg !== undefined && tokenArg.trim() === '')
    throw new UsageError(
      `--token (or $${SERVE_TOKEN_ENV}) is blank: give a secret, or leave it out on loopback`,
    );
  const headers = readStoreHeaders(args, ctx.io.env);
  if (headers !== undefined && args.forward === undefined)
    throw new UsageError('--header is sent with forwarded requests: give --forward URL too');
  const policy = readPolicy(args);
  const out = args.out === undefined ? undefined : String(args.out);
  if (out !== undefined && out.trim() === '') throw new UsageError('--out needs a file name');
  const allowHosts = ((args.allowHost as unknown[] | undefined) ?? []).map(String);
  for (const name of allowHosts)
    if (!/^[A-Za-z0-9.-]+$/.test(name))
      throw new UsageError(
        `--allow-host ${escapeControlChars(name)}: give a host name (letters, digits, dots, dashes)`,
      );
  return {
    host: String(args.host ?? DEFAULT_HOST),
    ...(allowHosts.length === 0 ? {} : { allowHosts }),
    port,
    uiPort,
    ...(args.uiHost === undefined ? {} : { uiHost: String(args.uiHost) }),
    schemaVersion: JSON_SCHEMA_VERSION,
    ...(tokenArg === undefined ? {} : { token: tokenArg }),
    ...(maxDecisions === undefined ? {} : { maxDecisions }),
    ...(maxWindowMib === undefined ? {} : { maxWindowBytes: maxWindowMib * MIB }),
    ...(maxString === undefined ? {} : { maxString }),
    ...(maxBodyMib === undefined ? {} : { maxBody: maxBodyMib * MIB }),
    ...(out === undefined ? {} : { out }),
    traceLinks: readTraceLinkConfig(args),
    ...(args.forward === undefined ? {} : { forward: String(args.forward) }),
    ...(headers === undefined ? {} : { forwardHeaders: Object.fromEntries(headers.toHeaders().entries()) }),
    policy,
    ...(policy === 'auto' ? {} : { events: { ...DEFAULT_EVENT_LOG_OPTIONS, semantics: policy } }),
    log: createThrottledLog((line) => ctx.io.stderr.write(`routescope serve: ${escapeControlChars(line)}\n`)),
  };
}

/** A log that says at most so many lines, and what it held back. */
export interface ThrottledLog {
  (line: string): void;
  /** Say how many lines were held back and not yet said (serve calls it when it stops). */
  flush(): void;
}

/** At most `perWindow` lines every `windowMs`; the rest are counted and said when the next window opens. */
export function createThrottledLog(
  write: (line: string) => void,
  perWindow = 10,
  windowMs = 10_000,
  now: () => number = Date.now,
): ThrottledLog {
  let windowStart = -Infinity;
  let shown = 0;
  let held = 0;
  const sayHeld = (): void => {
    if (held > 0)
      write(`${formatCount(held)} more ${held === 1 ? 'problem was' : 'problems were'} not shown`);
    held = 0;
  };
  const log = (line: string): void => {
    const t = now();
    if (t - windowStart >= windowMs) {
      sayHeld();
      windowStart = t;
      shown = 0;
    }
    if (shown < perWindow) {
      shown++;
      write(line);
    } else held++;
  };
  return Object.assign(log, { flush: sayHeld });
}

function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

function describeStart(running: RunningServe, options: ServeOptions): string {
  const window = running.runtime.window.config.maxDecisions;
  const lines = [
    'routescope serve',
    `  OTLP/HTTP   ${running.endpoint}/v1/traces   (OTEL_EXPORTER_OTLP_ENDPOINT=${running.endpoint})`,
    `  event logs  ${running.endpoint}/agentfootprint/events   (POST JSON lines)`,
    `  live page   ${running.pageUrl}`,
    `  metrics     ${running.metricsUrl}`,
    `  window      the newest ${countOf(window, 'decision')} (--max-decisions), at most ${formatCount(running.runtime.window.config.maxBytes / MIB)} MiB (--max-window-mb); /metrics counts all`,
    ...(options.out === undefined ? [] : [`  writing     ${escapeControlChars(options.out)} (appended)`]),
    ...(running.forward === undefined ? [] : [`  forwarding  ${escapeControlChars(running.forward.target)}`]),
    ...(options.token === undefined ? [] : ['  token       required (Authorization: Bearer …)']),
    'Ctrl-C stops it.',
  ];
  return `${lines.join('\n')}\n`;
}

/** What serve did, said once when it stops: nothing it took, evicted, refused or could not pass on is silent. */
export function describeStop(running: RunningServe, unwritten?: Readonly<OutBacklog>): string {
  const { counts, window, stats } = running.runtime.state;
  const r = counts.requests;
  const lines = [
    `routescope serve stopped: ${countOf(counts.decisionsReceived, 'routing decision')} received in ${countOf(r.accepted, 'request')} (${countOf(counts.items, 'span or event line', 'spans and event lines')})`,
    `  kept        ${countOf(window.decisions, 'decision')} in the window; ${formatCount(window.evicted.decisions)} evicted, oldest first (--max-decisions ${formatCount(window.config.maxDecisions)}${window.evicted.forBytes > 0 ? `; ${countOf(window.evicted.forBytes, 'record')} for --max-window-mb ${formatCount(window.config.maxBytes / MIB)}` : ''})${window.stringsCut > 0 ? `; ${formatCount(window.stringsCut)} strings cut (--max-string ${formatCount(window.config.maxString)})` : ''}`,
    `  refused     ${countOf(r.invalid, 'request')} unreadable or misaddressed, ${formatCount(r.refused)} refused (busy, too large, unauthenticated, another site, --out not writing, stopping), ${formatCount(r.ignored)} ignored (metrics, logs)`,
    `  unreadable  ${countOf(counts.rejectedItems, 'span or line', 'spans or lines')} could not be read${stats.problems.length > 0 ? `; the first: ${escapeControlChars(stats.problems[0]!.reason)}` : ''}`,
  ];
  const forward = running.forward;
  if (forward !== undefined)
    lines.push(
      `  forwarded   ${countOf(forward.counts.ok, 'request')} to ${escapeControlChars(forward.target)}; ${formatCount(forward.counts.failed)} failed, ${formatCount(forward.counts.dropped)} dropped`,
    );
  const out = running.out;
  if (out !== undefined) {
    lines.push(
      `  written     ${countOf(out.written.requests, 'request')}, ${formatCount(out.written.bytes)} bytes to ${escapeControlChars(out.path)}: every request answered 2xx${out.errors === 0 ? '' : `; ${formatCount(out.errors)} writes failed and their requests were answered 503${out.failing === undefined ? '' : ` (failing at the stop: ${escapeControlChars(out.failing)})`}`}`,
    );
    if (unwritten !== undefined && unwritten.requests > 0)
      lines.push(
        `  not written ${countOf(unwritten.requests, 'request')} (${countOf(unwritten.items, 'span or event line', 'spans and event lines')}, ${formatCount(unwritten.bytes)} bytes) ${unwritten.requests === 1 ? 'was' : 'were'} still waiting for the disk at the stop: answered 503, not kept`,
      );
  }
  return `${lines.join('\n')}\n`;
}
