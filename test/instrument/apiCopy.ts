/**
 * apiCopy — a real second copy of @opentelemetry/api on disk, as an app's own copy would be (npm link, a `file:`
 * dependency, a monorepo package, a bundle).
 *
 * The installed package is copied file by file into a temporary `node_modules`, its version rewritten (in
 * package.json and in the `VERSION` each build reads), and loaded with `createRequire`: a module instance of its
 * own, with its own ProxyTracerProvider, that meets the installed copy only through the API's versioned global
 * (`Symbol.for('opentelemetry.js.api.<major>')` on globalThis), read by a copy that accepts the writer's version.
 * `saveApiGlobals` / `restore` keep each test's registrations from leaking into the next.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The API as the app's copy exports it. */
export type OtelApi = typeof import('@opentelemetry/api');

/** A loaded copy and where it lives; `remove` deletes its files. */
export interface ApiCopy {
  readonly api: OtelApi;
  readonly version: string;
  remove(): void;
}

const require = createRequire(import.meta.url);
// The package allows no `package.json` subpath: its main entry is build/src/index.js.
const INSTALLED = join(dirname(require.resolve('@opentelemetry/api')), '..', '..');

/** The installed copy's version (the one routescope's source resolves). */
export const INSTALLED_API_VERSION = (
  JSON.parse(readFileSync(join(INSTALLED, 'package.json'), 'utf8')) as { version: string }
).version;

/** Copy the installed @opentelemetry/api to a temporary directory as `version`, and load it. */
export function loadApiCopy(version: string): ApiCopy {
  const root = mkdtempSync(join(tmpdir(), 'routescope-otel-api-'));
  const dir = join(root, 'node_modules', '@opentelemetry', 'api');
  cpSync(INSTALLED, dir, { recursive: true });
  const manifest = join(dir, 'package.json');
  const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  writeFileSync(manifest, JSON.stringify({ ...pkg, version }, null, 2));
  for (const build of ['build/src/version.js', 'build/esm/version.js', 'build/esnext/version.js']) {
    const file = join(dir, build);
    const code = readFileSync(file, 'utf8');
    const patched = code.replace(`VERSION = '${INSTALLED_API_VERSION}'`, `VERSION = '${version}'`);
    if (patched === code) throw new Error(`${build} does not set VERSION = '${INSTALLED_API_VERSION}'`);
    writeFileSync(file, patched);
  }
  const api = createRequire(join(root, 'app.js'))('@opentelemetry/api') as OtelApi;
  return { api, version, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** A version of the same major as the installed one, with the given change of minor and patch. */
export function sameMajor(minorDelta: number, patch: number): string {
  const [major, minor] = INSTALLED_API_VERSION.split('.').map(Number) as [number, number];
  return `${major}.${minor + minorDelta}.${patch}`;
}

/** A version of the next major. */
export function nextMajor(): string {
  return `${Number(INSTALLED_API_VERSION.split('.')[0]) + 1}.0.0`;
}

const globalSlots = globalThis as unknown as Record<symbol, unknown>;

/** Take the API's globals (every major's slot) off globalThis until `restore` puts them back. */
export function saveApiGlobals(): { restore: () => void } {
  const keys = [0, 1, 2, 3].map((major) => Symbol.for(`opentelemetry.js.api.${major}`));
  const saved = keys.map((key) => [key, globalSlots[key]] as const);
  for (const key of keys) delete globalSlots[key];
  return {
    restore: () => {
      for (const [key, value] of saved) {
        if (value === undefined) delete globalSlots[key];
        else globalSlots[key] = value;
      }
    },
  };
}
