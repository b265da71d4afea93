/**
 * Every example runs with plain `node` as the README says (`node examples/<name>.mjs`, after `npm run build`),
 * against the built package imported by name, and prints what it shows. `npm run test:all` builds first; without
 * a build these tests fail saying to build (requireBuild), never skip.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../helpers/requireBuild.js';
import { checkFrameworkImports, findFrameworkImports, readPackageExports } from './agentfootprintSurface.js';

const ROOT = join(import.meta.dirname, '../..');
const BUILT_ENTRY = join(ROOT, 'dist/index.js');

function runNode(args: readonly string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('examples/', () => {
  it('holds only examples plain node runs (.mjs), each named in the README with the command that runs it', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const files = readdirSync(join(ROOT, 'examples'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      expect(f).toMatch(/\.mjs$/);
      expect(readme).toContain(`node examples/${f}`);
    }
  });

  it('import from agentfootprint only what its package really exports (its captured package exports)', () => {
    const surface = readPackageExports();
    const problems = readdirSync(join(ROOT, 'examples')).flatMap((f) => {
      const code = readFileSync(join(ROOT, 'examples', f), 'utf8');
      return checkFrameworkImports(findFrameworkImports(code, f), surface, `examples/${f}`);
    });
    expect(problems).toEqual([]);
  });

  it('the import check catches a wrong subpath, a missing name and a missing module', () => {
    const surface = readPackageExports();
    const code = [
      "import { otelObservability } from 'agentfootprint/providers';",
      "import { composeObservability, noSuchThing } from 'agentfootprint/observe';",
      "import * as otel from 'agentfootprint/otel';",
      "export { Agent } from 'agentfootprint';",
    ].join('\n');
    expect(checkFrameworkImports(findFrameworkImports(code, 'x.mjs'), surface, 'x.mjs')).toEqual([
      "x.mjs:1: 'agentfootprint/providers' does not export otelObservability (exported by 'agentfootprint/observe')",
      "x.mjs:2: 'agentfootprint/observe' does not export noSuchThing",
      "x.mjs:3: agentfootprint has no subpath 'agentfootprint/otel'",
    ]);
  });
});

describe('each example, run with plain node', () => {
  beforeAll(() => requireBuild(BUILT_ENTRY));

  it('wrapYourRouter prints the verdict and the near-tie span it left', () => {
    const r = runNode(['examples/wrapYourRouter.mjs']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^verdict: menu \[refunds, returns\]\n/);
    expect(r.stdout).toContain('span agentfootprint.routing.tier2\n');
    expect(r.stdout).toContain('  agentfootprint.routing.near_tie = true\n');
    expect(r.stdout).toContain('  agentfootprint.routing.router = "support-desk"\n');
    expect(r.stdout).toContain('  gen_ai.conversation.id = "conv-42"\n');
  });

  it('plugIntoYourAgent prints a tier-2 span and a turn span from the framework event, nothing for the other', () => {
    const r = runNode(['examples/plugIntoYourAgent.mjs']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const spans = r.stdout.split('\n').filter((l) => l.startsWith('span '));
    expect(spans.sort()).toEqual(['span agentfootprint.routing.tier2', 'span agentfootprint.routing.turn']);
    expect(r.stdout).toContain('  agentfootprint.routing.verdict = "menu"\n');
    expect(r.stdout).toContain('  agentfootprint.routing.offered = ["shipping","billing"]\n');
    expect(r.stdout).toContain('  agentfootprint.routing.policy.semantics = "agentfootprint-9.62"\n');
    expect(r.stdout).toContain('  gen_ai.conversation.id = "sess-42"\n');
    expect(r.stdout).toContain('  agentfootprint.routing.by = "menu"\n');
    expect(r.stdout).toContain('status: 2 events, 1 routed, 2 spans, reason none\n');
  });
});

describe('the package', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    license: string;
    repository?: { url?: string };
    exports: Record<string, Record<string, string> | string>;
  };

  it('has the MIT LICENSE its manifest names, and a repository', () => {
    expect(pkg.license).toBe('MIT');
    const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) the routescope authors\n/);
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\/github\.com\/[\w-]+\/[\w-]+\.git$/);
  });

  it('lets Node require it as an ES module (module-sync), as the README says', () => {
    expect(pkg.exports['.']).toMatchObject({ 'module-sync': './dist/index.js' });
  });

  it('require("routescope") gives the same exports as import', () => {
    requireBuild(BUILT_ENTRY);
    const r = runNode([
      '--eval',
      "const m = require('routescope'); process.stdout.write(Object.keys(m).sort().join(','))",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const imported = runNode([
      '--input-type=module',
      '--eval',
      "const m = await import('routescope'); process.stdout.write(Object.keys(m).sort().join(','))",
    ]);
    expect(r.stdout).toBe(imported.stdout);
    expect(r.stdout).toContain('routescopeObservability');
  });
});
