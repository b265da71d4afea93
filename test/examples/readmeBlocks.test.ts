/**
 * The TypeScript blocks of the README and of docs/instrumentation.md (the whole setup) compile as written, under `strict` and `exactOptionalPropertyTypes`, against
 * the package's own sources (`routescope` → src/index.ts), so they cannot rot. Each block is a module of its own;
 * what a block leaves to the reader (your agent, your app's functions) is declared in AMBIENT below. agentfootprint,
 * which is no dependency here, is declared from its real package exports (test/fixtures/agentfootprint/
 * packageExports.json, captured from its source): every real subpath with its real names, so importing a name
 * from the wrong subpath, or a subpath that does not exist, is a type error. The setup for the 3.x SDK is fenced
 * as ```typescript, not ```ts: its packages cannot be installed beside the 2.x ones the project builds with, so it
 * is not compiled here but run for real, on Node 22 with SDK 3.1 in a fresh app (test/package/packedInstall.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultServiceName } from '@opentelemetry/resources';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  checkFrameworkImports,
  declareAgentfootprintModules,
  findFrameworkImports,
  readPackageExports,
} from './agentfootprintSurface.js';

const ROOT = join(import.meta.dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The whole setup for each SDK line lives in docs/instrumentation.md; its blocks are checked the same way. */
const INSTRUMENTATION = readFileSync(join(ROOT, 'docs/instrumentation.md'), 'utf8');
const AGENTFOOTPRINT = readPackageExports();

/** What the README's blocks take as given: the reader's agent and app. */
const AMBIENT = `
declare const agent: {
  enable: { observability(options: { strategy: object }): void };
  on(type: string, listener: (event: unknown) => void): void;
  run(input: { message: string }): Promise<unknown>;
};
declare const session: { id: string };
declare function startIn(skill: string): void;
declare function offer(skills: readonly string[]): void;
declare function offerEveryEntry(): void;
declare const strategy: ReturnType<typeof import('routescope').routescopeObservability>;
`;

