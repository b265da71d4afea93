#!/usr/bin/env node
// build-engines.mjs — build the real engines the ops-kit tests run, from the Go module proxy, once per checkout.
//
//   node test/setup/build-engines.mjs [otelcol] [jaeger]      (no name: both)
//   node test/setup/build-engines.mjs otelcol --write-components
//
// otelcol: the Collector that collector-config/otelcol-builder.yaml describes, generated and compiled by the
// Collector's own builder (ocb) at the manifest's release. jaeger: Jaeger v2 (`cmd/jaeger` of
// github.com/jaegertracing/jaeger at JAEGER_MODULE_VERSION) built in a module of its own, the way a module that
// needs it as a tool would. Both land in .cache/engines/ (ignored by git) under a name made from what they were
// built from, so a changed manifest or version builds anew and an unchanged one is reused. Go's own caches (module
// and build) make a rebuild on a machine that built before mostly a link.
//
// Parallel test workers may ask at once: a lock folder makes one build and the others wait for it. Prints one
// JSON line per engine on stdout: { name, binary, version, seconds, cached }.
// --write-components: regenerate collector-config/components.json from the built binary's `components` command;
// --check-components: fail, saying what differs, when the file is not what the build says.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE = join(ROOT, '.cache', 'engines');
const MANIFEST = join(ROOT, 'collector-config', 'otelcol-builder.yaml');
const COMPONENTS = join(ROOT, 'collector-config', 'components.json');

/** Jaeger v2's Go module version: v1.75.0 is Jaeger 2.12.0 (its go.mod has replace directives: no `go install`). */
export const JAEGER_MODULE_VERSION = 'v1.75.0';
/** The Jaeger release that module version is. */
export const JAEGER_RELEASE = '2.12.0';
/** How long a waiting build polls another's lock before it gives up. */
const LOCK_WAIT_MS = 40 * 60_000;

function fail(message) {
  process.stderr.write(`build-engines: ${message}\n`);
  process.exit(1);
}

function goVersion() {
  const r = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' });
  if (r.error || r.status !== 0)
    fail(
      'go not found on PATH: the ops-kit tests build the Collector and Jaeger with Go (1.26 or later) from the ' +
        'Go module proxy. Install Go and run the tests again.',
    );
  return r.stdout.trim();
}

/** Run a command in `cwd`; on failure stop with everything it printed. */
function run(command, args, cwd, env = {}) {
  const r = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GOFLAGS: '-buildvcs=false', ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error || r.status !== 0)
    fail(
      `${command} ${args.join(' ')} (in ${cwd}) failed:\n${r.stdout ?? ''}${r.stderr ?? ''}${r.error ?? ''}`,
    );
  return r.stdout;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Hold the lock folder `lock` while `build` runs; wait while another process holds it. */
async function withLock(lock, build) {
  const deadline = Date.now() + LOCK_WAIT_MS;
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let owner = NaN;
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        // The owner made the folder and has not written its pid yet.
      }
      if (Number.isInteger(owner) && owner > 0 && !alive(owner)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline)
        fail(`waited ${LOCK_WAIT_MS / 60_000} min for ${lock} (held by pid ${owner})`);
      await sleep(500);
    }
  }
  try {
    return await build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The folder an engine is built in: its name and a digest of everything it is built from. */
function buildDir(name, inputs) {
  const digest = createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 12);
  return join(CACHE, `${name}-${digest}`);
}

/**
 * Remove the builds of `name` other than `keep` (a manifest or Go version that changed leaves the old one
 * behind: 85–120 MB each), but none that another process is building (its lock folder is there).
 */
function pruneOthers(name, keep) {
  for (const entry of readdirSync(CACHE)) {
    const path = join(CACHE, entry);
    if (!new RegExp(`^${name}-[0-9a-f]{12}$`).test(entry) || path === keep || existsSync(`${path}.lock`))
      continue;
    rmSync(path, { recursive: true, force: true });
  }
}

