/**
 * receiverAnswers — the receiver's answers but the flow of a request: `GET /metrics` and `GET /healthz`, what a
 * body that could not be read is answered (408 too slow, 413 too large, 415 an unknown encoding, 400 damaged
 * gzip) with the line its log gets, and the 200 of a request taken (OTLP's partial success, or the event-log
 * route's count) with the headers `--forward` passes on. Pure but for writing the answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PayloadKind } from './ingestPayload.js';
import type { BodyOutcome } from './readRequestBody.js';
import { exportResponse, OTLP_CONTENT_TYPES, RPC_CODE, type OtlpEncoding } from './otlpResponses.js';

/** What a `GET` of the receiver's port needs to be answered. */
export interface ReadContext {
  readonly authorized: boolean;
  readonly metrics: () => string;
  /** Why `--out` cannot be written, while it cannot (`/healthz` is then 503). */
  readonly outFailing: string | undefined;
  readonly counts: { invalid: number; refused: number };
}

/** Answer `GET /metrics` (`what: 'metrics'`) or `GET /healthz` (`'health'`). */
export function answerRead(
  req: IncomingMessage,
  res: ServerResponse,
  what: 'metrics' | 'health',
  ctx: ReadContext,
): void {
  req.resume();
  const path = what === 'metrics' ? '/metrics' : '/healthz';
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    ctx.counts.invalid++;
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
    res.end(`${path} takes GET\n`);
    return;
  }
  if (!ctx.authorized) {
    ctx.counts.refused++;
    res.writeHead(401, { 'www-authenticate': 'Bearer', 'content-type': 'text/plain; charset=utf-8' });
    res.end('a bearer token is required (Authorization: Bearer <--token>)\n');
    return;
  }
  const failing = what === 'health' ? ctx.outFailing : undefined;
  const text =
    what === 'metrics'
      ? ctx.metrics()
      : failing === undefined
        ? 'ok\n'
        : `--out cannot be written (${failing}): requests are answered 503 until a write succeeds again\n`;
  res.writeHead(failing === undefined ? 200 : 503, {
    'content-type':
      what === 'metrics' ? 'text/plain; version=0.0.4; charset=utf-8' : 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : text);
}

/** How a body that could not be read is answered: refused (load, size: counted as refused) or invalid. */
export interface BodyRefusal {
  readonly status: number;
  readonly code: number;
  readonly reason: string;
  /** Counted as refused (the sender may retry or shrink it) rather than invalid. */
  readonly refused: boolean;
  readonly headers: Record<string, string>;
  /** The receiver's log line (after `POST <path>: `). */
  readonly log: string;
}

/** The answer to a body that is too slow, too large, in an unknown encoding or damaged. */
export function describeBodyRefusal(
  body: Extract<BodyOutcome, { kind: 'too-slow' | 'too-large' | 'bad-encoding' | 'damaged' }>,
  maxBody: number,
): BodyRefusal {
  switch (body.kind) {
    case 'too-slow':
      return {
        status: 408,
        code: RPC_CODE.unavailable,
        reason: `the body came slower than ${body.rate} bytes a second`,
        refused: true,
        headers: { connection: 'close' },
        log: `a body slower than ${body.rate} bytes a second was cut off (408)`,
      };
    case 'too-large': {
      const gz = body.stage === 'gzip' ? ' once decompressed' : '';
      return {
        status: 413,
        code: RPC_CODE.invalidArgument,
        reason: `the body is over ${maxBody} bytes${gz} (--max-body)`,
        refused: true,
        headers: { connection: 'close' },
        log: `a body over --max-body ${maxBody} bytes${gz} was refused (413)`,
      };
    }
    case 'bad-encoding':
    case 'damaged':
      return {
        status: body.kind === 'damaged' ? 400 : 415,
        code: RPC_CODE.invalidArgument,
        reason: body.reason,
        refused: false,
        headers: {},
        log: body.reason,
      };
  }
}

/** The 200 of a request taken, and the headers a forwarded copy carries (its type and encoding, as they came). */
export function acceptedAnswer(
  req: IncomingMessage,
  eventLog: boolean,
  encoding: OtlpEncoding,
  rejected: number,
  message: string | undefined,
): { encoding: OtlpEncoding; body: Buffer; forwardHeaders: Record<string, string> } {
  const forwardHeaders: Record<string, string> = {
    'content-type': String(req.headers['content-type'] ?? OTLP_CONTENT_TYPES[encoding]),
  };
  const contentEncoding = req.headers['content-encoding'];
  if (contentEncoding !== undefined) forwardHeaders['content-encoding'] = String(contentEncoding);
  if (!eventLog) return { encoding, body: exportResponse(encoding, rejected, message), forwardHeaders };
  const count = { rejectedLines: rejected, ...(message === undefined ? {} : { errorMessage: message }) };
  return { encoding: 'json', body: Buffer.from(JSON.stringify(count)), forwardHeaders };
}

/**
 * The content types an event log is taken in. None is one a web page may post without asking first (a CORS
 * "simple" request: text/plain, a form, no type), so no page of another site can post one.
 */
export const EVENT_LOG_TYPES: readonly string[] = [
  'application/x-ndjson',
  'application/jsonl',
  'application/json',
];

/** The request's media type, lower case, without parameters. */
export function contentTypeOf(req: IncomingMessage): string {
  return String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
}

/** What a body of media type `type` is read as, on the event-log route or the traces one; undefined: 415. */
export function payloadKindOf(eventLog: boolean, type: string): PayloadKind | undefined {
  if (eventLog) return EVENT_LOG_TYPES.includes(type) ? 'event-log' : undefined;
  if (type === OTLP_CONTENT_TYPES.json) return 'otlp-json';
  if (type === OTLP_CONTENT_TYPES.protobuf) return 'otlp-protobuf';
  return undefined;
}
