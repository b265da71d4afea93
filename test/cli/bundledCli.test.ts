/**
 * The shipped executable — dist/bin/routescope.js, the CLI bundled by rolldown (`npm run build`) — prints what
 * the CLI run in-process from the sources prints: help, version, usage errors, every command's report in
 * every format (each lazily loaded chunk: presenters, HTML renderers, readers), --jobs with its worker, and the
 * demo. `npm run test:all` builds first; without a build these tests fail with a message saying to build, never
 * skip: a skipped test would let a broken bundle pass.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { YOUNG_GENERATION_FLAG } from '../../src/cli/youngGeneration.js';
import { runDemoAgent } from '../../src/demo/runDemoAgent.js';
import { requireBuild } from '../helpers/requireBuild.js';
import { cli } from './runCliHarness.js';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'dist/bin/routescope.js');
/** What tsc alone builds (the bundle's input): run directly, it loads yargs from node_modules. */
const UNBUNDLED = join(ROOT, 'dist/cli/bin.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The bundled executable, as a user's shell runs it (no TTY; env as given, PATH kept for nothing else). */
function shipped(
  argv: readonly string[],
  env: Record<string, string> = {},
  bin = BIN,
  nodeFlags: readonly string[] = [],
): Run {
  const r = spawnSync(process.execPath, [...nodeFlags, bin, ...argv], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

let dir: string;
let traces: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'routescope-bundle-'));
  traces = join(dir, 'traces.jsonl');
  await runDemoAgent({ path: traces });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the bundled executable', () => {
  beforeAll(() => {
    requireBuild(BIN);
  });

  it('help and version read as in-process, in English whatever LANG says', async () => {
    for (const argv of [['--help'], ['analyze', '--help'], ['explain', '--help'], ['demo', '--help']]) {
      const expected = await cli(argv);
      expect(shipped(argv)).toEqual(expected);
      expect(shipped(argv, { LANG: 'de_DE.UTF-8', LC_ALL: 'fr_FR.UTF-8' })).toEqual(expected);
      // The unbundled build finds yargs' translations; English is chosen, not merely what is left.
      expect(shipped(argv, { LC_ALL: 'de_DE.UTF-8' }, UNBUNDLED)).toEqual(expected);
    }
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(shipped(['--version'])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('usage errors: same message, exit code 2', async () => {
    for (const argv of [['analyse', traces], ['analyze'], ['analyze', traces, '--jobs', '0'], []]) {
      const expected = await cli(argv);
      expect(expected.code).toBe(2);
      expect(shipped(argv)).toEqual(expected);
    }
  });

  it('every command in every format prints what the sources print', async () => {
    const commands = [
      ['analyze', traces],
      ['hotspots', traces],
      ['floorless', traces],
      ['explain', 'web-011', traces],
      ['replay', traces, '--margin', '0.3', '--list'],
      ['tune', traces],
      ['flapping', traces],
    ];
    for (const argv of commands) {
      for (const format of ['text', 'json', 'markdown', 'html']) {
        const full = [...argv, '--format', format];
        const expected = await cli(full);
        expect(expected.code, full.join(' ')).toBe(0);
        const got = shipped(full);
        expect(got.stderr, full.join(' ')).toBe(expected.stderr);
        expect(got.code, full.join(' ')).toBe(expected.code);
        expect(got.stdout, full.join(' ')).toBe(expected.stdout);
      }
    }
  });

  it('--jobs 2 starts its worker threads from the bundle and gives the --jobs 1 report', () => {
    const one = shipped(['analyze', traces, '--format', 'json']);
    const two = shipped(['analyze', traces, '--format', 'json', '--jobs', '2', '--jobs-min-mib', '0']);
    expect(one.code).toBe(0);
    expect(two).toEqual(one);
    expect((JSON.parse(one.stdout) as { decisions: number }).decisions).toBeGreaterThan(200);
  });

  it("keeps V8's young generation at its first size, unless the user sized it (a node flag or NODE_OPTIONS)", () => {
    // The flags the executable hands V8 at run time, seen through a preload that records them.
    const preload = join(dir, 'recordV8Flags.cjs');
    writeFileSync(
      preload,
      [
        "const v8 = require('node:v8');",
        'const set = v8.setFlagsFromString;',
        'const seen = [];',
        'v8.setFlagsFromString = (flag) => { seen.push(flag); set(flag); };',
        "require('node:module').syncBuiltinESMExports();",
        "process.on('exit', () => process.stderr.write('v8 flags set: ' + JSON.stringify(seen) + '\\n'));",
      ].join('\n'),
    );
    const flagsSet = (run: Run): string[] => {
      expect(run.code).toBe(0);
      return JSON.parse(/v8 flags set: (.*)/.exec(run.stderr)![1]!) as string[];
    };
    const summary = ['analyze', traces, '--format', 'json'];
    expect(flagsSet(shipped(summary, {}, BIN, ['--require', preload]))).toEqual([YOUNG_GENERATION_FLAG]);
    expect(
      flagsSet(shipped(summary, { NODE_OPTIONS: '--max-semi-space-size=8' }, BIN, ['--require', preload])),
    ).toEqual([]);
    expect(
      flagsSet(shipped(summary, {}, BIN, ['--semi-space-growth-factor=4', '--require', preload])),
    ).toEqual([]);
  });

  it('an unexpected error: with --verbose its stack names the TypeScript lines, without it no stack', () => {
    // A fault injected into what the policy calls (Math.tanh, the pairwise gap) on every decision replayed.
    const inject = ['--import', 'data:text/javascript,Math.tanh=()=>{throw new Error("injected fault")}'];
    const argv = ['analyze', traces, '--format', 'json'];
    const verbose = shipped([...argv, '--verbose'], {}, BIN, inject);
    expect(verbose.code).toBe(2);
    expect(verbose.stderr).toMatch(/^routescope: unexpected error: injected fault\n/);
    expect(verbose.stderr).toMatch(/at pairwiseGap \(.*src[\\/]policy[\\/]routingPolicy\.ts:\d+:\d+\)/);
    expect(verbose.stderr).not.toMatch(/dist[\\/]bin[\\/]/);
    const quiet = shipped(argv, {}, BIN, inject);
    expect(quiet.code).toBe(2);
    expect(quiet.stderr).toBe(
      'routescope: unexpected error: injected fault (run again with --verbose for the stack trace)\n',
    );
  });

  it('the demo runs (the OpenTelemetry SDK chunk loads) and its trace file reads as the in-process one', async () => {
    const out = join(dir, 'demo-out');
    const run = shipped(['demo', '--out', out, '--format', 'json']);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/error|warn/i);
    const report = JSON.parse(run.stdout) as { decisions: number; verdicts: Record<string, number> };
    const same = JSON.parse((await cli(['analyze', traces, '--format', 'json'])).stdout) as typeof report;
    expect(report.decisions).toBe(same.decisions);
    expect(report.verdicts).toEqual(same.verdicts);
  });
});
