/**
 * otlpReceiver — the HTTP side of `serve`: what an agent's exporter posts to, answered as a Collector would,
 * and `/metrics` for Prometheus.
 *
 * Routes: `POST /v1/traces` (`application/json` or `application/x-protobuf`, gzip or not), read through the
 * CLI's readers (ingestPayload) into the runtime; `POST /v1/metrics` and `/v1/logs` taken and counted as
 * ignored (an SDK that exports all three signals to one endpoint must not see errors); `POST
 * /agentfootprint/events`, an agentfootprint event log as JSON lines; `GET /metrics` (the Prometheus text
 * exposition) and `GET /healthz`. Anything else is 404, another method 405, another content type 415.
 *
 * Answers follow OTLP/HTTP: 200 with an empty response, or its partial success when spans could not be read;
 * 400 with a Status for a body that is not a request; 413 past `--max-body` (on the wire or once gunzipped);
 * 401 without the bearer token when one is set (every route, `/metrics` too); 403 first, before anything is
 * read, to a request the guard refuses (a foreign `Host`, another web site: requestGuard). It sheds load rather than grow:
 * past `maxInFlight` requests being processed (a body being read takes no slot) or the shared body budget it
 * answers 429, a body slower than the minimum rate 408, while `--out` is writing behind or the
 * server is closing 503, both with Retry-After, which exporters honour. Node's request and header timeouts
 * answer a slow client with 408. `--forward` never holds an answer back: the request is queued for the target
 * (forwardRequests) and answered here. Every request is counted; problems go to `log`, one line each, never
 * thrown.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeControlChars } from '../report/escapeControlChars.js';
import type { Forwarder } from './forwardRequests.js';
import { ingestPayload } from './ingestPayload.js';
import { outLineOf } from './outLine.js';
import { OTLP_CONTENT_TYPES, RPC_CODE, statusResponse, type OtlpEncoding } from './otlpResponses.js';
import type { OutFile } from './outFile.js';
import { createBodyBudget, readRequestBody, type ReadBodyOptions } from './readRequestBody.js';
import type { RequestGuard } from './requestGuard.js';
import type { ServeRuntime } from './serveRuntime.js';
import { hasBearerToken } from './serveToken.js';
import {
  acceptedAnswer,
  answerRead,
  contentTypeOf,
  describeBodyRefusal,
  EVENT_LOG_TYPES,
  payloadKindOf,
} from './receiverAnswers.js';

/** The default largest body taken, on the wire and decompressed. */
export const DEFAULT_MAX_BODY = 16 * 1024 * 1024;

/** Requests processed at once (their bodies read) before further ones get 429. */
export const DEFAULT_MAX_IN_FLIGHT = 32;

/** Bytes all requests in flight may hold together before further ones get 429. */
export const DEFAULT_BODY_BUDGET = 64 * 1024 * 1024;

/** What a request that arrives (or is still waiting) while serve stops is told. */
const STOPPING = 'routescope serve is shutting down';

/** The Retry-After (seconds) of a 429 or 503. */
export const RETRY_AFTER_SECONDS = 1;

/** How the receiver runs. */
export interface ReceiverOptions {
  readonly runtime: ServeRuntime;
  readonly token?: string;
  readonly maxBody?: number;
  readonly maxInFlight?: number;
  readonly bodyBudget?: number;
  readonly out?: OutFile;
  readonly forward?: Forwarder;
  /** Who may send at all (requestGuard): checked before anything else. */
  readonly guard?: RequestGuard;
  /** The slowest a body may arrive (readRequestBody's defaults otherwise). */
  readonly bodyRate?: ReadBodyOptions;
  /** The `/metrics` body. */
  readonly metrics: () => string;
  /** One line of what went wrong (stderr). */
  readonly log: (line: string) => void;
}

/** The request handler, and what `close` needs. */
export interface OtlpReceiver {
  handle(req: IncomingMessage, res: ServerResponse): void;
  /**
   * From now on answer 503 (the server is closing), and wait for the requests in flight, at most `deadlineMs`;
   * those still waiting then are answered 503 (not kept).
   */
  drain(deadlineMs?: number): Promise<void>;
  readonly inFlight: number;
}

const TRACE_PATH = '/v1/traces';
const IGNORED_PATHS = new Set(['/v1/metrics', '/v1/logs']);
const EVENTS_PATH = '/agentfootprint/events';
const METRICS_PATH = '/metrics';
const HEALTH_PATH = '/healthz';

export { EVENT_LOG_TYPES } from './receiverAnswers.js';

