/**
 * httpFetch — JSON over HTTP from a trace store: per-request timeout, bounded retries with back-off, a pool.
 *
 * A trace store under load answers 429 or 5xx, or drops a connection, and then answers the same request a
 * moment later; those are retried with exponential back-off (Retry-After honoured up to the cap), a bounded
 * number of times. Everything else is final: a 4xx comes back to the caller as a status (a missing trace is a
 * problem to report, a rejected query an input error), and a 2xx body that is not JSON means the URL does
 * not point at the store, so retrying cannot help. Every failure that stops the read is an InputError that
 * names the URL, what it answered and what to do. Bodies are capped (MAX_RESPONSE_BYTES). `mapConcurrent`
 * keeps at most `limit` requests in flight and yields their results in input order.
 */
import { InputError } from '../inputError.js';
import { sanitizeMessage } from '../normalizeSpanFields.js';
import type { RequestHeaders } from './requestHeaders.js';

/** How requests to a trace store are made. */
export interface HttpFetchConfig {
  /** Time one attempt may take, headers and body, in milliseconds. @default 30000 */
  readonly timeoutMs: number;
  /** Further attempts after a 429, a 5xx, a timeout or a network error. @default 3 */
  readonly retries: number;
  /** First back-off delay; doubled on each retry. @default 250 */
  readonly backoffMs: number;
  /** Longest single back-off delay (also the cap on Retry-After). @default 8000 */
  readonly maxBackoffMs: number;
  /** Largest response body read. @default MAX_RESPONSE_BYTES */
  readonly maxBytes: number;
  /** Sent on every request besides `accept` (credentials, a tenant); never shown. @default none */
  readonly headers?: RequestHeaders;
}

/** The largest response body read (one trace or one search answer), `--max-answer-mb`'s default of 64. */
export const MAX_RESPONSE_BYTES = 64_000_000;

/**
 * An answer may hold at most one JSON object or array for every this many bytes of its cap before it is parsed:
 * real trace answers hold one per 40–70 bytes, while 64 MB of empty objects (`{},{},…`) would parse into some
 * 21 million of them and gigabytes of heap. At the default cap: 4 million, about 250 MB parsed at the worst.
 */
export const BYTES_PER_JSON_CONTAINER = 16;

/** Defaults of HttpFetchConfig. */
export const DEFAULT_HTTP_FETCH_CONFIG: HttpFetchConfig = Object.freeze({
  timeoutMs: 30_000,
  retries: 3,
  backoffMs: 250,
  maxBackoffMs: 8_000,
  maxBytes: MAX_RESPONSE_BYTES,
});

/** Fill the unset fields of `partial` from the defaults. */
export function resolveHttpFetchConfig(partial: Partial<HttpFetchConfig> = {}): HttpFetchConfig {
  return { ...DEFAULT_HTTP_FETCH_CONFIG, ...partial };
}

/** What a request gave: parsed JSON, or a final (non-retryable) HTTP status with the start of its body. */
export type FetchJsonResult =
  | { readonly kind: 'json'; readonly value: unknown; readonly bytes: number }
  | { readonly kind: 'status'; readonly status: number; readonly body: string };

/** What a request gave before parsing: the answer's bytes (to parse with parseAnswer), or a final status. */
export type FetchAnswerResult =
  | { readonly kind: 'body'; readonly body: Buffer; readonly url: string; readonly status: number }
  | { readonly kind: 'status'; readonly status: number; readonly body: string };

/** One attempt that may be worth repeating. */
type Attempt =
  | { readonly kind: 'done'; readonly result: FetchAnswerResult }
  | { readonly kind: 'retry'; readonly what: string; readonly retryAfterMs?: number };

const SHOWN_BODY_CHARS = 200;

function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504 || status === 500;
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
function readRetryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** What to do about a 4xx other than 400, for a refused search; `sent` names the --header headers sent. */
export function adviseOnStatus(status: number, example: string, sent: readonly string[] = []): string {
  if (status === 401 || status === 403) {
    return sent.length === 0
      ? "The store wants credentials (or, for multi-tenant Tempo, an X-Scope-OrgID) and routescope sent none: pass them with --header, e.g. --header 'Authorization: Bearer ${ROUTESCOPE_TOKEN}' (docs/sources.md)."
      : `The store refused the headers sent (${sent.join(', ')}; values not shown): check the credentials, that they are for this store, and for multi-tenant Tempo the X-Scope-OrgID tenant (docs/sources.md).`;
  }
  return `Check the URL (the base of the store's HTTP API, e.g. ${example}).`;
}

/** The start of a body, printable in a message. */
export function showBody(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return 'an empty body';
  return `'${sanitizeMessage(trimmed.replace(/\s+/g, ' '), SHOWN_BODY_CHARS)}'`;
}

