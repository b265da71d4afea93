/**
 * faultyCollector — a loopback HTTP endpoint that fails the way real collectors fail, and a diag recorder.
 *
 * `down` is a port that was bound and released (nothing listens: ECONNREFUSED); `hang` accepts the request and
 * never answers; `400`/`413`/`500`/`503` answer that status (503 with `Retry-After: 0` so the exporter's retry
 * loop runs to its end quickly); `reset` destroys the socket as the request arrives. The recorder keeps every
 * message the OpenTelemetry diag channel receives, so a test can see what the SDK reported.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { diag, DiagLogLevel, type DiagLogger } from '@opentelemetry/api';

/** Every way the endpoint can fail. */
export const COLLECTOR_FAULTS = ['down', 'hang', '400', '413', '500', '503', 'reset'] as const;
export type CollectorFault = (typeof COLLECTOR_FAULTS)[number];

/** What the exporter's failure looks like in the diag error it leads to, per fault. */
export const FAULT_SIGNATURES: Readonly<Record<CollectorFault, RegExp>> = {
  down: /ECONNREFUSED/,
  hang: /timed out|timeout/i,
  '400': /Bad Request/,
  '413': /Payload Too Large/,
  '500': /Internal Server Error/,
  '503': /retryable/i,
  reset: /socket hang up|ECONNRESET/,
};

/** A running faulty endpoint. */
export interface FaultyCollector {
  readonly url: string;
  /** Requests that reached the server (0 for `down`). */
  readonly requests: () => number;
  close(): Promise<void>;
}

/** Start an endpoint on 127.0.0.1 that fails with `fault` (`ok` answers 200, the healthy reference). */
export async function startFaultyCollector(fault: CollectorFault | 'ok'): Promise<FaultyCollector> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    if (fault === 'reset') {
      req.socket.destroy();
      return;
    }
    req.resume();
    if (fault === 'hang') return;
    if (fault === 'ok') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
      return;
    }
    res.writeHead(Number(fault), fault === '503' ? { 'retry-after': '0' } : {});
    res.end('{"error":"injected fault"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/v1/traces`;
  const close = async (): Promise<void> => {
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  if (fault === 'down') await close();
  return { url, requests: () => requests, close };
}

/** One diag message. */
export interface DiagEntry {
  readonly level: 'error' | 'warn' | 'info' | 'debug' | 'verbose';
  readonly text: string;
}

/** A diag logger that keeps what it is told (arguments rendered lazily and bounded, spans not stringified). */
export interface DiagRecorder {
  readonly entries: DiagEntry[];
  /** Messages at `level` matching `pattern`. */
  matching(level: DiagEntry['level'], pattern: RegExp): DiagEntry[];
  uninstall(): void;
}

function render(args: unknown[]): string {
  return args
    .map((a) => {
      if (typeof a === 'string') return a;
      if (a instanceof Error) return `${a.name}: ${a.message}`;
      if (Array.isArray(a)) return `[${a.length} items]`;
      return String(a);
    })
    .join(' ')
    .slice(0, 500);
}

/** Register a recording logger as the global diag logger (level DEBUG); `uninstall` removes it. */
export function installDiagRecorder(maxEntries = 10_000): DiagRecorder {
  const entries: DiagEntry[] = [];
  const keep =
    (level: DiagEntry['level']) =>
    (...args: unknown[]): void => {
      if (entries.length < maxEntries) entries.push({ level, text: render(args) });
    };
  const logger: DiagLogger = {
    error: keep('error'),
    warn: keep('warn'),
    info: keep('info'),
    debug: keep('debug'),
    verbose: keep('verbose'),
  };
  diag.setLogger(logger, { logLevel: DiagLogLevel.DEBUG, suppressOverrideMessage: true });
  return {
    entries,
    matching: (level, pattern) => entries.filter((e) => e.level === level && pattern.test(e.text)),
    uninstall: () => diag.disable(),
  };
}

/** Wait until `condition` holds, checking every 20 ms, for at most `limitMs` (then return false). */
export async function waitFor(condition: () => boolean, limitMs = 10_000): Promise<boolean> {
  const until = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** Collect unhandled rejections while installed. */
export function watchUnhandledRejections(): { readonly seen: unknown[]; stop(): void } {
  const seen: unknown[] = [];
  const listener = (reason: unknown): void => {
    seen.push(reason);
  };
  process.on('unhandledRejection', listener);
  return { seen, stop: () => process.off('unhandledRejection', listener) };
}
