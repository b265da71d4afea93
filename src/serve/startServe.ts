/**
 * startServe — `routescope serve` as a value: the receiver and the live page listening, and how to stop them.
 *
 * Two Node `http` servers: on `host:port` (127.0.0.1:4318, the port OTLP/HTTP exporters default to) the
 * receiver takes the exporters' requests and answers Prometheus on `/metrics`; on `uiHost:uiPort`
 * (127.0.0.1:4319) the live page (livePage). A non-loopback address is used only when asked for, and then only
 * with a token, which then guards both: starting without one is refused. Timeouts bound a slow client (headers
 * within `headersTimeoutMs`, the whole request within `requestTimeoutMs`: Node answers 408). `close` stops
 * taking requests (503 to any that still arrive), waits for those in flight (at most `outFlushMs`: a request
 * whose `--out` line the disk does not take by then is answered 503, not kept), ends the live pages' streams,
 * sends what `--forward` still holds (at most `flushTimeoutMs`) and closes `--out`; so it resolves within
 * about the two deadlines, with what `--out` could not write.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { PolicyChoice } from '../analyze/policyAudit.js';
import type { EventLogOptions } from '../trace/formats/readAgentfootprintEvent.js';
import { createForwarder, splitForwardTarget, type Forwarder } from './forwardRequests.js';
import type { TraceLinkConfig } from '../report/traceLinks.js';
import { createLivePage } from './livePage.js';
import { createOtlpReceiver } from './otlpReceiver.js';
import type { ReadBodyOptions } from './readRequestBody.js';
import { createRequestGuard } from './requestGuard.js';
import { openOutFile, type OutBacklog, type OutFile } from './outFile.js';
import { renderServeMetrics, type ProcessFigures } from './serveMetrics.js';
import { createServeRuntime, type ServeRuntime } from './serveRuntime.js';

/** The default receiver port: OTLP/HTTP's own. */
export const DEFAULT_OTLP_PORT = 4318;

/** The default port of the live page. */
export const DEFAULT_UI_PORT = 4319;

/** How long `close` waits for `--forward` to send what it holds. */
export const FORWARD_FLUSH_MS = 5000;

/**
 * How long `close` waits for the requests in flight (a line `--out` has not yet taken), and then for `--out` to
 * take what waits: past it those requests are answered 503 and the stop says what was not written.
 */
export const OUT_FLUSH_MS = 5000;

/** A page's socket idle this long (an answer nobody reads) is closed. */
export const PAGE_SOCKET_TIMEOUT_MS = 30_000;

/** The default address: this machine only. */
export const DEFAULT_HOST = '127.0.0.1';

/** How `serve` runs. */
export interface ServeOptions {
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** @default host when it is loopback, else 127.0.0.1 */
  readonly uiHost?: string;
  /** 0 picks a free port. @default DEFAULT_UI_PORT */
  readonly uiPort?: number;
  readonly token?: string;
  /** Host names requests may be addressed to besides localhost, IP addresses, `host` and `uiHost`. */
  readonly allowHosts?: readonly string[];
  readonly maxDecisions?: number;
  /** Bytes the window's records may take (`--max-window-mb`). @default DEFAULT_DECISION_WINDOW_CONFIG.maxBytes */
  readonly maxWindowBytes?: number;
  /** The longest string stored whole (`--max-string`). @default DEFAULT_MAX_STORED_STRING */
  readonly maxString?: number;
  readonly maxBody?: number;
  readonly maxInFlight?: number;
  readonly bodyBudget?: number;
  /** The slowest a body may arrive (tests shorten the grace). */
  readonly bodyRate?: ReadBodyOptions;
  readonly out?: string;
  readonly forward?: string;
  readonly forwardHeaders?: Readonly<Record<string, string>>;
  readonly policy?: PolicyChoice;
  readonly events?: EventLogOptions;
  readonly headersTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  /** Bytes waiting for the disk before the receiver answers 503. @default OUT_HIGH_WATER */
  readonly outHighWater?: number;
  /** @default FORWARD_FLUSH_MS */
  readonly flushTimeoutMs?: number;
  /** @default OUT_FLUSH_MS */
  readonly outFlushMs?: number;
  /** The JSON documents' schema version (the CLI's). */
  readonly schemaVersion: number;
  /** Where explain pages link a trace (Jaeger, Grafana). */
  readonly traceLinks?: TraceLinkConfig;
  /** Problems, one line each. */
  readonly log: (line: string) => void;
}