/** The ```ts blocks of a Markdown text, in order. */
export function extractTsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** Type errors of each block compiled as its own module, as `file:line: message`. */
function typeCheck(blocks: readonly string[]): string[] {
  const dir = join(ROOT, '.readme-blocks');
  const files = new Map(blocks.map((code, i) => [join(dir, `block-${i + 1}.ts`), `${code}\nexport {};\n`]));
  files.set(join(dir, 'ambient.d.ts'), AMBIENT);
  files.set(join(dir, 'agentfootprint.d.ts'), declareAgentfootprintModules(AGENTFOOTPRINT));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts'],
    types: ['node'],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    baseUrl: ROOT,
    paths: { routescope: ['src/index.ts'] },
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => files.get(f) ?? readFile(f);
  host.fileExists = (f) => files.has(f) || fileExists(f);
  host.getSourceFile = (f, v, onError, create) =>
    files.has(f) ? ts.createSourceFile(f, files.get(f)!, v, true) : getSourceFile(f, v, onError, create);
  const program = ts.createProgram([...files.keys()], options, host);
  // Only the blocks' own errors: a reader compiles against the package's declarations, not its sources
  // (which the project checks under its own tsconfig).
  const inBlocks = (d: ts.Diagnostic): boolean => d.file === undefined || files.has(d.file.fileName);
  return ts
    .getPreEmitDiagnostics(program)
    .filter(inBlocks)
    .map((d) => {
      const where =
        d.file === undefined
          ? ''
          : `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: `;
      return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
}

describe('the TypeScript blocks of the README and docs/instrumentation.md', () => {
  const blocks = [...extractTsBlocks(README), ...extractTsBlocks(INSTRUMENTATION)];

  it('are there: the strategy, the whole SDK setup, the wrapper', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    expect(blocks.some((b) => b.includes('setGlobalTracerProvider') && b.includes('spanProcessors'))).toBe(
      true,
    );
  });

  it('compile under strict and exactOptionalPropertyTypes', () => {
    expect(typeCheck(blocks)).toEqual([]);
  });

  it('import from agentfootprint only the subpaths and names its package really exports', () => {
    const imports = blocks.map((b, i) => findFrameworkImports(b, `block-${i + 1}.ts`));
    expect(imports.flat().length).toBeGreaterThan(0);
    const problems = imports.flatMap((found, i) =>
      checkFrameworkImports(found, AGENTFOOTPRINT, `block-${i + 1}.ts`),
    );
    expect(problems).toEqual([]);
  });

  it('the setup names its service (service.name on the resource), and says what the reports show without one', () => {
    const setup = blocks.find((b) => b.includes('setGlobalTracerProvider'));
    expect(setup).toContain("import { resourceFromAttributes } from '@opentelemetry/resources';");
    expect(setup).toMatch(
      /new BasicTracerProvider\(\{\n {2}resource: resourceFromAttributes\(\{ 'service\.name': '[\w-]+' \}\),/,
    );
    // What the SDK names a service left unnamed, as the README says (the reports show the resource's name).
    expect(defaultServiceName()).toMatch(/^unknown_service(:|$)/);
    expect(INSTRUMENTATION).toContain('`unknown_service:node`');
  });

  it('the check catches a block that no longer fits the API', () => {
    const broken = "import { instrumentDecideTier2 } from 'routescope';\ninstrumentDecideTier2(1);\n";
    expect(typeCheck([broken]).join('\n')).toMatch(/^block-1\.ts:2: /m);
    const undefinedFloor =
      "import { decideTier2, resolveRoutingPolicy } from 'routescope';\n" +
      'decideTier2([], undefined, resolveRoutingPolicy(), { floor: undefined });\n';
    expect(typeCheck([undefinedFloor]).join('\n')).toMatch(/exactOptionalPropertyTypes|undefined/);
  });

  it("the check catches otelObservability imported from 'agentfootprint/providers' (it is in 'agentfootprint/observe')", () => {
    const wrong =
      "import { otelObservability } from 'agentfootprint/providers';\notelObservability({ serviceName: 's' });\n";
    expect(typeCheck([wrong]).join('\n')).toMatch(
      /^block-1\.ts:1: Module '"agentfootprint\/providers"' has no exported member 'otelObservability'/m,
    );
    expect(
      checkFrameworkImports(findFrameworkImports(wrong, 'block-1.ts'), AGENTFOOTPRINT, 'block-1.ts'),
    ).toEqual([
      "block-1.ts:1: 'agentfootprint/providers' does not export otelObservability (exported by 'agentfootprint/observe')",
    ]);
    const right =
      "import { otelObservability } from 'agentfootprint/observe';\notelObservability({ serviceName: 's' });\n";
    expect(typeCheck([right])).toEqual([]);
  });

  it('the check catches a resource that is not one (a plain attributes object)', () => {
    const plain =
      "import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';\n" +
      "new BasicTracerProvider({ resource: { 'service.name': 'support' } });\n";
    expect(typeCheck([plain]).join('\n')).toMatch(/^block-1\.ts:2: .*does not exist in type 'Resource'/m);
  });

  it('the check catches a subpath the framework does not have', () => {
    const missing =
      "import { composeObservability } from 'agentfootprint/otel';\ncomposeObservability([]);\n";
    expect(typeCheck([missing]).join('\n')).toMatch(
      /^block-1\.ts:1: Cannot find module 'agentfootprint\/otel'/m,
    );
  });
});

describe("agentfootprint's captured package exports", () => {
  it('are 9.62.0 at its commit, with the subpaths the README uses', () => {
    expect(AGENTFOOTPRINT.version).toBe('9.62.0');
    expect(AGENTFOOTPRINT.commit).toMatch(/^[0-9a-f]{40}$/);
    const observe = AGENTFOOTPRINT.subpaths['agentfootprint/observe'];
    expect(observe?.runtime).toEqual(expect.arrayContaining(['otelObservability', 'composeObservability']));
    expect(observe?.types).toEqual(
      expect.arrayContaining(['ObservabilityStrategy', 'OtelObservabilityOptions']),
    );
    expect(AGENTFOOTPRINT.subpaths['agentfootprint/providers']?.runtime).not.toContain('otelObservability');
  });

  it('list each name once, sorted', () => {
    for (const { runtime, types } of Object.values(AGENTFOOTPRINT.subpaths)) {
      for (const names of [runtime, types]) expect(names).toEqual([...new Set(names)].sort());
    }
  });
});
