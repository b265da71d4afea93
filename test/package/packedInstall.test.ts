/**
 * routescope as a new user installs it: the packed package (`npm pack`) installed into a fresh app beside each
 * OpenTelemetry SDK line docs/instrumentation.md's compatibility table says yes to, with the Node that line runs on —
 * SDK 3.x with `@opentelemetry/api` 1.10 on Node 22, SDK 2.x with api 1.9 on Node 20 and on Node 22.
 *
 * For each: the install prints no peer conflict (no ERESOLVE, no "overriding peer dependency") and no engine
 * warning; routescope brings no package of its own (the executable is a bundle), so the app holds exactly one
 * `@opentelemetry/api`. Then the setup for that line runs there, as written (its block, compiled from
 * TypeScript), with the framework's real `turn_routed` events of agentfootprint 9.62 handed to the strategy under
 * turn spans carrying their run ids, as the framework's own `otelObservability` starts them. The app's real
 * OTLP/HTTP exporter sends to a `routescope serve` on a free port, and every routing span it recorded must arrive
 * there as a child of its turn's span. The examples run on Node 22 as they do on Node 20.
 *
 * It needs the package registry (CI reaches it); Node 22 comes from it too (test/helpers/node22.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import { createReadStats } from '../../src/trace/readStats.js';
import { node22, runNpm } from '../helpers/node22.js';
import { requireBuild } from '../helpers/requireBuild.js';
import { spawnServeCli } from '../helpers/serveCli.js';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'dist/bin/routescope.js');
const EVENTS = join(ROOT, '../shared/fixtures/agentfootprint/framework-otel-turn_routed.jsonl');

/** One cell of the compatibility table (docs/instrumentation.md) that says yes. */
interface Line {
  readonly name: string;
  readonly node: () => string;
  readonly setup: 'sdk-3' | 'sdk-2';
  readonly dependencies: Readonly<Record<string, string>>;
}

const SDK3 = {
  '@opentelemetry/api': '1.10.0',
  '@opentelemetry/sdk-trace': '3.1.1',
  '@opentelemetry/resources': '3.1.1',
  '@opentelemetry/context-async-hooks': '3.1.1',
  '@opentelemetry/exporter-trace-otlp-http': '0.301.2',
};
const SDK2 = {
  '@opentelemetry/api': '~1.9.0',
  '@opentelemetry/sdk-trace-base': '^2.12.1',
  '@opentelemetry/resources': '^2.12.1',
  '@opentelemetry/context-async-hooks': '^2.12.1',
  '@opentelemetry/exporter-trace-otlp-http': '^0.223.1',
};

const LINES: readonly Line[] = [
  { name: 'SDK 3.x, api 1.10, Node 22', node: node22, setup: 'sdk-3', dependencies: SDK3 },
  { name: 'SDK 2.x, api 1.9, Node 20', node: () => process.execPath, setup: 'sdk-2', dependencies: SDK2 },
  { name: 'SDK 2.x, api 1.9, Node 22', node: node22, setup: 'sdk-2', dependencies: SDK2 },
];

