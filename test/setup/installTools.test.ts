/**
 * test/setup/install-tools.sh on a machine whose package manager is busy: it waits for the lock and installs,
 * instead of failing at once; a failure that is not the lock fails at once, with apt's words; a lock held past
 * the wait fails with them too. apt-get, id and sleep are stand-ins on PATH (the real install runs in CI).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, 'install-tools.sh');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A PATH of stand-ins: apt-get fails with `failure` the first `busy` calls, then succeeds; calls are logged. */
function machine(busy: number, failure: string): { bin: string; log: string } {
  const bin = mkdtempSync(join(tmpdir(), 'routescope-apt-'));
  dirs.push(bin);
  const log = join(bin, 'calls.log');
  const count = join(bin, 'count');
  writeFileSync(count, '0');
  const script = (name: string, body: string): void => {
    writeFileSync(join(bin, name), `#!/bin/bash\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  script(
    'apt-get',
    `n=$(cat ${count}); echo $((n + 1)) > ${count}; echo "apt-get $*" >> ${log}\n` +
      `if [ "$n" -lt ${busy} ]; then echo "${failure}" >&2; exit 100; fi; exit 0`,
  );
  script('id', 'echo 0');
  script('sleep', `echo "sleep $*" >> ${log}`);
  for (const tool of ['cat', 'grep', 'bash']) symlinkSync(`/bin/${tool}`, join(bin, tool));
  return { bin, log };
}

function run(bin: string, wait = '300'): { status: number | null; stderr: string } {
  const r = spawnSync('/bin/bash', [SCRIPT], {
    env: { PATH: bin, INSTALL_TOOLS_LOCK_WAIT: wait },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: r.status, stderr: r.stderr };
}

const LOCKED =
  'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1234 (unattended-upgr)';

it('waits while another apt holds the lock, then installs every missing tool', () => {
  const { bin, log } = machine(3, LOCKED);
  const r = run(bin);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toContain('another package manager holds the lock; waiting up to 300s');
  const calls = readFileSync(log, 'utf8').trim().split('\n');
  expect(calls.filter((c) => c.startsWith('sleep'))).toHaveLength(3);
  expect(calls.at(-1)).toBe(
    'apt-get -o DPkg::Lock::Timeout=30 install -y -qq --no-install-recommends zstd jq prometheus prometheus-alertmanager chromium',
  );
});

it('fails at once, with apt’s words, when the failure is not the lock', () => {
  const { bin, log } = machine(1, 'E: Unable to locate package chromium');
  const r = run(bin);
  expect(r.status).not.toBe(0);
  expect(r.stderr).toContain('E: Unable to locate package chromium');
  expect(readFileSync(log, 'utf8')).not.toContain('sleep');
});

it('gives up with apt’s words once the lock is held past the wait', () => {
  const { bin } = machine(1_000_000, LOCKED);
  const r = run(bin, '0');
  expect(r.status).not.toBe(0);
  expect(r.stderr).toContain('Could not get lock');
});

it('the README names every package the script installs, in its test command and its prose', () => {
  const packages = [...readFileSync(SCRIPT, 'utf8').matchAll(/need\+=\(([\w-]+)\)/g)].map((m) => m[1]!);
  expect(packages).toEqual(['zstd', 'jq', 'prometheus', 'prometheus-alertmanager', 'chromium']);
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
  const command = readme.split('\n').find((l) => l.startsWith('npm ci && npm run test:all'))!;
  for (const p of packages) {
    expect(command).toMatch(new RegExp(`\\b${p}\\b`));
    expect(readme.slice(readme.indexOf('Both run on a fresh machine'))).toMatch(new RegExp(`\\b${p}\\b`));
  }
});
