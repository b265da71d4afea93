import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONVERSATIONS } from '../../src/demo/demoConversations.js';
import { createReadStats } from '../../src/trace/readStats.js';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import { cli } from '../cli/runCliHarness.js';
import type { CliRun } from '../cli/runCliHarness.js';

const turnCount = DEMO_CONVERSATIONS.reduce((n, c) => n + c.turns.length, 0);
let dir: string;
let json: CliRun;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'routescope-demo-cmd-'));
  json = await cli(['demo', '--out', join(dir, 'json'), '--format', 'json']);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface AnalyzeJson {
  decisions: number;
  nearTies: number;
  nearTieRate: number;
  hotspots: { router: string; scorer: string; pair: [string, string]; nearTies: number }[];
  floorless: { scorer: string; router: string; decisions: number }[];
  input: { problems: number; skipped: unknown[] };
}

describe('routescope demo --out DIR --format json', () => {
  it('exits 0 and prints the analyze JSON report on stdout, and only that', () => {
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as AnalyzeJson;
    expect(report.decisions).toBe(turnCount);
    expect(report.input.problems).toBe(0);
    expect(report.input.skipped).toEqual([]);
  });

  it('reports a floorless scorer and at least one hot spot, all out of the text', () => {
    const report = JSON.parse(json.stdout) as AnalyzeJson;
    expect(report.floorless.map((f) => `${f.router}/${f.scorer}`)).toEqual(['support-desk/embedding']);
    expect(report.hotspots.length).toBeGreaterThan(0);
    expect(report.hotspots[0]!.nearTies).toBeGreaterThan(1);
    expect(report.nearTieRate).toBeGreaterThanOrEqual(0.05);
    expect(report.nearTieRate).toBeLessThanOrEqual(0.3);
  });

  it('spreads the conversations over a simulated day, so charts over time have a day to draw', () => {
    const { timeRange } = JSON.parse(json.stdout) as { timeRange: { firstMs: number; lastMs: number } };
    expect(timeRange.lastMs - timeRange.firstMs).toBeGreaterThan(20 * 3_600_000);
    expect(timeRange.lastMs - timeRange.firstMs).toBeLessThanOrEqual(24 * 3_600_000);
  });

  it('keeps DIR/traces.jsonl, which readTraceInputs reads with zero problems', async () => {
    const file = join(dir, 'json', 'traces.jsonl');
    expect(existsSync(file)).toBe(true);
    const stats = createReadStats();
    let decisions = 0;
    for await (const r of readTraceInputs([file], stats)) if (r.kind === 'decision') decisions++;
    expect(stats.problems).toEqual([]);
    expect(decisions).toBe(turnCount);
  });

  it('says where the traces are and what to run next on stderr (stdout stays JSON)', () => {
    const file = join(dir, 'json', 'traces.jsonl');
    expect(json.stderr).toContain(`traces written to ${file}`);
    expect(json.stderr).toMatch(/npx routescope hotspots /);
    expect(json.stderr).toMatch(/npx routescope floorless /);
    expect(json.stderr).toMatch(/npx routescope explain [a-z]+-\d{3} /);
  });
});

describe('routescope demo (text)', () => {
  it('without --out writes into a new temp folder and prints the report, then the next steps', async () => {
    const run = await cli(['demo']);
    expect(run.code).toBe(0);
    const written = /traces written to (\S+traces\.jsonl) \(a new temp folder/.exec(run.stdout);
    expect(written).not.toBeNull();
    const file = written![1]!;
    try {
      expect(file.startsWith(tmpdir())).toBe(true);
      expect(existsSync(file)).toBe(true);
      // It says how to remove the folder it leaves.
      expect(run.stdout).toContain(`remove it with rm -r ${join(file, '..')} when done`);
      expect(run.stdout).toMatch(/routescope analyze — \d+ routing decisions/);
      const explain = /routescope explain (\S+) /.exec(run.stdout);
      expect(explain).not.toBeNull();
      // The suggested conversation really is in the file.
      expect(readFileSync(file, 'utf8')).toContain(`"stringValue":"${explain![1]!}"`);
    } finally {
      rmSync(join(file, '..'), { recursive: true, force: true });
    }
  });

  it('--out on an existing run rewrites the file instead of appending to it', async () => {
    const out = join(dir, 'twice');
    await cli(['demo', '--out', out, '--format', 'json']);
    const before = readFileSync(join(out, 'traces.jsonl'), 'utf8').split('\n').length;
    const again = await cli(['demo', '--out', out, '--format', 'json']);
    expect(again.code).toBe(0);
    expect(readFileSync(join(out, 'traces.jsonl'), 'utf8').split('\n').length).toBe(before);
    expect((JSON.parse(again.stdout) as AnalyzeJson).decisions).toBe(turnCount);
  });

  it('--format markdown passes through to the analyze report; the extra lines go to stderr', async () => {
    const run = await cli(['demo', '--out', join(dir, 'md'), '--format', 'markdown']);
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('# routescope analyze')).toBe(true);
    expect(run.stdout).not.toContain('traces written to');
    expect(run.stderr).toContain('traces written to');
  });

  it('refuses to write through a traces.jsonl that is a link (exit 2, the target untouched)', async () => {
    const out = join(dir, 'linked');
    mkdirSync(out);
    const target = join(dir, 'elsewhere.txt');
    writeFileSync(target, 'keep me');
    symlinkSync(target, join(out, 'traces.jsonl'));
    const run = await cli(['demo', '--out', out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/not a regular file/);
    expect(readFileSync(target, 'utf8')).toBe('keep me');
  });
});