/** Read a body up to `max` bytes; undefined when it is longer. */
async function readCapped(response: Response, max: number): Promise<Buffer | undefined> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel();
    return undefined;
  }
  if (response.body === null) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > max) return undefined;
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
  }
  return Buffer.concat(chunks, size);
}

function describeNetworkError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const cause = error instanceof Error ? (error as Error & { cause?: unknown }).cause : undefined;
  const code = (cause as { code?: unknown } | undefined)?.code;
  const message =
    cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  if (code === 'ECONNREFUSED') return 'connection refused (nothing listens there)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host name not found';
  return sanitizeMessage(typeof code === 'string' ? `${code}: ${message}` : message, 160);
}

async function attemptOnce(url: string, config: HttpFetchConfig, signal?: AbortSignal): Promise<Attempt> {
  const timeout = AbortSignal.timeout(config.timeoutMs);
  const combined = signal === undefined ? timeout : AbortSignal.any([timeout, signal]);
  let response: Response;
  let body: Buffer | undefined;
  try {
    response = await fetchFollowing(url, config, combined);
    if (isRetryableStatus(response.status)) {
      const text = redactBody(config, (await readCapped(response, 64 * 1024))?.toString('utf8') ?? '');
      const retryAfterMs = readRetryAfter(response.headers.get('retry-after'));
      return {
        kind: 'retry',
        what: `HTTP ${response.status} with ${showBody(text)}`,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      };
    }
    body = await readCapped(response, config.maxBytes);
  } catch (error) {
    // A redirect refused or going round is final: no retry can change where it leads.
    if (signal?.aborted === true || error instanceof InputError) throw error;
    return { kind: 'retry', what: describeNetworkError(error, config.timeoutMs) };
  }
  if (body === undefined) {
    throw new InputError(
      `${url}: the answer is larger than ${config.maxBytes} bytes, more than routescope reads in one response. Narrow the search (a shorter --since, a lower --limit), or raise --max-answer-mb.`,
      url,
    );
  }
  if (!response.ok) {
    return {
      kind: 'done',
      result: { kind: 'status', status: response.status, body: redactBody(config, body.toString('utf8')) },
    };
  }
  return { kind: 'done', result: { kind: 'body', body, url, status: response.status } };
}

/**
 * Parse an answer fetched by fetchAnswer, counting first: more JSON objects and arrays than one per
 * BYTES_PER_JSON_CONTAINER bytes of the cap is an InputError, before anything is built. Callers parse one
 * answer at a time, so however many are fetched ahead, one is held parsed.
 */
export function parseAnswer(
  answer: { readonly body: Buffer; readonly url: string; readonly status: number },
  config: HttpFetchConfig,
): { readonly value: unknown; readonly bytes: number } {
  const { body, url, status } = answer;
  const most = Math.max(1024, Math.floor(config.maxBytes / BYTES_PER_JSON_CONTAINER));
  const containers = countJsonContainers(body, most);
  if (containers > most) {
    throw new InputError(
      `${url}: the answer holds more than ${most} JSON objects and arrays in ${body.length} bytes, more than routescope parses from one answer (real traces hold one per 40 bytes or more). Narrow the search (a shorter --since, a lower --limit), or raise --max-answer-mb.`,
      url,
    );
  }
  const text = body.toString('utf8');
  try {
    return { value: JSON.parse(text) as unknown, bytes: body.length };
  } catch {
    throw new InputError(
      `${url}: answered HTTP ${status} with ${showBody(redactBody(config, text))}, which is not JSON. Check that the URL is the trace store's HTTP API (Tempo: port 3200; Jaeger query: port 16686) and not a UI, a proxy login page or another service.`,
      url,
    );
  }
}

/** `{` and `[` bytes in `body` (strings included: a bound from above), stopping once past `most`. */
function countJsonContainers(body: Buffer, most: number): number {
  let count = 0;
  for (const open of [0x7b, 0x5b]) {
    for (let at = body.indexOf(open); at !== -1; at = body.indexOf(open, at + 1)) {
      if (++count > most) return count;
    }
  }
  return count;
}

/** Redirects followed for one request: a store or its proxy uses one or two; more is a misconfiguration. */
export const MAX_REDIRECTS = 5;

/**
 * GET `url`, following redirects by hand (fetch would follow them itself, sending every `--header` but
 * `Authorization` to wherever they lead). A redirect to another origin is followed only when no header was
 * given, so credentials and tenants never leave the origin the user named; with headers it is refused with an
 * InputError saying where it led. A loop, or more than MAX_REDIRECTS hops, is an InputError at once: no retry
 * can end it.
 */
