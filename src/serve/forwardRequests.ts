/**
 * forwardRequests — `serve --forward URL`: every accepted request passed on, unchanged, to a real Collector.
 *
 * The body goes on as it came over the wire (still gzip if it was), with its Content-Type and
 * Content-Encoding, to the same path under the target (`/v1/traces` → `URL/v1/traces`), with the `--header`
 * headers added. The receiver never waits for it: a request is put on a bounded queue (at most `maxQueued`
 * requests and `maxQueuedBytes` bytes) and answered by serve at once; `concurrency` sends run at a time. What
 * became of each one is counted: delivered (the target answered 2xx), failed (another answer, unreachable, or
 * no answer within `timeoutMs`), dropped (the queue was full, or serve stopped before it could be sent). A
 * failure is told through `log`, and never retried: the exporter already had its answer, so a retry here
 * could only reorder what the target sees. `flush` waits for the queue within a deadline, then drops the rest.
 */

/** What became of the requests handed over, since start. */
export interface ForwardCounts {
  ok: number;
  failed: number;
  dropped: number;
}

/** The forwarder. */
export interface Forwarder {
  readonly target: string;
  /** Queue one request; false when it was dropped because the queue is full. Never blocks, never throws. */
  enqueue(path: string, body: Buffer, headers: Readonly<Record<string, string>>): boolean;
  /** Requests queued or being sent. */
  readonly pending: number;
  readonly counts: Readonly<ForwardCounts>;
  /** Wait until every queued request was sent, at most `deadlineMs`; what is left is dropped and counted. */
  flush(deadlineMs: number): Promise<void>;
}

/** How the forwarder runs. */
export interface ForwarderOptions {
  readonly headers?: Readonly<Record<string, string>>;
  /** @default MAX_QUEUED_FORWARDS */
  readonly maxQueued?: number;
  /** @default MAX_QUEUED_FORWARD_BYTES */
  readonly maxQueuedBytes?: number;
  /** @default FORWARD_CONCURRENCY */
  readonly concurrency?: number;
  /** @default FORWARD_TIMEOUT_MS */
  readonly timeoutMs?: number;
  /** Called after each outcome (the runtime's change signal). */
  readonly onChange?: () => void;
  /** One line for each failure and drop. */
  readonly log?: (line: string) => void;
}

/** Requests waiting at once before further ones are dropped. */
export const MAX_QUEUED_FORWARDS = 256;

/** Bytes waiting at once before further requests are dropped. */
export const MAX_QUEUED_FORWARD_BYTES = 64 * 1024 * 1024;

/** Sends in flight at once. */
export const FORWARD_CONCURRENCY = 4;

/** How long one send may take before it counts as failed. */
export const FORWARD_TIMEOUT_MS = 10_000;

interface Job {
  readonly path: string;
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string>>;
}

/** A `--forward` URL taken apart: the URL without credentials, and the header that carries them. */
export interface ForwardTarget {
  /** The URL as shown and used, without user name or password. */
  readonly target: string;
  /** `Basic …` when the URL carried `user:password@`. */
  readonly authorization?: string;
}

/**
 * Take credentials out of a `--forward` URL (`http://user:pw@host`): they travel as an `Authorization: Basic`
 * header, as a browser would send them, and the URL shown anywhere (stdout, stderr, the page, /metrics) no
 * longer holds them. Throws TypeError when it is not a URL.
 */
export function splitForwardTarget(raw: string): ForwardTarget {
  const url = new URL(raw);
  if (url.username === '' && url.password === '') return { target: url.toString() };
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  return {
    target: url.toString(),
    authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
  };
}

/**
 * A forwarder to `target` (an http(s) URL without credentials; its own path, if any, is the prefix of every
 * forwarded path, and its query is kept as the query of each).
 */
export function createForwarder(target: string, options: ForwarderOptions = {}): Forwarder {
  const parsed = new URL(target);
  const query = parsed.search;
  parsed.search = '';
  parsed.hash = '';
  const prefix = parsed.toString().replace(/\/+$/, '');
  const base = prefix + query;
  const urlFor = (path: string): string => `${prefix}${path}${query}`;
  const maxQueued = options.maxQueued ?? MAX_QUEUED_FORWARDS;
  const maxQueuedBytes = options.maxQueuedBytes ?? MAX_QUEUED_FORWARD_BYTES;
  const concurrency = options.concurrency ?? FORWARD_CONCURRENCY;
  const timeoutMs = options.timeoutMs ?? FORWARD_TIMEOUT_MS;
  const log = options.log ?? (() => undefined);
  const counts: ForwardCounts = { ok: 0, failed: 0, dropped: 0 };
  const queue: Job[] = [];
  let queuedBytes = 0;
  let sending = 0;
  let stopped = false;
  const idleWaiters = new Set<() => void>();
  const controllers = new Set<AbortController>();

  const changed = (): void => {
    options.onChange?.();
    if (queue.length === 0 && sending === 0) for (const wake of idleWaiters) wake();
  };

  const send = async (job: Job): Promise<void> => {
    const controller = new AbortController();
    controllers.add(controller);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const response = await fetch(urlFor(job.path), {
        method: 'POST',
        headers: { ...job.headers, ...options.headers },
        body: job.body,
        signal: controller.signal,
        redirect: 'manual',
      });
      await response.arrayBuffer();
      if (response.status >= 200 && response.status < 300) counts.ok++;
      else {
        counts.failed++;
        log(`--forward ${urlFor(job.path)}: the target answered ${response.status}`);
      }
    } catch (error) {
      counts.failed++;
      const why = timedOut
        ? `no answer within ${timeoutMs} ms`
        : stopped
          ? 'cut off when serve stopped'
          : `unreachable: ${reasonOf(error)}`;
      log(`--forward ${urlFor(job.path)}: ${why}`);
    } finally {
      clearTimeout(timer);
      controllers.delete(controller);
    }
  };

  const pump = (): void => {
    while (sending < concurrency && queue.length > 0) {
      const job = queue.shift()!;
      queuedBytes -= job.body.length;
      sending++;
      void send(job).finally(() => {
        sending--;
        pump();
        changed();
      });
    }
  };

  return {
    target: base,
    enqueue(path, body, headers) {
      if (stopped || queue.length >= maxQueued || queuedBytes + body.length > maxQueuedBytes) {
        counts.dropped++;
        log(
          `--forward ${urlFor(path)}: a request was dropped (${stopped ? 'serve is stopping' : `the queue holds ${queue.length} requests, ${queuedBytes} bytes: the target is slower than what arrives`})`,
        );
        changed();
        return false;
      }
      queue.push({ path, body, headers });
      queuedBytes += body.length;
      pump();
      return true;
    },
    get pending() {
      return queue.length + sending;
    },
    counts,
    async flush(deadlineMs) {
      if (queue.length > 0 || sending > 0) {
        let timer: NodeJS.Timeout | undefined;
        let wake: (() => void) | undefined;
        await new Promise<void>((resolve) => {
          wake = resolve;
          idleWaiters.add(resolve);
          timer = setTimeout(resolve, deadlineMs);
        });
        clearTimeout(timer);
        if (wake !== undefined) idleWaiters.delete(wake);
      }
      stopped = true;
      if (queue.length > 0) {
        log(`--forward ${base}: ${queue.length} requests not sent before serve stopped`);
        counts.dropped += queue.length;
        queue.length = 0;
        queuedBytes = 0;
      }
      for (const controller of controllers) controller.abort();
      if (sending > 0) await new Promise<void>((resolve) => idleWaiters.add(resolve));
    },
  };
}

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? error.cause.message : error.message;
}
