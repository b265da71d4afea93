/**
 * The README's TypeScript blocks compile as written, under `strict` and `exactOptionalPropertyTypes`, against
 * the package's own sources (`routescope` → src/index.ts), so they cannot rot. Each block is a module of its own;
 * what a block leaves to the reader (your agent, your app's functions, agentfootprint, which is no dependency
 * here) is declared in AMBIENT below, and nothing else is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** What the README's blocks take as given: the reader's agent and app, and agentfootprint's surface they use. */
const AMBIENT = `
// agentfootprint 9.62's entry points (its package exports): otelObservability from 'agentfootprint/providers',
// composeObservability from 'agentfootprint/observe'.
declare module 'agentfootprint/providers' {
  export function otelObservability(options: { serviceName: string }): object;
}
declare module 'agentfootprint/observe' {
  export function composeObservability(strategies: readonly object[]): object;
}
declare const agent: {
  enable: { observability(options: { strategy: object }): void };
  on(type: string, listener: (event: unknown) => void): void;
};
declare const session: { id: string };
declare function startIn(skill: string): void;
declare function offer(skills: readonly string[]): void;
declare function offerEveryEntry(): void;
`;

/** The ```ts blocks of a Markdown text, in order. */
export function extractTsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** Type errors of each block compiled as its own module, as `file:line: message`. */
function typeCheck(blocks: readonly string[]): string[] {
  const dir = join(ROOT, '.readme-blocks');
  const files = new Map(blocks.map((code, i) => [join(dir, `block-${i + 1}.ts`), `${code}\nexport {};\n`]));
  const ambient = join(dir, 'ambient.d.ts');
  files.set(ambient, AMBIENT);
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

describe("the README's TypeScript blocks", () => {
  const blocks = extractTsBlocks(README);

  it('are there: the strategy, the whole SDK setup, the wrapper', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    expect(blocks.some((b) => b.includes('setGlobalTracerProvider') && b.includes('spanProcessors'))).toBe(
      true,
    );
  });

  it('compile under strict and exactOptionalPropertyTypes', () => {
    expect(typeCheck(blocks)).toEqual([]);
  });

  it('the check catches a block that no longer fits the API', () => {
    const broken = "import { instrumentDecideTier2 } from 'routescope';\ninstrumentDecideTier2(1);\n";
    expect(typeCheck([broken]).join('\n')).toMatch(/^block-1\.ts:2: /m);
    const undefinedFloor =
      "import { decideTier2, resolveRoutingPolicy } from 'routescope';\n" +
      'decideTier2([], undefined, resolveRoutingPolicy(), { floor: undefined });\n';
    expect(typeCheck([undefinedFloor]).join('\n')).toMatch(/exactOptionalPropertyTypes|undefined/);
  });
});
