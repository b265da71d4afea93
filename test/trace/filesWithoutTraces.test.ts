/**
 * filesWithoutTraces.test — a file read without a bad line but holding no span and no event is named, as
 * skipped: empty, blank lines only, metrics or logs, JSON of nothing. Files that hold traces, events or a
 * problem of their own are not (a problem already names its file). The same with --jobs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInThreadRunner, readInParallel } from '../../src/trace/parallel/readInParallel.js';
import { createReadStats } from '../../src/trace/readStats.js';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import type { ReadStats } from '../../src/trace/types.js';
import { makeTempDir, writeTraceFile } from '../helpers/traceFiles.js';

const temp = makeTempDir('routescope-no-traces-');
afterAll(() => temp.cleanup());
const EVENT = JSON.stringify({
  type: 'agentfootprint.skill.turn_routed',
  payload: { by: 'entry', to: 'billing' },
  meta: { runId: 'run-1', wallClockMs: 1_796_000_000_000 },
});

beforeAll(async () => {
  const at = (name: string): string => join(temp.dir, name);
  await writeTraceFile(at('a-traces.jsonl'), [{ scores: [{ id: 'billing', score: 0.9 }] }]);
  writeFileSync(at('b-empty.jsonl'), '');
  writeFileSync(at('c-blank.jsonl'), '\n\n');
  writeFileSync(at('d-metrics.jsonl'), '{"resourceMetrics":[]}\n{"resourceLogs":[]}\n');
  writeFileSync(at('e-nothing.json'), '[]');
  writeFileSync(at('f-events.jsonl'), `${EVENT}\n`);
  writeFileSync(at('g-readme.md'), 'hello\n');
  writeFileSync(at('h-bad.jsonl'), '{"foo":1}\n');
});

async function read(jobs: number): Promise<ReadStats> {
  const stats = createReadStats();
  const stream =
    jobs === 1
      ? readTraceInputs([temp.dir], stats)
      : readInParallel([temp.dir], stats, { jobs, runner: createInThreadRunner(), parallelMinBytes: 0 });
  for await (const _ of stream) void _;
  return stats;
}

describe('files that hold no traces', () => {
  it.each([1, 2])('--jobs %i: each is named with why, in input order; the others are not', async (jobs) => {
    const stats = await read(jobs);
    const named = (file: string): string => join(temp.dir, file);
    expect(stats.filesWithoutTraces).toStrictEqual([
      {
        file: named('b-empty.jsonl'),
        reason: 'empty (or blank lines only): no span or event in it; skipped',
      },
      {
        file: named('c-blank.jsonl'),
        reason: 'empty (or blank lines only): no span or event in it; skipped',
      },
      {
        file: named('d-metrics.jsonl'),
        reason:
          '2 lines read and not one trace span or agentfootprint event in them (metrics or logs?); skipped',
      },
      {
        file: named('e-nothing.json'),
        reason: expect.stringMatching(
          /not one trace span or agentfootprint event in them \(metrics or logs\?\); skipped$/,
        ),
      },
    ]);
    expect(stats.filesWithoutTracesDropped).toBe(0);
    // The README and the bad line are problems, each naming its file already.
    expect(stats.problems.map((p) => p.file)).toStrictEqual([named('g-readme.md'), named('h-bad.jsonl')]);
  });
});
