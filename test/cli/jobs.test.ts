/**
 * --jobs N — the same report as --jobs 1: same records in the same order, same stats, same problems at the
 * same lines, duplicates caught across files and across the parts of one cut file.
 *
 * The reader is compared directly (readInParallel against readTraceInputs) with parts cut small, so every
 * boundary case of the split lands inside a test-sized file: bad lines, blank lines, a duplicate line in a
 * later part, a file without a final newline. Units run on this thread here (the TypeScript sources have no
 * compiled worker script); the last test runs the built CLI with real worker threads when `dist/` has them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInThreadRunner, readInParallel } from '../../src/trace/parallel/readInParallel.js';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import { createReadStats } from '../../src/trace/readStats.js';
import type { ReadStats } from '../../src/trace/types.js';
import type { TraceRecord } from '../../src/record/types.js';
import { makeTempDir, writeTraceFile, type DecisionSpanSpec } from '../helpers/traceFiles.js';
import { requireBuild } from '../helpers/requireBuild.js';
import { cli } from './runCliHarness.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

const temp = makeTempDir('routescope-jobs-');
afterAll(() => temp.cleanup());

function specs(count: number, seed: number): DecisionSpanSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    scores: [
      { id: 'billing', score: ((i * 37 + seed) % 100) / 100 },
      { id: 'refunds', score: ((i * 53 + seed) % 100) / 100 },
      { id: 'shipping', score: ((i * 71 + seed) % 100) / 100 },
    ],
    ...(i % 3 === 0 ? { incumbent: 'billing' } : {}),
    conversationId: `conv-${seed}-${i % 4}`,
  }));
}

let lines: string[] = [];
beforeAll(async () => {
  const source = join(temp.dir, 'source.jsonl');
  await writeTraceFile(source, specs(40, 7), { spansPerLine: 3, plainSpans: 30 });
  lines = readFileSync(source, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
});

async function readAll(
  inputs: string[],
  jobs: number,
  splitMinBytes?: number,
): Promise<{ records: TraceRecord[]; stats: ReadStats }> {
  const stats = createReadStats();
  const records: TraceRecord[] = [];
  const stream =
    jobs === 1
      ? readTraceInputs(inputs, stats)
      : readInParallel(inputs, stats, {
          jobs,
          runner: createInThreadRunner(),
          parallelMinBytes: 0,
          ...(splitMinBytes === undefined ? {} : { splitMinBytes }),
        });
  for await (const r of stream) records.push(r);
  return { records, stats };
}

/** A file made of good lines, bad ones, blanks and repeats, in the order given. */
const pieceArb = fc.oneof(
  { weight: 6, arbitrary: fc.nat(1000).map((n) => ({ kind: 'good' as const, n })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'cut' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'garbage' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'blank' as const }) },
  // Routing lines off the workers' scan-and-hand-over path: a routing span whose tokens do not parse (read
  // whole in the worker, a bad line), one the scan declines (escaped key, read whole in the worker), and one
  // whose span misses its verdict (its problem found on the main thread, among the workers' problems).
  { weight: 1, arbitrary: fc.nat(1000).map((n) => ({ kind: 'broken' as const, n })) },
  { weight: 1, arbitrary: fc.nat(1000).map((n) => ({ kind: 'escaped' as const, n })) },
  { weight: 1, arbitrary: fc.nat(1000).map((n) => ({ kind: 'incomplete' as const, n })) },
);

const VERDICT_KEY = '"agentfootprint.routing.verdict"';
const EDITS: Readonly<Record<string, (line: string) => string>> = {
  broken: (line) =>
    line.replace(`${VERDICT_KEY},"value":{"stringValue":"`, `${VERDICT_KEY},"value":{"stringValue":"\\x`),
  escaped: (line) => line.replace(VERDICT_KEY, '"agentfootprint.routing.\\u0076erdict"'),
  incomplete: (line) => line.replace(VERDICT_KEY, '"agentfootprint.routing.verdicts"'),
};

function render(pieces: ReadonlyArray<{ kind: string; n?: number }>, finalNewline: boolean): string {
  const text = pieces
    .map((p) => {
      const line = lines[(p.n ?? 0) % lines.length]!;
      if (p.kind === 'good') return line;
      if (p.kind === 'cut') return line.slice(0, line.length >> 1);
      if (p.kind === 'garbage') return '!! not json';
      const edit = EDITS[p.kind];
      if (edit !== undefined) return edit(line);
      return '   ';
    })
    .join('\n');
  return finalNewline ? `${text}\n` : text;
}