/** Create the receiver. */
export function createOtlpReceiver(options: ReceiverOptions): OtlpReceiver {
  const { runtime, log } = options;
  const counts = runtime.state.counts;
  const maxBody = options.maxBody ?? DEFAULT_MAX_BODY;
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const budget = createBodyBudget(options.bodyBudget ?? DEFAULT_BODY_BUDGET);
  let inFlight = 0;
  // Of those, the ones past reading their body, which `maxInFlight` bounds.
  let processing = 0;
  // The responses of the requests in flight, for a stop whose deadline passes before they are answered.
  const open = new Map<ServerResponse, OtlpEncoding>();
  let closing = false;
  let idle: (() => void) | undefined;
  let requestNumber = 0;

  const answer = (
    res: ServerResponse,
    status: number,
    encoding: OtlpEncoding,
    body: Buffer,
    extra: Record<string, string> = {},
  ): void => {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, {
      'content-type': OTLP_CONTENT_TYPES[encoding],
      'content-length': String(body.length),
      ...extra,
    });
    res.end(body);
  };
  const refuse = (
    res: ServerResponse,
    status: number,
    encoding: OtlpEncoding,
    code: number,
    message: string,
    extra: Record<string, string> = {},
  ): void => {
    counts.requests.refused++;
    runtime.touch();
    answer(res, status, encoding, statusResponse(encoding, code, message), extra);
  };
  const retryLater = { 'retry-after': String(RETRY_AFTER_SECONDS) };

  const authorized = (req: IncomingMessage): boolean =>
    options.token === undefined || hasBearerToken(req, options.token);

  async function take(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const type = contentTypeOf(req);
    const encoding: OtlpEncoding = type === OTLP_CONTENT_TYPES.protobuf ? 'protobuf' : 'json';
    if (!authorized(req)) {
      return refuse(
        res,
        401,
        encoding,
        RPC_CODE.unauthenticated,
        'a bearer token is required (Authorization: Bearer <--token>)',
        {
          'www-authenticate': 'Bearer',
        },
      );
    }
    const kind = payloadKindOf(path === EVENTS_PATH, type);
    if (kind === undefined) {
      counts.requests.invalid++;
      runtime.touch();
      const wanted =
        path === EVENTS_PATH ? EVENT_LOG_TYPES.join(', ') : 'application/json or application/x-protobuf';
      return answer(
        res,
        415,
        'json',
        statusResponse(
          'json',
          RPC_CODE.invalidArgument,
          `Content-Type '${type.slice(0, 60)}' is not read here: send ${wanted}`,
        ),
      );
    }
    if (closing) return refuse(res, 503, encoding, RPC_CODE.unavailable, STOPPING, retryLater);
    const admission = options.out?.admit() ?? 'ok';
    if (admission !== 'ok')
      return refuse(
        res,
        503,
        encoding,
        RPC_CODE.unavailable,
        admission === 'busy'
          ? '--out is writing behind (the disk is slower than what arrives): retry shortly'
          : `--out cannot be written (${options.out!.failing ?? 'a write failed'}): retry shortly`,
        retryLater,
      );
    inFlight++;
    open.set(res, encoding);
    let held = 0;
    let slot = false;
    try {
      // Reading a body takes no slot (its bytes count against the shared budget, its pace against the minimum
      // rate): a sender that trickles cannot keep real exporters out.
      const body = await readRequestBody(req, maxBody, budget, options.bodyRate);
      const full = (): void =>
        refuse(
          res,
          429,
          encoding,
          RPC_CODE.resourceExhausted,
          'the receiver holds as many bytes as it takes at once: retry shortly',
          retryLater,
        );
      if (body.kind === 'busy') return full();
      if (body.kind === 'aborted') {
        counts.requests.invalid++;
        runtime.touch();
        return;
      }
      if (body.kind !== 'ok') {
        const refusal = describeBodyRefusal(body, maxBody);
        log(`POST ${path}: ${refusal.log}`);
        if (refusal.refused)
          return refuse(res, refusal.status, encoding, refusal.code, refusal.reason, refusal.headers);
        counts.requests.invalid++;
        runtime.touch();
        return answer(res, refusal.status, encoding, statusResponse(encoding, refusal.code, refusal.reason));
      }
      held = body.held;
      if (processing >= maxInFlight)
        return refuse(
          res,
          429,
          encoding,
          RPC_CODE.resourceExhausted,
          `${maxInFlight} requests are being processed: retry shortly`,
          retryLater,
        );
      processing++;
      slot = true;
      if (IGNORED_PATHS.has(path)) {
        counts.requests.ignored++;
        runtime.touch();
        return finish(req, res, path, encoding, body.wire, 0, undefined);
      }
      const label = `POST ${path} #${++requestNumber}`;
      const invalid = (reason: string, status = 400): void => {
        counts.requests.invalid++;
        runtime.touch();
        log(`${label}: ${reason}`);
        answer(res, status, encoding, statusResponse(encoding, RPC_CODE.invalidArgument, reason));
      };
      // One reading decides everything: nothing is counted or kept until the body is, whole. The `--out` line
      // is made first (a protobuf body that cannot be one is refused before it is decoded at all).
      const line = options.out === undefined ? undefined : await outLineOf(kind, body.body, maxBody);
      if (line?.kind === 'too-large') return invalid(line.reason, 413);
      if (line?.kind === 'invalid') return invalid(line.reason);
      const outcome = await ingestPayload(kind, body.body, label, runtime.ingest);
      if (outcome.kind === 'invalid') return invalid(outcome.reason);
      const { reading } = outcome;
      if (options.out !== undefined && line !== undefined) {
        // A line made anew (protobuf as JSON) is held until written: it counts against the bytes in flight.
        if (line.made > 0) {
          if (!budget.take(line.made)) return full();
          held += line.made;
        }
        try {
          await options.out.write(line.parts, reading.items);
        } catch (error) {
          return refuse(
            res,
            503,
            encoding,
            RPC_CODE.unavailable,
            `${(error as Error).message}: retry shortly`,
            retryLater,
          );
        }
      }
      // Answered already: the stop's deadline passed while the line waited for the disk (503, not kept).
      if (res.headersSent) return;
      const kept = reading.commit();
      counts.requests.accepted++;
      counts.wireBytes += body.wireBytes;
      counts.items += kept.items;
      counts.rejectedItems += kept.rejected;
      runtime.take(kept.records);
      if (kept.rejected > 0) log(`${label}: ${kept.rejected} not read: ${kept.message ?? ''}`);
      return finish(req, res, path, encoding, body.wire, kept.rejected, kept.message);
    } finally {
      budget.give(held);
      if (slot) processing--;
      inFlight--;
      open.delete(res);
      if (inFlight === 0) idle?.();
    }
  }

  /** Queue for `--forward`, answer 200. */
  function finish(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    encoding: OtlpEncoding,
    wire: Buffer,
    rejected: number,
    message: string | undefined,
  ): void {
    const accepted = acceptedAnswer(req, path === EVENTS_PATH, encoding, rejected, message);
    // The wire bytes are passed on as they came: gzip stays gzip.
    options.forward?.enqueue(path, wire, accepted.forwardHeaders);
    answer(res, 200, accepted.encoding, accepted.body);
  }

  return {
    handle(req, res) {
      const path = (req.url ?? '/').split('?')[0]!;
      const refusal = options.guard?.check(req, req.method !== 'GET' && req.method !== 'HEAD');
      if (refusal !== undefined) {
        counts.requests.refused++;
        runtime.touch();
        req.resume();
        return answer(
          res,
          refusal.status,
          'json',
          statusResponse('json', RPC_CODE.permissionDenied, refusal.reason),
          { connection: 'close' },
        );
      }
      if (path === METRICS_PATH || path === HEALTH_PATH)
        return answerRead(req, res, path === METRICS_PATH ? 'metrics' : 'health', {
          authorized: authorized(req),
          metrics: options.metrics,
          outFailing: options.out?.failing,
          counts: counts.requests,
        });
      const known = path === TRACE_PATH || path === EVENTS_PATH || IGNORED_PATHS.has(path);
      if (!known) {
        counts.requests.invalid++;
        runtime.touch();
        req.resume();
        return answer(
          res,
          404,
          'json',
          statusResponse(
            'json',
            RPC_CODE.unimplemented,
            `no route ${escapeControlChars(path.slice(0, 80))}: OTLP/HTTP traces go to ${TRACE_PATH}, event logs to ${EVENTS_PATH}; Prometheus reads ${METRICS_PATH}`,
          ),
        );
      }
      if (req.method !== 'POST') {
        counts.requests.invalid++;
        runtime.touch();
        req.resume();
        return answer(
          res,
          405,
          'json',
          statusResponse('json', RPC_CODE.unimplemented, `${path} takes POST`),
          { allow: 'POST' },
        );
      }
      take(req, res, path).catch((error: unknown) => {
        log(`POST ${path}: ${(error as Error).message}`);
        counts.requests.invalid++;
        answer(
          res,
          500,
          'json',
          statusResponse('json', 13, 'routescope serve failed on this request; see its stderr'),
        );
      });
    },
    async drain(deadlineMs = Infinity) {
      closing = true;
      if (inFlight === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        idle = resolve;
        if (Number.isFinite(deadlineMs)) timer = setTimeout(resolve, deadlineMs);
      });
      clearTimeout(timer);
      // Still in flight at the deadline (a line waiting for a disk that does not take it): refused, not kept.
      for (const [res, encoding] of open) {
        counts.requests.refused++;
        answer(res, 503, encoding, statusResponse(encoding, RPC_CODE.unavailable, STOPPING), retryLater);
      }
    },
    get inFlight() {
      return inFlight;
    },
  };
}
