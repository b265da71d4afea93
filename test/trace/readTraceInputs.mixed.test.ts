/**
 * The reader's accounting law: a JSON-lines input mixing N good routing requests with M damaged lines
 * (truncated routing or plain requests, binary garbage, wrong shapes) yields exactly the N requests' records
 * and exactly M problems, each at its line — whatever the order and chunking.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { createReadStats } from '../../src/trace/readStats.js';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import type { TraceRecord } from '../../src/record/types.js';
import { recordPlainSpans, recordScenario, toOtlpJson, type Scenario } from './traceScenario.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

let scenario: Scenario;
let routing: string;
let plain: string;
const RECORDS = 7;

beforeAll(async () => {
  scenario = await recordScenario();
  routing = toOtlpJson(scenario.spans);
  plain = toOtlpJson(await recordPlainSpans(5));
});

function withFreshTraceIds(text: string): string {
  const fresh = new Map<string, string>();
  return text.replace(/"traceId":"([0-9a-f]{32})"/g, (_m, id: string) => {
    if (!fresh.has(id)) fresh.set(id, randomBytes(16).toString('hex'));
    return `"traceId":"${fresh.get(id)!}"`;
  });
}

type Item = { kind: 'good' } | { kind: 'plain' } | { kind: 'bad'; make: (seed: number) => string };

const damage = fc.constantFrom<(seed: number) => string>(
  (seed) => routing.slice(0, 1 + (seed % (routing.length - 1))),
  (seed) => plain.slice(0, 1 + (seed % (plain.length - 1))),
  (seed) =>
    Buffer.from(randomBytes(50 + (seed % 200)).map((b) => (b === 0x0a ? 0x80 : b | 0x80))).toString('latin1'),
  () => '{"resourceSpans":5}',
  () => '{"agentfootprint.routing.verdict":"stay"}',
  () => '[1,2,3]',
);

const item: fc.Arbitrary<Item> = fc.oneof(
  fc.constant<Item>({ kind: 'good' }),
  fc.constant<Item>({ kind: 'plain' }),
  damage.map((make): Item => ({ kind: 'bad', make })),
);

type Case = ReadonlyArray<readonly [Item, number]>;

/** The law on one input: `items` one a line, fed in chunks of `chunk` bytes. */
async function checkAccounting(items: Case, chunk: number): Promise<void> {
  const lines = items.map(([it, seed]) =>
    it.kind === 'good' ? withFreshTraceIds(routing) : it.kind === 'plain' ? plain : it.make(seed),
  );
  const data = Buffer.from(lines.join('\n') + '\n', 'latin1');
  const chunks: Buffer[] = [];
  for (let at = 0; at < data.length; at += chunk) chunks.push(data.subarray(at, at + chunk));
  const stats = createReadStats();
  const records: TraceRecord[] = [];
  const reading = readTraceInputs(['-'], stats, { stdin: Readable.from(chunks) });
  if (!lines.some((l) => l.startsWith('{') || l.startsWith('['))) {
    // Nothing in it opens like JSON: not a trace input at all.
    if (lines.length > 0) await expect(reading.next()).rejects.toThrow(/not JSON|unknown format/);
    return;
  }
  for await (const r of reading) records.push(r);

  const good = items.filter(([it]) => it.kind === 'good').length;
  const plainLines = items.filter(([it]) => it.kind === 'plain').length;
  const badAt = items.flatMap(([it], i) => (it.kind === 'bad' ? [i + 1] : []));
  expect(records).toHaveLength(good * RECORDS);
  expect(stats.problems.map((p) => p.line)).toEqual(badAt);
  expect(stats.problems.every((p) => p.kind === 'bad-line')).toBe(true);
  expect(stats.spans).toBe(good * scenario.spans.length + plainLines * 5);
}

it('law: N good routing requests and M damaged lines → N × records and M problems, at their lines', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(item, fc.nat()), { maxLength: 14 }),
      fc.integer({ min: 1, max: 4096 }),
      checkAccounting,
    ),
    { numRuns: propertyRuns(60) },
  );
});

// Found by fast-check (seed 647003295): `{\n{\n` was sniffed as a pretty-printed document and, failing to
// parse, reported once at line 0. Text opening with `{` that is not one document is JSON lines.
it('counterexample: two damaged lines that are each "{" are two problems, at lines 1 and 2', async () => {
  const cutToOneByte: Item = {
    kind: 'bad',
    make: (seed) => routing.slice(0, 1 + (seed % (routing.length - 1))),
  };
  expect(cutToOneByte.make(0)).toBe('{');
  await checkAccounting(
    [
      [cutToOneByte, 0],
      [cutToOneByte, 0],
    ],
    1,
  );
});

it('a line cut short, then binary garbage: two problems at their lines, not one for a "document"', async () => {
  const cut: Item = { kind: 'bad', make: () => routing.slice(0, 200) };
  const garbage: Item = { kind: 'bad', make: () => '\u00ff\u00fe\u0080\u00c1'.repeat(20) };
  await checkAccounting(
    [
      [cut, 0],
      [garbage, 0],
    ],
    4096,
  );
});
