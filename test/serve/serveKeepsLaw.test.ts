/**
 * The law of serve's answers (fast-check; the seed is printed on failure): for any sequence of requests — valid
 * JSON and protobuf, resent, truncated, damaged gzip, a protobuf whose `--out` line cannot be made, one from
 * another site, two at once — every routing span of a request answered 2xx is in the window and in `--out`, and
 * no span that only refused requests carried is anywhere. Real sockets, a real serve per run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import { createReadStats } from '../../src/trace/readStats.js';
import { propertyRuns } from '../helpers/propertyRuns.js';
import { routingRequests, withDeepPlainSpan, type RoutingRequest } from './routingRequests.js';
import { startTestServe } from './serveHarness.js';

let pool: RoutingRequest[];
beforeAll(async () => {
  pool = await routingRequests(6, 1);
});

type Sent = 'json' | 'protobuf' | 'truncated' | 'bad-gzip' | 'deep' | 'foreign';
interface Step {
  readonly sent: Sent;
  readonly request: number;
  /** Sent together with the next step. */
  readonly together: boolean;
}

async function send(endpoint: string, step: Step): Promise<number> {
  const request = pool[step.request]!;
  const json = { 'content-type': 'application/json' };
  const protobuf = { 'content-type': 'application/x-protobuf' };
  const [body, headers]: [Buffer | string, Record<string, string>] =
    step.sent === 'json'
      ? [request.json, json]
      : step.sent === 'protobuf'
        ? [request.protobuf, protobuf]
        : step.sent === 'truncated'
          ? [request.json.slice(0, request.json.length - 7), json]
          : step.sent === 'bad-gzip'
            ? [gzipSync(request.json).subarray(0, 30), { ...json, 'content-encoding': 'gzip' }]
            : step.sent === 'deep'
              ? [withDeepPlainSpan(request, 40), protobuf]
              : [request.json, { ...json, origin: 'http://evil.example' }];
  const response = await fetch(`${endpoint}/v1/traces`, { method: 'POST', body, headers });
  await response.arrayBuffer();
  return response.status;
}

describe('serve: a 2xx means kept', () => {
  it('law: every span of a 2xx request is in the window and in --out; no span only refused requests carried is anywhere (fast-check)', async () => {
    const step = fc.record({
      sent: fc.constantFrom<Sent>('json', 'protobuf', 'truncated', 'bad-gzip', 'deep', 'foreign'),
      request: fc.integer({ min: 0, max: 5 }),
      together: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const dir = mkdtempSync(join(tmpdir(), 'rs-serve-law-'));
        const out = join(dir, 'out.jsonl');
        const serve = await startTestServe({ out });
        const kept = new Set<string>();
        const carried = new Set<string>();
        try {
          for (let i = 0; i < steps.length; i++) {
            const group = [steps[i]!];
            while (steps[i]!.together && i + 1 < steps.length) group.push(steps[++i]!);
            const statuses = await Promise.all(group.map((s) => send(serve.endpoint, s)));
            group.forEach((s, k) => {
              const spanId = pool[s.request]!.spanId;
              carried.add(spanId);
              const status = statuses[k]!;
              if (status >= 200 && status < 300) kept.add(spanId);
              const expected =
                s.sent === 'json' || s.sent === 'protobuf' ? 200 : s.sent === 'foreign' ? 403 : 400;
              expect(status, `${s.sent} of request ${s.request}`).toBe(expected);
            });
          }
          const inWindow = new Set<string>();
          for (const r of serve.runtime.window.records()) if (r.kind === 'decision') inWindow.add(r.spanId);
          expect(inWindow).toEqual(kept);
          expect(serve.runtime.state.counts.decisionsReceived).toBe(kept.size);
        } finally {
          await serve.close();
        }
        const inFile = new Set<string>();
        for await (const r of readTraceInputs([out], createReadStats()))
          if (r.kind === 'decision') inFile.add(r.spanId);
        rmSync(dir, { recursive: true, force: true });
        expect(inFile).toEqual(kept);
        for (const spanId of carried) if (!kept.has(spanId)) expect(inFile.has(spanId)).toBe(false);
      }),
      { numRuns: propertyRuns(25) },
    );
  });
});