describe('--jobs: same records and stats as one reader', () => {
  it('the edited lines are what they claim: a bad line, the same records, a problem', async () => {
    const routing = lines.find((l) => l.includes(VERDICT_KEY))!;
    const read = async (line: string): Promise<{ records: TraceRecord[]; stats: ReadStats }> => {
      const file = join(temp.dir, 'edited.jsonl');
      writeFileSync(file, `${line}\n`);
      return readAll([file], 1);
    };
    const good = await read(routing);
    expect(good.records.length).toBeGreaterThan(0);
    expect((await read(EDITS.broken!(routing))).stats.problems).toEqual([
      expect.objectContaining({ line: 1, kind: 'bad-line' }),
    ]);
    expect((await read(EDITS.escaped!(routing))).records).toEqual(good.records);
    const incomplete = await read(EDITS.incomplete!(routing));
    expect(incomplete.stats.problems.length).toBeGreaterThan(0);
    expect(incomplete.stats.problems[0]).not.toMatchObject({ kind: 'bad-line' });
  });

  it('any mix of good, bad, blank and repeated lines, cut into small parts (fast-check)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(pieceArb, { minLength: 1, maxLength: 40 }),
        fc.array(pieceArb, { maxLength: 10 }),
        fc.boolean(),
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 1000, max: 20_000 }),
        async (big, small, finalNewline, jobs, splitMinBytes) => {
          const dir = join(temp.dir, `case-${run++}`);
          const { mkdirSync } = await import('node:fs');
          mkdirSync(dir);
          writeFileSync(join(dir, 'a-big.jsonl'), render(big, finalNewline));
          if (small.length > 0) writeFileSync(join(dir, 'b-small.jsonl'), render(small, true));
          const one = await readAll([dir], 1);
          const many = await readAll([dir], jobs, splitMinBytes);
          expect(many.stats).toEqual(one.stats);
          expect(many.records).toEqual(one.records);
        },
      ),
      { numRuns: propertyRuns(40) },
    );
  });

  it('a file cut into parts really is cut, and a repeat in a later part is a duplicate', async () => {
    const file = join(temp.dir, 'repeats.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n${lines.join('\n')}\n`);
    const one = await readAll([file], 1);
    const many = await readAll([file], 3, 2000);
    expect(one.stats.duplicates).toBeGreaterThan(0);
    expect(many.stats).toEqual(one.stats);
    expect(many.records).toEqual(one.records);
  });

  it('the CLI gives the same JSON report with --jobs 2 as with --jobs 1', async () => {
    const dir = join(temp.dir, 'cli');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir);
    await writeTraceFile(join(dir, '1.jsonl'), specs(12, 1), { extraLines: ['{"resourceSpans":[{'] });
    await writeTraceFile(join(dir, '2.jsonl'), specs(12, 2), { plainSpans: 5 });
    writeFileSync(join(dir, '3.jsonl'), readFileSync(join(dir, '1.jsonl')));
    const one = await cli(['analyze', dir, '--format', 'json']);
    const two = await cli(['analyze', dir, '--format', 'json', '--jobs', '2', '--jobs-min-mib', '0']);
    expect(one.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    expect(JSON.parse(one.stdout).decisions).toBe(24);
  });

  it('inputs under --jobs-min-mib in all are read on one thread; from it, by the threads', async () => {
    const file = join(temp.dir, 'threshold.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const size = readFileSync(file).length;
    let units = 0;
    const counting = createInThreadRunner();
    const runner = {
      ...counting,
      run: (unit: Parameters<typeof counting.run>[0]) => (units++, counting.run(unit)),
    };
    const read = async (parallelMinBytes: number | undefined): Promise<ReadStats> => {
      const stats = createReadStats();
      const options = {
        jobs: 2,
        runner,
        splitMinBytes: 2000,
        ...(parallelMinBytes === undefined ? {} : { parallelMinBytes }),
      };
      for await (const r of readInParallel([file], stats, options)) void r;
      return stats;
    };
    const one = (await readAll([file], 1)).stats;
    expect(await read(undefined)).toEqual(one);
    expect(units).toBe(0);
    expect(await read(size + 1)).toEqual(one);
    expect(units).toBe(0);
    expect(await read(size)).toEqual(one);
    expect(units).toBeGreaterThan(1);
  });

  it('--jobs-min-mib must be a whole number from 0', async () => {
    const r = await cli(['analyze', join(temp.dir, 'repeats.jsonl'), '--jobs', '2', '--jobs-min-mib', '-1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--jobs-min-mib must be a whole number from 0/);
  });

  it('--jobs must be a whole number from 1', async () => {
    const r = await cli(['analyze', join(temp.dir, 'repeats.jsonl'), '--jobs', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--jobs must be a whole number from 1/);
  });

  const bin = join(import.meta.dirname, '../../dist/bin/routescope.js');
  const worker = join(import.meta.dirname, '../../dist/bin/readWorker.js');
  // `npm run test:all` builds first; without a build this fails with a message saying to build, never skips.
  it('the built CLI with real worker threads gives the same report', () => {
    requireBuild(bin, worker);
    const dir = join(temp.dir, 'cli');
    const run = (jobs: string): string => {
      const r = spawnSync(
        process.execPath,
        [bin, 'analyze', dir, '--format', 'json', '--jobs', jobs, '--jobs-min-mib', '0'],
        {
          encoding: 'utf8',
        },
      );
      expect(r.status).toBe(0);
      return r.stdout;
    };
    expect(run('2')).toBe(run('1'));
  });
});
