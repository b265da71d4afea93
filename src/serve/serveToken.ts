/**
 * serveToken — whether a request carries serve's `--token`. The receiver and the live page judge it alike,
 * comparing in constant time, so how long a refusal takes says nothing of how much of a guess was right.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** `given` is `token` (compared in constant time). */
export function isServeToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The request's `Authorization` header is `Bearer <token>` (the scheme's name in any case, as RFC 9110 has it). */
export function hasBearerToken(req: IncomingMessage, token: string): boolean {
  const match = /^bearer[ \t]+(.*)$/is.exec(String(req.headers.authorization ?? ''));
  return match !== null && isServeToken(match[1]!.trim(), token);
}
