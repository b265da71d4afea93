/**
 * readRequestBody over a real HTTP server on port 0: any body, declared or chunked, gzipped or not, sent in any
 * pieces, comes back byte for byte; the shared budget is taken as bytes come and given back on every refusal.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBodyBudget,
  readRequestBody,
  type BodyBudget,
  type BodyOutcome,
} from '../../src/serve/readRequestBody.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

const LIMIT = 256 * 1024;

/** What the server does with the next request: read it with these settings and hand the outcome over. */
let next: { budget?: BodyBudget; limit: number; outcome: (o: BodyOutcome & { held?: number }) => void };
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    const { budget, limit, outcome } = next;
    void readRequestBody(req, limit, budget).then((o) => {
      outcome(o);
      res.end('done');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** POST `pieces` (written one by one), declaring their length or not; the outcome the server read. */
function send(
  pieces: readonly Buffer[],
  declare: boolean,
  options: { gzip?: boolean; budget?: BodyBudget; limit?: number } = {},
): Promise<BodyOutcome & { held?: number }> {
  return new Promise((resolve, reject) => {
    next = {
      limit: options.limit ?? LIMIT,
      outcome: resolve,
      ...(options.budget ? { budget: options.budget } : {}),
    };
    const length = pieces.reduce((n, p) => n + p.length, 0);
    const headers: Record<string, string | number> = { 'content-type': 'application/json' };
    if (declare) headers['content-length'] = length;
    if (options.gzip === true) headers['content-encoding'] = 'gzip';
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/traces', headers });
    req.on('response', (res) => res.resume());
    req.on('error', reject);
    void (async () => {
      for (const piece of pieces) {
        // Each piece its own write, flushed before the next, so the server sees them as separate chunks.
        await new Promise<void>((done) => req.write(piece, () => done()));
      }
      req.end();
    })();
  });
}

/** `bytes` cut at the given fractions (sorted, deduplicated). */
function cut(bytes: Buffer, at: readonly number[]): Buffer[] {
  const points = [...new Set(at.map((f) => Math.floor(f * bytes.length)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const p of points) {
    if (p > from) pieces.push(bytes.subarray(from, p));
    from = Math.max(from, p);
  }
  pieces.push(bytes.subarray(from));
  return pieces.filter((p) => p.length > 0);
}

describe('readRequestBody', () => {
  it('law: any body, declared or chunked, plain or gzipped, in any pieces, is read byte for byte (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 100_000 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        async (raw, at, declare, gzip) => {
          const body = Buffer.from(raw);
          const wire = gzip ? gzipSync(body) : body;
          const budget = createBodyBudget(LIMIT * 4);
          const got = await send(cut(wire, at), declare, { gzip, budget });
          expect(got.kind).toBe('ok');
          if (got.kind !== 'ok') return;
          expect(Buffer.compare(got.body, body)).toBe(0);
          expect(Buffer.compare(got.wire, wire)).toBe(0);
          expect(got.wireBytes).toBe(wire.length);
          // What it holds of the budget: the wire bytes, and the decompressed ones too when gzipped.
          expect(got.held).toBe(wire.length + (gzip ? body.length : 0));
          expect(budget.held).toBe(got.held);
        },
      ),
      { numRuns: propertyRuns(60) },
    );
  });

  it('a declared body past the budget is busy and gives back what it took', async () => {
    const budget = createBodyBudget(50_000);
    const body = Buffer.alloc(120_000, 0x61);
    for (const declare of [true, false]) {
      const got = await send(cut(body, [0.25, 0.5, 0.75]), declare, { budget });
      expect(got.kind).toBe('busy');
      expect(budget.held).toBe(0);
    }
  });

  it('declaring a length holds none of the budget: a body is refused only by the bytes that came', async () => {
    // Another request holds most of the budget; one of 30,000 declared bytes fits beside it only as they come.
    const budget = createBodyBudget(40_000);
    expect(budget.take(20_000)).toBe(true);
    const got = await send([Buffer.alloc(15_000, 0x62)], true, { budget });
    expect(got.kind).toBe('ok');
    expect(budget.held).toBe(35_000);
  });

  it('a body longer than the limit is too large, declared (before reading) or not (as it comes)', async () => {
    const body = Buffer.alloc(5_000, 0x63);
    for (const declare of [true, false]) {
      const budget = createBodyBudget(LIMIT);
      const got = await send(cut(body, [0.5]), declare, { limit: 4_000, budget });
      expect(got).toMatchObject({ kind: 'too-large', limit: 4_000, stage: 'wire' });
      expect(budget.held).toBe(0);
    }
  });
});
