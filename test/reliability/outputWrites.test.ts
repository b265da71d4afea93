/**
 * Output that cannot be written is never lost in silence (issue 31, item 4): the shipped CLI in a child process
 * writing its report to a full device (/dev/full), to a nearly full disk (a small tmpfs), and the demo writing
 * its trace file to a full and to a read-only file system. Every failed or short write is exit 2 with one line
 * saying what could not be written where, as the user's situation, no stack trace, and nothing claims success.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../helpers/requireBuild.js';
import { mountSmallDisk, type SmallDisk } from '../helpers/smallDisk.js';

const BIN = join(import.meta.dirname, '../../dist/bin/routescope.js');
const FIXTURE = join(import.meta.dirname, '../../../shared/fixtures/agentfootprint/turn_routed.jsonl');

/** Run the shipped CLI with stdout on `fd` (or a pipe). */
function run(
  args: readonly string[],
  stdoutFd?: number,
): { code: number | null; stdout: string; stderr: string } {
  requireBuild(BIN);
  const r = spawnSync(process.execPath, [BIN, ...args], {
    stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

describe('a report to a full device', () => {
  it.skipIf(!existsSync('/dev/full'))(
    '/dev/full: exit 2, one line naming standard output and ENOSPC, no stack trace',
    () => {
      const fd = openSync('/dev/full', 'w');
      try {
        const r = run(['analyze', FIXTURE, '--format', 'json'], fd);
        expect(r.code).toBe(2);
        expect(r.stderr).toBe(
          'routescope: could not write to standard output: no space left on the device (ENOSPC); the output is incomplete\n',
        );
      } finally {
        closeSync(fd);
      }
    },
  );

  it('the same report into a pipe: whole, exit 0', () => {
    const r = run(['analyze', FIXTURE, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty('decisions');
  });
});

// Whether a tmpfs can be mounted here (root); where not, the tests that need one are skipped and this says why.
const probe = mountSmallDisk(4);
const cannotMount = typeof probe === 'string' ? probe : (probe.unmount(), undefined);
const canMount = (): boolean => cannotMount === undefined;
if (cannotMount !== undefined) console.warn(`outputWrites: skipping the small-disk tests: ${cannotMount}`);

describe('on a small file system', () => {
  const disks: SmallDisk[] = [];
  let full: SmallDisk | string;
  let readOnly: SmallDisk | string;
  beforeAll(() => {
    full = mountSmallDisk(16);
    readOnly = mountSmallDisk(16, { readOnly: true });
    for (const d of [full, readOnly]) if (typeof d !== 'string') disks.push(d);
  });
  afterAll(() => {
    for (const d of disks) d.unmount();
  });
  const dirOf = (d: SmallDisk | string): string => {
    if (typeof d === 'string') throw new Error(d);
    return d.dir;
  };

  it.skipIf(!canMount())(
    'a report redirected to a nearly full disk: cut short is exit 2, never invalid output with 0',
    () => {
      const dir = dirOf(full);
      // Leave 4 KiB free, then write an HTML report of some 18 KiB into what is left.
      writeFileSync(join(dir, 'filler'), Buffer.alloc(12 * 1024));
      const out = join(dir, 'report.html');
      const fd = openSync(out, 'w');
      try {
        const r = run(['analyze', FIXTURE, '--format', 'html'], fd);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(
          'could not write to standard output: no space left on the device (ENOSPC)',
        );
        expect(r.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
      } finally {
        closeSync(fd);
      }
      expect(readFileSync(out, 'utf8').endsWith('</html>\n')).toBe(false);
    },
  );

  it.skipIf(!canMount())(
    'demo --out on a full disk: exit 2, the file named, ENOSPC, no "traces written", nothing analyzed',
    () => {
      const r = run(['demo', '--out', join(dirOf(full), 'demo')]);
      expect(r.code).toBe(2);
      expect(r.stdout).not.toContain('traces written');
      expect(r.stdout).not.toContain('routing decisions');
      expect(r.stderr).toMatch(
        /^routescope: could not write the demo's traces to \S+traces\.jsonl: no space left on the device \(ENOSPC\); the file is incomplete, and nothing was analyzed\n$/,
      );
    },
  );

  it.skipIf(!canMount())(
    'demo --out on a read-only file system: exit 2, worded as the situation (EROFS)',
    () => {
      const r = run(['demo', '--out', dirOf(readOnly)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('the file system is read-only (EROFS)');
      expect(r.stderr).not.toContain('unexpected error');
    },
  );
});