async function buildOtelcol() {
  const manifestText = readFileSync(MANIFEST, 'utf8');
  const manifest = YAML.parse(manifestText);
  const release = String(manifest.dist.version);
  const go = goVersion();
  const dir = buildDir('otelcol', [manifestText, go]);
  const binary = join(dir, manifest.dist.output_path, manifest.dist.name);
  const started = Date.now();
  const cached = existsSync(binary);
  if (!cached) {
    await withLock(`${dir}.lock`, async () => {
      if (existsSync(binary)) return;
      const tools = join(CACHE, 'tools', `builder-v${release}`);
      const builder = join(tools, 'builder');
      if (!existsSync(builder))
        run('go', ['install', `go.opentelemetry.io/collector/cmd/builder@v${release}`], ROOT, {
          GOBIN: tools,
        });
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'manifest.yaml'), manifestText);
      run(builder, ['--config', 'manifest.yaml'], dir);
      if (!existsSync(binary)) fail(`the builder finished but ${binary} is not there`);
      pruneOthers('otelcol', dir);
    });
  }
  return { name: 'otelcol', binary, version: release, seconds: (Date.now() - started) / 1000, cached };
}

async function buildJaeger() {
  const go = goVersion();
  const module = 'github.com/jaegertracing/jaeger';
  const dir = buildDir('jaeger', [module, JAEGER_MODULE_VERSION, go]);
  const binary = join(dir, 'jaeger');
  const started = Date.now();
  const cached = existsSync(binary);
  if (!cached) {
    await withLock(`${dir}.lock`, async () => {
      if (existsSync(binary)) return;
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'go.mod'), 'module routescope.test/jaeger\n\ngo 1.26\n');
      run('go', ['get', '-tool', `${module}/cmd/jaeger@${JAEGER_MODULE_VERSION}`], dir);
      run('go', ['build', '-o', 'jaeger.partial', `${module}/cmd/jaeger`], dir);
      renameSync(join(dir, 'jaeger.partial'), binary);
      pruneOthers('jaeger', dir);
    });
  }
  return { name: 'jaeger', binary, version: JAEGER_RELEASE, seconds: (Date.now() - started) / 1000, cached };
}

/** collector-config/components.json from what the built Collector says it holds. */
function componentsDocument(binary) {
  const listed = YAML.parse(run(binary, ['components'], ROOT));
  const kinds = ['receivers', 'processors', 'exporters', 'connectors', 'extensions'];
  const types = Object.fromEntries(
    kinds.map((kind) => [
      kind,
      Object.fromEntries(
        (listed[kind] ?? []).map((c) => [c.name, c.module]).sort(([a], [b]) => a.localeCompare(b)),
      ),
    ]),
  );
  return {
    $comment:
      'Generated by `node test/setup/build-engines.mjs otelcol --write-components` from the `components` command ' +
      'of the Collector built from otelcol-builder.yaml; test/engines checks it against the build. The component ' +
      'types every config in this folder may use, each with the Go module and version it came from.',
    release: String(listed.buildinfo.version),
    builder: `go.opentelemetry.io/collector/cmd/builder v${listed.buildinfo.version}`,
    manifest: 'collector-config/otelcol-builder.yaml',
    types,
    providers: (listed.providers ?? []).map((p) => p.module).sort(),
  };
}

const args = process.argv.slice(2);
const writeComponents = args.includes('--write-components');
const checkComponents = args.includes('--check-components');
// --components-file=PATH: check (or write) another file than collector-config/components.json (the tests' own).
const componentsFile =
  args.find((a) => a.startsWith('--components-file='))?.slice('--components-file='.length) ?? COMPONENTS;
const names = args.filter((a) => !a.startsWith('--'));
const wanted = names.length === 0 ? ['otelcol', 'jaeger'] : names;
for (const name of wanted) {
  if (name !== 'otelcol' && name !== 'jaeger') fail(`unknown engine ${name}: otelcol or jaeger`);
}
for (const name of wanted) {
  const built = name === 'otelcol' ? await buildOtelcol() : await buildJaeger();
  process.stdout.write(`${JSON.stringify(built)}\n`);
  if (!built.cached)
    process.stderr.write(`build-engines: ${name} ${built.version} built in ${built.seconds.toFixed(0)} s\n`);
  if (name === 'otelcol' && writeComponents) {
    if (process.env.CI)
      fail('--write-components is refused under CI: regenerate it on a work tree and commit it');
    writeFileSync(componentsFile, `${JSON.stringify(componentsDocument(built.binary), null, 2)}\n`);
    process.stderr.write(`build-engines: wrote ${componentsFile}\n`);
  }
  if (name === 'otelcol' && checkComponents) {
    const expected = `${JSON.stringify(componentsDocument(built.binary), null, 2)}\n`;
    const actual = readFileSync(componentsFile, 'utf8');
    if (actual !== expected)
      fail(
        `${componentsFile} is not what the build holds; regenerate it with ` +
          `node test/setup/build-engines.mjs otelcol --write-components\n--- the build says:\n${expected}`,
      );
  }
}
