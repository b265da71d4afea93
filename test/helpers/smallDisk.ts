/**
 * smallDisk — a real small or read-only file system for the tests of failed writes: a tmpfs mounted on a
 * temporary folder (`mount -t tmpfs -o size=…`), which fills up or refuses writes as a real disk does.
 *
 * Mounting needs root (CI and the developers' machines run as root). Where it cannot be done `mountSmallDisk`
 * says why instead, and the tests that need it are skipped with that reason.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A mounted tmpfs and how to take it away again. */
export interface SmallDisk {
  readonly dir: string;
  unmount(): void;
}

/** Mount a tmpfs of `sizeKiB` (read-only with `readOnly`) on a new temporary folder, or say why it cannot be. */
export function mountSmallDisk(sizeKiB: number, options: { readOnly?: boolean } = {}): SmallDisk | string {
  const dir = mkdtempSync(join(tmpdir(), 'routescope-small-disk-'));
  const opts = [`size=${sizeKiB}k`, ...(options.readOnly === true ? ['ro'] : [])].join(',');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return `cannot mount a tmpfs here (${stderr || (error as Error).message}): it needs root`;
  }
  return {
    dir,
    unmount: () => {
      execFileSync('umount', [dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