/** A running serve. */
export interface RunningServe {
  readonly runtime: ServeRuntime;
  /** `http://127.0.0.1:4318`: what OTEL_EXPORTER_OTLP_ENDPOINT is set to. */
  readonly endpoint: string;
  /** `http://127.0.0.1:4318/metrics`. */
  readonly metricsUrl: string;
  /** `http://127.0.0.1:4319/`. */
  readonly pageUrl: string;
  readonly out?: OutFile;
  readonly forward?: Forwarder;
  /** Requests being read now. */
  readonly inFlight: number;
  /** Stop (see the module comment); resolves with what `--out` could not write before its deadline. */
  close(): Promise<Readonly<OutBacklog> | undefined>;
}

/** Why serve did not start. */
export class ServeStartError extends Error {
  override readonly name = 'ServeStartError';
}

/** Is `host` this machine only? */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Start serving; rejects with ServeStartError when it cannot (a port in use, a missing token). */
export async function startServe(options: ServeOptions): Promise<RunningServe> {
  const host = options.host ?? DEFAULT_HOST;
  const uiHost = options.uiHost ?? (isLoopbackHost(host) ? host : DEFAULT_HOST);
  for (const [flag, h] of [
    ['--host', host],
    ['--ui-host', uiHost],
  ] as const) {
    if (!isLoopbackHost(h) && (options.token === undefined || options.token === ''))
      throw new ServeStartError(
        `${flag} ${h} listens beyond this machine: give --token <secret> too (exporters then send Authorization: Bearer <secret>)`,
      );
  }
  let out: OutFile | undefined;
  if (options.out !== undefined) {
    try {
      out = await openOutFile(options.out, {
        ...(options.outHighWater === undefined ? {} : { highWater: options.outHighWater }),
        log: options.log,
      });
    } catch (error) {
      throw new ServeStartError(
        `--out ${options.out}: cannot open it for appending (${(error as Error).message})`,
      );
    }
  }
  let forwardTarget: string | undefined;
  let forwardHeaders = options.forwardHeaders;
  if (options.forward !== undefined) {
    let split: ReturnType<typeof splitForwardTarget>;
    try {
      split = splitForwardTarget(options.forward);
    } catch {
      // Never the text itself: it may hold a password.
      throw new ServeStartError('--forward: not a URL (give e.g. http://127.0.0.1:14318)');
    }
    if (!/^https?:/.test(split.target))
      throw new ServeStartError(`--forward ${split.target}: only http and https are forwarded to`);
    if (split.authorization !== undefined) {
      const given = Object.keys(forwardHeaders ?? {}).some((name) => name.toLowerCase() === 'authorization');
      if (given)
        throw new ServeStartError(
          `--forward ${split.target}: the URL holds a user and password and --header gives Authorization too: keep one`,
        );
      forwardHeaders = { ...forwardHeaders, authorization: split.authorization };
    }
    forwardTarget = split.target;
  }
  const receiverServer = makeServer(options);
  const otlpPort = await listen(receiverServer, host, options.port ?? DEFAULT_OTLP_PORT, '--port', out);
  let uiPort = -1;
  const guard = createRequestGuard({
    hosts: [host, uiHost, ...(options.allowHosts ?? [])],
    ports: () => [otlpPort, uiPort],
  });
  const endpoint = `http://${hostForUrl(host)}:${otlpPort}`;
  // The forwarder tells the runtime of each outcome, and the runtime shows the forwarder's counts.
  let touch = (): void => undefined;
  const forward =
    forwardTarget === undefined
      ? undefined
      : createForwarder(forwardTarget, {
          ...(forwardHeaders === undefined ? {} : { headers: forwardHeaders }),
          onChange: () => touch(),
          log: options.log,
        });
  const runtime = createServeRuntime({
    endpoint,
    ...(options.maxDecisions === undefined ? {} : { maxDecisions: options.maxDecisions }),
    ...(options.maxWindowBytes === undefined ? {} : { maxWindowBytes: options.maxWindowBytes }),
    ...(options.maxString === undefined ? {} : { maxString: options.maxString }),
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    ...(options.events === undefined ? {} : { events: options.events }),
    ...(options.out === undefined ? {} : { out: options.out }),
    ...(out === undefined ? {} : { outStatus: out }),
    ...(forward === undefined ? {} : { forward: forward.target, forwarded: forward.counts }),
  });
  touch = runtime.touch;
  // How long the event loop is held: what a scrape, a page or an exporter waits behind.
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const receiver = createOtlpReceiver({
    runtime,
    guard,
    log: options.log,
    metrics: () => renderServeMetrics(runtime, out, forward, processFigures(delay)),
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.maxBody === undefined ? {} : { maxBody: options.maxBody }),
    ...(options.maxInFlight === undefined ? {} : { maxInFlight: options.maxInFlight }),
    ...(options.bodyBudget === undefined ? {} : { bodyBudget: options.bodyBudget }),
    ...(options.bodyRate === undefined ? {} : { bodyRate: options.bodyRate }),
    ...(out === undefined ? {} : { out }),
    ...(forward === undefined ? {} : { forward }),
  });
  receiverServer.on('request', receiver.handle);
  const page = createLivePage({
    runtime,
    guard,
    schemaVersion: options.schemaVersion,
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.traceLinks === undefined ? {} : { traceLinks: options.traceLinks }),
  });
  const pageServer = makeServer(options);
  // An answer nobody reads (its socket idle that long) is let go; the page's event streams turn this off.
  pageServer.timeout = PAGE_SOCKET_TIMEOUT_MS;
  pageServer.on('request', page.handle);
  try {
    uiPort = await listen(pageServer, uiHost, options.uiPort ?? DEFAULT_UI_PORT, '--ui-port', out);
  } catch (error) {
    page.close();
    delay.disable();
    await closeServer(receiverServer);
    throw error;
  }
  let closed: Promise<Readonly<OutBacklog> | undefined> | undefined;
  return {
    runtime,
    endpoint,
    metricsUrl: `${endpoint}/metrics`,
    pageUrl: `http://${hostForUrl(uiHost)}:${uiPort}/`,
    ...(out === undefined ? {} : { out }),
    ...(forward === undefined ? {} : { forward }),
    get inFlight() {
      return receiver.inFlight;
    },
    close() {
      closed ??= (async () => {
        delay.disable();
        const outFlushMs = options.outFlushMs ?? OUT_FLUSH_MS;
        const outDeadline = Date.now() + outFlushMs;
        const drained = receiver.drain(outFlushMs);
        const stopped = Promise.all([closeServer(receiverServer), closeServer(pageServer)]);
        page.close();
        pageServer.closeAllConnections();
        await drained;
        receiverServer.closeIdleConnections();
        await forward?.flush(options.flushTimeoutMs ?? FORWARD_FLUSH_MS);
        receiverServer.closeAllConnections();
        await stopped;
        return out?.close(Math.max(0, outDeadline - Date.now()));
      })();
      return closed;
    },
  };
}