async function fetchFollowing(url: string, config: HttpFetchConfig, signal: AbortSignal): Promise<Response> {
  const headers = config.headers?.toHeaders() ?? new Headers();
  if (!headers.has('accept')) headers.set('accept', 'application/json');
  const origin = new URL(url).origin;
  const seen = new Set<string>([url]);
  let current = url;
  for (let hops = 0; ; hops++) {
    const response = await fetch(current, { headers, signal, redirect: 'manual' });
    const location = response.headers.get('location');
    if (!isRedirect(response.status) || location === null) return response;
    await response.body?.cancel();
    const next = resolveLocation(location, current, url);
    if (seen.has(next.href)) {
      throw new InputError(
        `${url}: the store's redirects go round in a loop (back to ${showUrl(next)}): check the URL and the proxy in front of the store.`,
        url,
      );
    }
    if (hops + 1 > MAX_REDIRECTS) {
      throw new InputError(
        `${url}: more than ${MAX_REDIRECTS} redirects (the last to ${showUrl(next)}): give the store's own URL.`,
        url,
      );
    }
    if (next.origin !== origin && config.headers !== undefined) {
      throw new InputError(
        `${url}: the store redirected to another origin, ${next.origin}; routescope does not send --header values (${config.headers.names.join(', ')}) to another origin than the one named. If that is the store, name it: ${showUrl(next)} (docs/sources.md).`,
        url,
      );
    }
    seen.add(next.href);
    current = next.href;
  }
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** A Location header against the URL it answered; an InputError when it is not an http(s) URL. */
function resolveLocation(location: string, current: string, asked: string): URL {
  let next: URL;
  try {
    next = new URL(location, current);
  } catch {
    throw new InputError(`${asked}: the store redirected to something that is not a URL`, asked);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new InputError(`${asked}: the store redirected to a ${next.protocol} URL, not http(s)`, asked);
  }
  return next;
}

/** A URL for a message: no user or password, and cut to a printable length. */
function showUrl(u: URL): string {
  const copy = new URL(u.href);
  copy.username = '';
  copy.password = '';
  return sanitizeMessage(copy.href, 200);
}

/**
 * A body the store sent back, with the header values it may quote taken out: here, whole, before anything cuts
 * it to a length that would leave part of a long value (a JWT) standing where redaction cannot recognise it.
 */
function redactBody(config: HttpFetchConfig, text: string): string {
  return config.headers === undefined ? text : config.headers.redact(text);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * GET `url`. Retries 429, 5xx, timeouts and network errors with back-off; returns any other status to the
 * caller, and a 2xx answer's bytes unparsed (parseAnswer); throws InputError when the retries run out, a
 * redirect is refused, or the body is larger than the cap. `signal` cancels (the pool aborts the others when
 * one fails).
 */
export async function fetchAnswer(
  url: string,
  config: HttpFetchConfig,
  signal?: AbortSignal,
): Promise<FetchAnswerResult> {
  const attempts = Math.max(0, Math.floor(config.retries)) + 1;
  let last = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const outcome = await attemptOnce(url, config, signal);
    if (outcome.kind === 'done') return outcome.result;
    last = outcome.what;
    if (attempt === attempts) break;
    const backoff = Math.min(config.maxBackoffMs, config.backoffMs * 2 ** (attempt - 1));
    await sleep(Math.min(config.maxBackoffMs, Math.max(backoff, outcome.retryAfterMs ?? 0)), signal);
  }
  throw new InputError(
    `${url}: the trace store is unreachable or failing: ${last} (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}). Check the URL and that the store is up; raise --timeout or --retries for a slow or busy store.`,
    url,
  );
}

/** fetchAnswer, parsed at once: for a single request (a search), not for answers fetched ahead. */
export async function fetchJson(
  url: string,
  config: HttpFetchConfig,
  signal?: AbortSignal,
): Promise<FetchJsonResult> {
  const answer = await fetchAnswer(url, config, signal);
  return answer.kind === 'status' ? answer : { kind: 'json', ...parseAnswer(answer, config) };
}

/**
 * Run `fn` over `items` with at most `limit` calls in flight, yielding results in input order. When a call
 * throws (or the consumer stops early), the calls still running are aborted through their signal and awaited.
 */
export async function* mapConcurrent<T, R>(
  items: Iterable<T>,
  limit: number,
  fn: (item: T, signal: AbortSignal) => Promise<R>,
): AsyncGenerator<R> {
  const controller = new AbortController();
  const iterator = items[Symbol.iterator]();
  const running: Array<Promise<R>> = [];
  const bound = Math.max(1, Math.floor(limit));
  const launch = (): void => {
    while (running.length < bound && !controller.signal.aborted) {
      const next = iterator.next();
      if (next.done === true) return;
      const task = fn(next.value, controller.signal);
      // Marked handled here; the rejection is rethrown when the task reaches the head of the queue.
      task.catch(() => undefined);
      running.push(task);
    }
  };
  try {
    launch();
    while (running.length > 0) {
      const result = await running[0]!;
      running.shift();
      launch();
      yield result;
    }
  } finally {
    controller.abort(new Error('stopped'));
    await Promise.allSettled(running);
  }
}
