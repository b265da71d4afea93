/**
 * The README's install section, run as written on what a new user has: a clone of this repository (a local
 * `git clone` of the commit under test) and an app beside it. The block marked `<!-- install -->` runs in bash,
 * word for word: install and build the clone, pack it, install the package file into the app, and run its
 * executable there. The file name the README prints must be the one `npm pack` writes (the package's version).
 * Then the first hour's wall: a second build in the clone keeps `dist/bin/routescope.js` executable, and
 * `npx routescope --version` still runs there.
 *
 * It needs the package registry for the app's peer (`@opentelemetry/api`) and the clone's `npm ci` (CI reaches
 * it; both come from npm's cache once CI's own `npm ci` ran).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { npmFreeEnv } from '../helpers/node22.js';

const ROOT = join(import.meta.dirname, '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'routescope-readme-install-'));
});
afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

/** The README's block marked `<!-- install -->`, as written. */
function installBlock(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const m = /<!-- install -->\n```sh\n([\s\S]*?)^```$/m.exec(readme);
  if (m === null) throw new Error('README.md has no ```sh block marked <!-- install -->');
  return m[1]!;
}

function bash(script: string, cwd: string): { status: number | null; stdout: string; output: string } {
  const r = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
    cwd,
    encoding: 'utf8',
    timeout: 400_000,
    env: {
      ...npmFreeEnv(),
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    },
  });
  return {
    status: r.status,
    stdout: r.stdout,
    output: `${r.stdout}${r.stderr}${r.error ? String(r.error) : ''}`,
  };
}

it('the install section works as written from a clone, and a second build keeps the executable runnable', () => {
  const block = installBlock();
  // The package file the README names is the one npm pack writes for this version.
  expect(block).toContain(`routescope-${VERSION}.tgz`);
  const clone = spawnSync('git', ['clone', '--quiet', ROOT, join(scratch, 'routescope')], {
    encoding: 'utf8',
  });
  expect(clone.status, clone.stderr).toBe(0);
  mkdirSync(join(scratch, 'my-app'));
  writeFileSync(
    join(scratch, 'my-app/package.json'),
    '{ "name": "my-app", "private": true, "type": "module" }\n',
  );

  const run = bash(block, scratch);
  expect(run.status, run.output).toBe(0);
  expect(run.stdout.trim().split('\n').at(-1)).toBe(VERSION);
  const installed = JSON.parse(
    readFileSync(join(scratch, 'my-app/node_modules/routescope/package.json'), 'utf8'),
  ) as { version: string };
  expect(installed.version).toBe(VERSION);

  // The wall of the first hour: any second build used to leave the executable without its run bit.
  const again = bash('npm run build --silent && npx routescope --version', join(scratch, 'routescope'));
  expect(again.status, again.output).toBe(0);
  expect(again.stdout.trim().split('\n').at(-1)).toBe(VERSION);
  expect(statSync(join(scratch, 'routescope/dist/bin/routescope.js')).mode & 0o111).toBe(0o111);
}, 600_000);
