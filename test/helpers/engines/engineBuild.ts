/**
 * engineBuild — the real engines' binaries for the ops-kit tests: the Collector that
 * collector-config/otelcol-builder.yaml describes and Jaeger v2, built from the Go module proxy by
 * test/setup/build-engines.mjs into .cache/engines/ (ignored by git) the first time a test asks, and reused after.
 * Fails, never skips, without Go: a skipped engine test would let a broken kit pass.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../setup/build-engines.mjs', import.meta.url));

/** One built engine. */
export interface BuiltEngine {
  readonly name: 'otelcol' | 'jaeger';
  readonly binary: string;
  /** The release it is (the Collector's, or Jaeger's own). */
  readonly version: string;
}

const built = new Map<string, BuiltEngine>();

/** An engine's binary, built first when this checkout has none yet (a cold build takes minutes). */
export function engine(name: 'otelcol' | 'jaeger'): BuiltEngine {
  const known = built.get(name);
  if (known !== undefined) return known;
  const r = spawnSync(process.execPath, [SCRIPT, name], {
    encoding: 'utf8',
    timeout: 45 * 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.error || r.status !== 0)
    throw new Error(`building ${name} failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stderr}`);
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  const parsed = JSON.parse(line) as BuiltEngine;
  built.set(name, parsed);
  return parsed;
}

/** Run the build script with extra arguments (e.g. --check-components); its exit status and what it printed. */
export function runBuildScript(args: readonly string[]): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], {
    encoding: 'utf8',
    timeout: 45 * 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}