/** The setup block marked `<!-- setup: NAME -->` in docs/instrumentation.md, as written. */
function readmeSetup(name: string): string {
  const readme = readFileSync(join(ROOT, 'docs/instrumentation.md'), 'utf8');
  const m = new RegExp(`<!-- setup: ${name} -->\\n\`\`\`(?:ts|typescript)\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(
    readme,
  );
  if (m === null) throw new Error(`docs/instrumentation.md has no block marked <!-- setup: ${name} -->`);
  return m[1]!;
}

/** After the setup: the framework's turns, each under a turn span with its run id; prints what happened. */
const AGENT = `
import { readFileSync as readEvents } from 'node:fs';
const events = readEvents(process.env.ROUTESCOPE_EVENTS, 'utf8').split('\\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
const turnTracer = trace.getTracer('agentfootprint');
const turns = [];
for (const event of events) {
  const span = turnTracer.startSpan('agentfootprint.turn', { attributes: { 'agentfootprint.run.id': event.meta.runId } });
  turns.push({ traceId: span.spanContext().traceId, spanId: span.spanContext().spanId });
  strategy.exportEvent(event);
  span.end();
}
await strategy.flush();
await provider.shutdown();
console.log(JSON.stringify({ turns, status: strategy.status() }));
`;

let scratch: string;
let tarball: string;

beforeAll(() => {
  requireBuild(BIN);
  scratch = mkdtempSync(join(tmpdir(), 'routescope-pack-'));
  const packed = runNpm(process.execPath, ['pack', '--pack-destination', scratch], ROOT);
  expect(packed.code, packed.output).toBe(0);
  const file = readdirSync(scratch).find((f) => f.endsWith('.tgz'));
  if (file === undefined) throw new Error(`npm pack wrote no tarball:\n${packed.output}`);
  tarball = join(scratch, file);
}, 120_000);

afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

/** Every installed copy of `@opentelemetry/api` under `dir`, nested ones included. */
function apiCopies(dir: string): string[] {
  const found: string[] = [];
  const walk = (modules: string): void => {
    if (!existsSync(modules)) return;
    for (const name of readdirSync(modules)) {
      if (name.startsWith('.')) continue;
      const scoped = name.startsWith('@')
        ? readdirSync(join(modules, name)).map((n) => `${name}/${n}`)
        : [name];
      for (const pkg of scoped) {
        if (pkg === '@opentelemetry/api') found.push(join(modules, pkg));
        walk(join(modules, pkg, 'node_modules'));
      }
    }
  };
  walk(join(dir, 'node_modules'));
  return found;
}

/** Start `routescope serve` writing what arrives to `out`; resolves with its endpoint and how to stop it. */
async function startServe(out: string): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  const { child, listening } = spawnServeCli(BIN, ['serve', '--port', '0', '--ui-port', '0', '--out', out]);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { endpoint } = await listening;
  return {
    endpoint,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}

describe('the packed package in a fresh app', () => {
  it.each(LINES)(
    '$name: installs with no peer conflict and one API copy, and the documented setup records every routing span under its turn',
    async (line) => {
      const node = line.node();
      const app = mkdtempSync(join(scratch, 'app-'));
      writeFileSync(
        join(app, 'package.json'),
        `${JSON.stringify(
          {
            name: 'app',
            private: true,
            type: 'module',
            dependencies: { ...line.dependencies, routescope: `file:${tarball}` },
          },
          null,
          2,
        )}\n`,
      );
      const install = runNpm(node, ['install'], app);
      expect(install.code, install.output).toBe(0);
      expect(install.output).not.toMatch(/ERESOLVE|overriding peer dependency|conflicting peer|EBADENGINE/i);

      // routescope brings nothing of its own: the CLI and the demo ship inside its bundled executable.
      const installed = JSON.parse(
        readFileSync(join(app, 'node_modules/routescope/package.json'), 'utf8'),
      ) as {
        dependencies?: Record<string, string>;
      };
      expect(installed.dependencies ?? {}).toEqual({});
      expect(apiCopies(app)).toEqual([join(app, 'node_modules/@opentelemetry/api')]);
      const apiVersion = (
        JSON.parse(readFileSync(join(app, 'node_modules/@opentelemetry/api/package.json'), 'utf8')) as {
          version: string;
        }
      ).version;
      expect(apiVersion).toMatch(line.setup === 'sdk-3' ? /^1\.10\./ : /^1\.9\./);

      // The documented setup for this line, compiled as a user's build would, then the framework's turns.
      const setup = ts.transpileModule(readmeSetup(line.setup), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      writeFileSync(join(app, 'agent.mjs'), `${setup}\n${AGENT}`);
      const out = join(app, 'received.jsonl');
      const serve = await startServe(out);
      let run: ReturnType<typeof spawnSync>;
      try {
        run = spawnSync(node, ['agent.mjs'], {
          cwd: app,
          encoding: 'utf8',
          timeout: 60_000,
          env: {
            PATH: process.env.PATH ?? '',
            OTEL_EXPORTER_OTLP_ENDPOINT: serve.endpoint,
            ROUTESCOPE_EVENTS: EVENTS,
          },
        });
      } finally {
        await serve.stop();
      }
      expect(run.status, `${String(run.stdout)}${String(run.stderr)}`).toBe(0);
      const printed = JSON.parse(String(run.stdout).trim().split('\n').at(-1)!) as {
        turns: Array<{ traceId: string; spanId: string }>;
        status: { turnsReceived: number; spansRecorded: number; reason?: unknown };
      };
      expect(printed.turns.length).toBe(8);
      expect(printed.status.turnsReceived).toBe(8);
      expect(printed.status.spansRecorded).toBeGreaterThanOrEqual(8);

      // What the app's exporter delivered: every routing span, each a child of its turn's span.
      const stats = createReadStats();
      const routing: Array<{ traceId: string; parentSpanId?: string; kind: string }> = [];
      for await (const r of readTraceInputs([out], stats)) routing.push(r);
      expect(stats.problems).toEqual([]);
      expect(routing.length).toBe(printed.status.spansRecorded);
      const turnSpans = new Set(printed.turns.map((t) => `${t.traceId}/${t.spanId}`));
      for (const r of routing)
        expect(turnSpans.has(`${r.traceId}/${r.parentSpanId ?? ''}`), JSON.stringify(r)).toBe(true);
      expect(new Set(routing.map((r) => r.kind))).toEqual(new Set(['decision', 'turn']));

      // The installed executable reads it with the WebAssembly SIMD scanner the package ships, on this Node.
      const analyzed = spawnSync(
        node,
        [join(app, 'node_modules/routescope/dist/bin/routescope.js'), 'analyze', out, '--format', 'json'],
        { cwd: app, encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '' } },
      );
      expect(analyzed.status, String(analyzed.stderr)).toBe(0);
      const input = (JSON.parse(String(analyzed.stdout)) as { input: { lines: number; scan: unknown } })
        .input;
      expect(input.scan).toEqual({
        path: 'simd',
        simdLines: input.lines,
        javascriptLines: 0,
        simdUnavailable: null,
      });
    },
    300_000,
  );

  it("the table's no cells hold too: SDK 3.x refuses Node 20, and SDK 2.x refuses api 1.10", () => {
    const tryInstall = (dependencies: Record<string, string>): { code: number | null; output: string } => {
      const app = mkdtempSync(join(scratch, 'no-'));
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'no', private: true, dependencies }));
      return runNpm(process.execPath, ['install'], app);
    };
    const sdk3OnNode20 = tryInstall({ '@opentelemetry/api': '1.10.0', '@opentelemetry/sdk-trace': '3.1.1' });
    expect(sdk3OnNode20.output).toMatch(/EBADENGINE[\s\S]*@opentelemetry\/sdk-trace[\s\S]*>=22\.15/);
    const sdk2WithApi110 = tryInstall({
      '@opentelemetry/api': '1.10.0',
      '@opentelemetry/sdk-trace-base': '^2.12.1',
    });
    expect(sdk2WithApi110.code).not.toBe(0);
    expect(sdk2WithApi110.output).toMatch(/ERESOLVE/);
  }, 300_000);

  it('the examples run on Node 22 as on Node 20, printing the same', () => {
    requireBuild(join(ROOT, 'dist/index.js'));
    const node = node22();
    for (const example of readdirSync(join(ROOT, 'examples'))) {
      const on = (binary: string): string => {
        const r = spawnSync(binary, [join('examples', example)], {
          cwd: ROOT,
          encoding: 'utf8',
          env: { PATH: process.env.PATH ?? '' },
        });
        expect(r.status, `${example}: ${r.stderr}`).toBe(0);
        // Span ids and times differ from run to run; the rest is the same.
        return r.stdout.replace(/\b[0-9a-f]{16,32}\b/g, '<id>').replace(/\b\d{13,}\b/g, '<time>');
      };
      expect(on(node), example).toBe(on(process.execPath));
    }
  }, 300_000);
});
