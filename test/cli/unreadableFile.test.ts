/**
 * One file in a folder that cannot be opened: the rest is read, the file is named in the report's problems
 * and on stderr, and `--fail-on problems` fails. Opening is made to fail with EACCES for that one path (a
 * mode of 000 does not stop root, who runs CI in containers); every other call is the real one.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTempDir, writeTraceFile } from '../helpers/traceFiles.js';
import { cli, cliJson } from './runCliHarness.js';

const locked = vi.hoisted(() => ({ path: '' }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    open: (path: Parameters<typeof real.open>[0], ...rest: [string?]) => {
      if (String(path) === locked.path) {
        return Promise.reject(
          Object.assign(new Error(`EACCES: permission denied, open '${locked.path}'`), { code: 'EACCES' }),
        );
      }
      return real.open(path, ...rest);
    },
  };
});

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

describe('a folder with one file that cannot be opened', () => {
  it('with --jobs 1 and 2: the rest is read; the file is in problems and on stderr; --fail-on problems fails', async () => {
    const { dir, cleanup } = makeTempDir();
    cleanups.push(cleanup);
    await writeTraceFile(join(dir, 'a.jsonl'), [{ scores: [{ id: 'billing', score: 0.9 }] }]);
    await writeTraceFile(join(dir, 'c.jsonl'), [{ scores: [{ id: 'refunds', score: 0.8 }] }]);
    locked.path = join(dir, 'b.jsonl');
    writeFileSync(locked.path, '{}\n');
    for (const jobs of ['1', '2']) {
      const args = ['analyze', dir, '--jobs', jobs, '--jobs-min-mib', '0'];
      const r = await cliJson(args);
      expect(r.code).toBe(0);
      expect(r.json.decisions).toBe(2);
      expect((r.json.input as { skipped: unknown[] }).skipped).toEqual([
        {
          file: locked.path,
          line: 0,
          kind: 'unreadable',
          reason:
            'permission denied. Make it readable for this user, or copy it. Skipped; the other files were read',
        },
      ]);
      expect(r.stderr).toBe(
        `routescope: ${locked.path}: permission denied. Make it readable for this user, or copy it. Skipped; the other files were read\n`,
      );
      const gated = await cli([...args, '--fail-on', 'problems']);
      expect(gated.code).toBe(1);
      expect(gated.stderr).toContain('routescope: gate failed: problems: the read reported 1 problems');
    }
  });

  it('named on its own, it is still an input error (exit 2)', async () => {
    const { dir, cleanup } = makeTempDir();
    cleanups.push(cleanup);
    locked.path = join(dir, 'b.jsonl');
    writeFileSync(locked.path, '{}\n');
    const r = await cli(['analyze', locked.path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${locked.path}: permission denied`);
  });
});
