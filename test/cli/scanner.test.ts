/**
 * `--scanner` and the report's word on which path read — the shipped executable on the demo's traces: the
 * WebAssembly SIMD scanner by default (and in each --jobs thread), the JavaScript one when asked for or when
 * the runtime has no WebAssembly (`node --jitless`, a real runtime without it), and the exact walk; every path
 * gives the same report but for `input.scan`, and the text report's input section says which read.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemoAgent } from '../../src/demo/runDemoAgent.js';
import { requireBuild } from '../helpers/requireBuild.js';
import { cli } from './runCliHarness.js';

const BIN = join(import.meta.dirname, '../../dist/bin/routescope.js');
const FIXTURES = join(import.meta.dirname, '../fixtures');
/** The shared fixtures beside the repository (CI has them). */
const SHARED = join(import.meta.dirname, '../../../shared/fixtures');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function shipped(argv: readonly string[], nodeFlags: readonly string[] = []): Run {
  const r = spawnSync(process.execPath, [...nodeFlags, BIN, ...argv], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

interface Scan {
  path: string;
  simdLines: number;
  javascriptLines: number;
  simdUnavailable: string | null;
}

/** A JSON report that ran to exit 0, split into its scan path and the rest. */
function splitScan(r: Run, what: string): { scan: Scan; rest: unknown } {
  expect(r.code, `${what}: ${r.stderr}`).toBe(0);
  const parsed = JSON.parse(r.stdout) as { input: { scan: Scan } };
  const { scan, ...input } = parsed.input;
  return { scan, rest: { ...parsed, input } };
}

/** The shipped executable's JSON report of `argv`, split into its scan path and the rest. */
function report(argv: readonly string[], nodeFlags: readonly string[] = []): { scan: Scan; rest: unknown } {
  return splitScan(shipped(['analyze', ...argv, '--format', 'json'], nodeFlags), argv.join(' '));
}

let dir: string;
let traces: string;
let lines: number;

beforeAll(async () => {
  requireBuild(BIN);
  dir = mkdtempSync(join(tmpdir(), 'routescope-scanner-'));
  traces = join(dir, 'traces.jsonl');
  await runDemoAgent({ path: traces });
  // A folder of three copies, for the threads (each file a unit of its own).
  mkdirSync(join(dir, 'three'));
  for (const name of ['a', 'b', 'c']) copyFileSync(traces, join(dir, 'three', `${name}.jsonl`));
  lines = (
    JSON.parse(shipped(['analyze', traces, '--format', 'json']).stdout) as { input: { lines: number } }
  ).input.lines;
  expect(lines).toBeGreaterThan(0);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('--scanner and input.scan', () => {
  it('reads with the SIMD scanner by default, every line of the Collector shape indexed by it', () => {
    const { scan } = report([traces]);
    expect(scan).toEqual({ path: 'simd', simdLines: lines, javascriptLines: 0, simdUnavailable: null });
  });

  it('--scanner javascript, --exact-read and a runtime without WebAssembly: the same report, each path named', () => {
    const simd = report([traces]);
    const javascript = report([traces, '--scanner', 'javascript']);
    expect(javascript.scan).toEqual({
      path: 'javascript',
      simdLines: 0,
      javascriptLines: lines,
      simdUnavailable: 'the JavaScript scanner was asked for (--scanner javascript)',
    });
    expect(javascript.rest).toEqual(simd.rest);
    const exact = report([traces, '--exact-read']);
    expect(exact.scan).toEqual({ path: 'exact', simdLines: 0, javascriptLines: 0, simdUnavailable: null });
    expect(exact.rest).toEqual(simd.rest);
    const jitless = report([traces], ['--jitless']);
    expect(jitless.scan).toEqual({
      path: 'javascript',
      simdLines: 0,
      javascriptLines: lines,
      simdUnavailable: 'this runtime has no WebAssembly',
    });
    expect(jitless.rest).toEqual(simd.rest);
  });

  it('each --jobs thread loads its own scanner: the threads index every line, as one thread does', () => {
    const folder = join(dir, 'three');
    const one = report([folder]);
    const two = report([folder, '--jobs', '2', '--jobs-min-mib', '0']);
    expect(one.scan).toEqual({
      path: 'simd',
      simdLines: 3 * lines,
      javascriptLines: 0,
      simdUnavailable: null,
    });
    expect(two.scan).toEqual(one.scan);
    expect(two.rest).toEqual(one.rest);
  });

  it('the text report says which path read, and why not SIMD when it did not', () => {
    expect(shipped(['analyze', traces]).stdout).toMatch(
      new RegExp(`scanned +WebAssembly SIMD scanner, ${lines} lines\\n`),
    );
    expect(shipped(['analyze', traces], ['--jitless']).stdout).toMatch(
      new RegExp(`scanned +JavaScript scanner, ${lines} lines \\(this runtime has no WebAssembly\\)\\n`),
    );
    expect(shipped(['analyze', traces, '--exact-read']).stdout).toMatch(
      /scanned +every byte of every line walked \(--exact-read\)\n/,
    );
  });

  it('every fixture: the same report by each path (in-process, the sources)', async () => {
    const fixtures = [
      traces,
      join(FIXTURES, 'trace/public/otlp-proto-example-trace.json'),
      join(FIXTURES, 'trace/public/jaeger-ui-01.json'),
      join(FIXTURES, 'agentfootprint/turn-routed-null-scores.jsonl'),
      ...['framework-otel-otlp.json', 'framework-otel-turn_routed.jsonl', 'turn_routed.jsonl'].map((name) =>
        join(SHARED, 'agentfootprint', name),
      ),
      ...['jaeger-ui-01.json', 'otlp-proto-example-trace.json'].map((name) => join(SHARED, 'public', name)),
    ];
    let simdLines = 0;
    for (const file of fixtures) {
      const runs = await Promise.all(
        [[], ['--scanner', 'javascript'], ['--exact-read']].map((extra) =>
          cli(['analyze', file, '--format', 'json', ...extra]),
        ),
      );
      const reports = runs.map((r) => splitScan(r, file));
      expect(reports[1]!.rest, file).toEqual(reports[0]!.rest);
      expect(reports[2]!.rest, file).toEqual(reports[0]!.rest);
      expect(reports[1]!.scan.simdLines + reports[2]!.scan.simdLines).toBe(0);
      simdLines += reports[0]!.scan.simdLines;
    }
    // The demo's lines are in the Collector's shape: the SIMD scanner read them.
    expect(simdLines).toBeGreaterThanOrEqual(lines);
  });

  it('--scanner takes simd or javascript; anything else is a usage error naming both', () => {
    const r = shipped(['analyze', traces, '--scanner', 'avx']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--scanner must be simd or javascript, got 'avx'/);
  });
});