function processFigures(delay: IntervalHistogram): ProcessFigures {
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  return {
    residentBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    heapTotalBytes: memory.heapTotal,
    externalBytes: memory.external,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    ...eventLoopDelay(delay),
  };
}

/** The event loop's delay since the previous scrape (then the histogram starts again, as prom-client's does). */
function eventLoopDelay(
  delay: IntervalHistogram,
): Pick<ProcessFigures, 'eventLoopDelayMaxSeconds' | 'eventLoopDelayP99Seconds'> {
  const figures =
    delay.count === 0
      ? { eventLoopDelayMaxSeconds: 0, eventLoopDelayP99Seconds: 0 }
      : { eventLoopDelayMaxSeconds: delay.max / 1e9, eventLoopDelayP99Seconds: delay.percentile(99) / 1e9 };
  delay.reset();
  return figures;
}

function makeServer(options: ServeOptions): Server {
  const server = createServer({
    headersTimeout: options.headersTimeoutMs ?? 10_000,
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    // How often Node checks those two; its default (30 s) would let a slow client sit long past them.
    connectionsCheckingInterval: Math.min(1000, options.headersTimeoutMs ?? 1000),
    keepAliveTimeout: 5000,
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return;
    const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_HEADERS_TIMEOUT';
    const status = timedOut
      ? '408 Request Timeout'
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });
  return server;
}

async function listen(
  server: Server,
  host: string,
  port: number,
  flag: string,
  out?: OutFile,
): Promise<number> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await out?.close();
    const code = (error as NodeJS.ErrnoException).code;
    throw new ServeStartError(
      code === 'EADDRINUSE'
        ? `${host}:${port} is in use (a Collector, or another serve?): choose another with ${flag}`
        : `cannot listen on ${host}:${port} (${flag}): ${(error as Error).message}`,
    );
  }
  return (server.address() as AddressInfo).port;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
