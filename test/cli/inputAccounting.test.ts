/**
 * Every input accounted for, through runCli: an input with no span is an input error, spans without a routing
 * span are said so in every format, a gate over no decision fails unless --allow-empty, and a FIFO in a
 * folder is listed under skipped, with why (an unreadable file: unreadableFile.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_FOLDER_DEPTH } from '../../src/trace/listInputFiles.js';
import { makeTempDir, writeTraceFile, type DecisionSpanSpec } from '../helpers/traceFiles.js';
import { cli, cliJson } from './runCliHarness.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

function tempDir(): string {
  const { dir, cleanup } = makeTempDir();
  cleanups.push(cleanup);
  return dir;
}

const DECISIONS: DecisionSpanSpec[] = [
  {
    scores: [
      { id: 'billing', score: 0.9 },
      { id: 'refunds', score: 0.2 },
    ],
  },
  {
    scores: [
      { id: 'billing', score: 0.5 },
      { id: 'refunds', score: 0.49 },
    ],
  },
];

describe('no silent zero: an input with no span at all is an input error (exit 2)', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['an empty file', '', /1 file with nothing in it \(empty, or blank lines only\)/],
    ['a file of blank lines', '\n\n  \r\n\n', /nothing in it/],
    ['JSON that is not a trace', '{"hello":"world"}\n', /found keys "hello"/],
    [
      'a Tempo search response on one line',
      '{"traces":[{"traceID":"0af7651916cd43dd8448eb211c80319c","rootServiceName":"desk","startTimeUnixNano":"1"}]}\n',
      /Tempo search result holds no full spans/,
    ],
    [
      'spans markers in JSON that is not a trace',
      '{"x":{"startTimeUnixNano":"1","operationName":"y"}}\n',
      /not a trace export/,
    ],
  ];
  for (const [what, content, why] of cases) {
    it(`${what}: exit 2, what was found and what was expected`, async () => {
      const file = join(tempDir(), 'input.json');
      writeFileSync(file, content);
      const r = await cli(['analyze', file]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`${file}: no span found:`);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).toContain('Expected trace spans: routescope reads OTLP/JSON');
    });
  }

  it('an empty standard input too', async () => {
    const r = await cli(['analyze', '-'], { stdinText: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('-: no span found');
  });
});

describe('spans but no routing span: exit 0, and every format says so', () => {
  async function plainOnly(): Promise<string> {
    const file = join(tempDir(), 'plain.jsonl');
    await writeTraceFile(file, [], { plainSpans: 6 });
    return file;
  }
  const SENTENCE = /no routing span was found among 6 spans: is the routescope instrumentation on/;

  for (const format of ['text', 'markdown', 'html']) {
    it(format, async () => {
      const r = await cli(['analyze', await plainOnly(), '--format', format]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(SENTENCE);
    });
  }

  it('json: input.notice holds the sentence; null when routing spans were found', async () => {
    const r = await cliJson(['analyze', await plainOnly()]);
    expect(r.code).toBe(0);
    expect((r.json.input as { notice: unknown }).notice).toMatch(SENTENCE);
    const file = join(tempDir(), 'routing.jsonl');
    await writeTraceFile(file, DECISIONS, { plainSpans: 2 });
    const withRouting = await cliJson(['analyze', file]);
    expect((withRouting.json.input as { notice: unknown }).notice).toBeNull();
  });
});

describe('a --fail-on gate over zero decisions', () => {
  async function plainOnly(): Promise<string> {
    const file = join(tempDir(), 'plain.jsonl');
    await writeTraceFile(file, [], { plainSpans: 3 });
    return file;
  }

  it('fails (exit 1) with one line saying nothing was judged', async () => {
    const r = await cli([
      'analyze',
      await plainOnly(),
      '--fail-on',
      'near-tie-rate>0.2',
      '--fail-on',
      'floorless',
    ]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toEqual([
      "routescope: gate failed: no routing decision was read, so 'near-tie-rate>0.2', 'floorless' judged nothing; pass --allow-empty if an input without decisions may pass",
    ]);
  });

  it('passes with --allow-empty', async () => {
    const r = await cli(['analyze', await plainOnly(), '--fail-on', 'near-tie-rate>0.2', '--allow-empty']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('hotspots and floorless gate the same way', async () => {
    const file = await plainOnly();
    expect((await cli(['hotspots', file, '--fail-on', 'menu-rate>0.5'])).code).toBe(1);
    expect((await cli(['floorless', file, '--fail-on', 'floorless', '--allow-empty'])).code).toBe(0);
  });
});

describe('no lost file: a folder entry that is not a regular file', () => {
  it('a FIFO among trace files: it is listed under skipped, with why, and nothing blocks', async () => {
    const dir = tempDir();
    await writeTraceFile(join(dir, 'a.jsonl'), DECISIONS);
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    mkdirSync(join(dir, 'sub'));
    const r = await cliJson(['analyze', dir]);
    expect(r.code).toBe(0);
    expect((r.json.input as { skipped: unknown[] }).skipped).toEqual([
      {
        file: fifo,
        line: 0,
        kind: 'unsupported',
        reason: expect.stringMatching(/^a FIFO \(named pipe\), not a regular file.*skipped$/),
      },
    ]);
    const text = await cli(['analyze', dir]);
    expect(text.stdout).toContain(`${fifo}: unsupported: a FIFO (named pipe)`);
    expect(text.stdout).not.toContain(`${fifo}:0`);
  });
});

describe('a tree of folders: read whole, and nothing in it passed over in silence (issue 31, item 6)', () => {
  it('sub-folders are read, links followed once, and every entry not read is a problem with why', async () => {
    const dir = tempDir();
    await writeTraceFile(join(dir, 'a.jsonl'), DECISIONS);
    mkdirSync(join(dir, 'day-1', 'service-x'), { recursive: true });
    await writeTraceFile(join(dir, 'day-1', 'b.jsonl'), DECISIONS);
    await writeTraceFile(join(dir, 'day-1', 'service-x', 'c.jsonl'), DECISIONS);
    await writeTraceFile(join(dir, '.hidden.jsonl'), DECISIONS);
    symlinkSync(join(dir, 'day-1'), join(dir, 'same-day'));
    symlinkSync(dir, join(dir, 'day-1', 'up'));
    symlinkSync(join(dir, 'nowhere'), join(dir, 'broken'));

    const r = await cliJson(['analyze', dir]);
    expect(r.code).toBe(0);
    expect(r.json.decisions).toBe(3 * DECISIONS.length);
    const skipped = (r.json.input as { skipped: Array<{ file: string; reason: string }> }).skipped;
    expect(skipped.map((s) => [s.file.slice(dir.length + 1), s.reason.split(':')[0]])).toEqual([
      ['.hidden.jsonl', 'a hidden entry (its name starts with a dot)'],
      ['broken', 'a link to something that does not exist'],
      [
        join('day-1', 'up'),
        'a folder already read, reached again through a link (a loop, or a second way in)',
      ],
      ['same-day', 'a folder already read, reached again through a link (a loop, or a second way in)'],
    ]);
    expect((r.json.input as { problems: number }).problems).toBe(4);
    const gated = await cli(['analyze', dir, '--fail-on', 'problems']);
    expect(gated.code).toBe(1);
  });

  it(`a folder nested deeper than ${MAX_FOLDER_DEPTH} is named, not read`, async () => {
    const dir = tempDir();
    let deep = dir;
    for (let i = 0; i <= MAX_FOLDER_DEPTH; i++) deep = join(deep, `d${i}`);
    mkdirSync(deep, { recursive: true });
    await writeTraceFile(join(deep, 'x.jsonl'), DECISIONS);
    await writeTraceFile(join(dir, 'top.jsonl'), DECISIONS);
    const r = await cliJson(['analyze', dir]);
    expect(r.json.decisions).toBe(DECISIONS.length);
    const skipped = (r.json.input as { skipped: Array<{ file: string; reason: string }> }).skipped;
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.reason).toMatch(new RegExp(`^a folder nested more than ${MAX_FOLDER_DEPTH} deep`));
  });

  it('a folder holding only hidden files: an input error naming one, not an empty report', async () => {
    const dir = tempDir();
    await writeTraceFile(join(dir, '.traces.jsonl'), DECISIONS);
    const r = await cli(['analyze', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('holds no trace files (only 1 entry not read, such as');
    expect(r.stderr).toContain('a hidden entry');
  });
});
