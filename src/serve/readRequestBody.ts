/**
 * readRequestBody — a request's body as one buffer, never more than the limit, gzip undone.
 *
 * The limit holds twice: on the bytes on the wire (reading stops, and the rest is drained unread, as soon as
 * they pass it) and on the bytes gzip expands to (zlib's `maxOutputLength`), so a small compressed body
 * cannot grow into a large one. Encodings other than gzip and identity are refused by name: the OTLP/HTTP
 * exporters send one of those two. A shared `budget` bounds what all requests in flight hold together: a body
 * that would take it past its size is `busy` (the receiver's 429), its bytes given back at once; a body read
 * keeps its share (wire and decompressed bytes) until the caller gives it back. A body that trickles in (slower
 * than `minRate` once `graceMs` have passed) is cut off as `too-slow`, so a slow sender holds nothing for long.
 */
import type { IncomingMessage } from 'node:http';
import { gunzip } from 'node:zlib';

/** What reading a body gave. */
export type BodyOutcome =
  | {
      readonly kind: 'ok';
      /** The body, decompressed. */
      readonly body: Buffer;
      /** The bytes as they came over the wire (the same buffer when not compressed). */
      readonly wire: Buffer;
      readonly wireBytes: number;
    }
  | { readonly kind: 'too-large'; readonly limit: number; readonly stage: 'wire' | 'gzip' }
  /** A Content-Encoding other than gzip or none (415). */
  | { readonly kind: 'bad-encoding'; readonly reason: string }
  /** A gzip body that does not decompress: truncated, a bad CRC, not gzip at all (400). */
  | { readonly kind: 'damaged'; readonly reason: string }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'busy' }
  /** The body came slower than `rate` bytes a second after the grace (408). */
  | { readonly kind: 'too-slow'; readonly rate: number };

/** The slowest a body may arrive, in bytes a second, once MIN_RATE_GRACE_MS have passed. */
export const MIN_BODY_RATE = 1024;

/** How long a body may take before its rate is judged. */
export const MIN_RATE_GRACE_MS = 2000;

/** How a body is read besides its limit. */
export interface ReadBodyOptions {
  /** @default MIN_BODY_RATE */
  readonly minRate?: number;
  /** @default MIN_RATE_GRACE_MS */
  readonly graceMs?: number;
}

/** Bytes all requests in flight may hold together. */
export interface BodyBudget {
  /** Take `n` bytes; false (and nothing taken) when that would pass the budget. */
  take(n: number): boolean;
  give(n: number): void;
}

/** A budget of `bytes`. */
export function createBodyBudget(bytes: number): BodyBudget & { readonly held: number } {
  let held = 0;
  return {
    take(n) {
      if (held + n > bytes) return false;
      held += n;
      return true;
    },
    give(n) {
      held = Math.max(0, held - n);
    },
    get held() {
      return held;
    },
  };
}

/** What a body read holds of the budget (give it back when done). */
export type HeldBody = Extract<BodyOutcome, { kind: 'ok' }> & { readonly held: number };

/** Read `req`'s body up to `limit` bytes (before and after decompression). */
export async function readRequestBody(
  req: IncomingMessage,
  limit: number,
  budget?: BodyBudget,
  options: ReadBodyOptions = {},
): Promise<Exclude<BodyOutcome, { kind: 'ok' }> | HeldBody> {
  const encoding = String(req.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  if (encoding !== 'gzip' && encoding !== 'identity' && encoding !== '')
    return {
      kind: 'bad-encoding',
      reason: `Content-Encoding '${encoding.slice(0, 40)}' is not supported: send gzip or no encoding`,
    };
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return { kind: 'too-large', limit, stage: 'wire' };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let held = 0;
  const refuse = <T>(outcome: T): T => {
    budget?.give(held);
    held = 0;
    req.resume();
    return outcome;
  };
  const minRate = options.minRate ?? MIN_BODY_RATE;
  const grace = options.graceMs ?? MIN_RATE_GRACE_MS;
  const read = await new Promise<'ok' | 'aborted' | 'busy' | 'too-large' | 'too-slow'>((resolve) => {
    const started = Date.now();
    let settled = false;
    const settle = (how: 'ok' | 'aborted' | 'busy' | 'too-large' | 'too-slow'): void => {
      if (settled) return;
      settled = true;
      clearInterval(watch);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('aborted', onAbort);
      req.off('close', onClose);
      resolve(how);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) return settle('too-large');
      if (budget !== undefined) {
        if (!budget.take(chunk.length)) return settle('busy');
        held += chunk.length;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => settle('ok');
    const onAbort = (): void => settle('aborted');
    const onClose = (): void => {
      if (!req.complete) settle('aborted');
    };
    // A body trickling in slower than `minRate` after the grace is cut off: it would hold a socket and its
    // bytes for as long as the sender likes.
    const watch = setInterval(
      () => {
        const elapsed = Date.now() - started;
        if (elapsed > grace && size < (minRate * elapsed) / 1000) settle('too-slow');
      },
      Math.max(10, Math.min(500, grace / 4)),
    );
    watch.unref();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('aborted', onAbort);
    req.on('close', onClose);
  });
  if (read === 'too-large') return refuse({ kind: 'too-large', limit, stage: 'wire' });
  if (read === 'busy') return refuse({ kind: 'busy' });
  if (read === 'too-slow') return refuse({ kind: 'too-slow', rate: minRate });
  if (read === 'aborted') {
    budget?.give(held);
    return { kind: 'aborted' };
  }
  const wire = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
  if (encoding !== 'gzip') return { kind: 'ok', body: wire, wire, wireBytes: size, held };
  const inflated = await new Promise<Exclude<BodyOutcome, { kind: 'ok' }> | HeldBody>((resolve) => {
    gunzip(wire, { maxOutputLength: limit }, (error, body) => {
      if (error === null) resolve({ kind: 'ok', body, wire, wireBytes: size, held: 0 });
      else if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        resolve({ kind: 'too-large', limit, stage: 'gzip' });
      else
        resolve({
          kind: 'damaged',
          reason: `the gzip body could not be decompressed: ${error.message.slice(0, 120)}`,
        });
    });
  });
  if (inflated.kind !== 'ok') {
    budget?.give(held);
    return inflated;
  }
  if (budget !== undefined && !budget.take(inflated.body.length)) {
    budget.give(held);
    return { kind: 'busy' };
  }
  return { ...inflated, held: held + (budget === undefined ? 0 : inflated.body.length) };
}
