/**
 * agentfootprintSurface — what agentfootprint 9.62 really exports, for checking what the README and the
 * examples import of it.
 *
 * agentfootprint is no dependency here (it is not installable), so its package exports were captured from its
 * source into test/fixtures/agentfootprint/packageExports.json (see PROVENANCE.md there). From that capture
 * this module writes the ambient module declarations the README's blocks compile against — one module per real
 * subpath, each real name `any`-typed — and checks the imports of plain-JavaScript files by name. A module or
 * a name the framework does not export is then an error, never a silent pass.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** The names one subpath exports: with a value meaning (runtime), usable as a type (types). */
export interface SubpathExports {
  readonly runtime: readonly string[];
  readonly types: readonly string[];
}

/** The capture: the package, the version and commit it was read from, and each subpath's exports. */
export interface PackageExports {
  readonly package: string;
  readonly version: string;
  readonly commit: string;
  readonly subpaths: Readonly<Record<string, SubpathExports>>;
}

const FIXTURE = new URL('../fixtures/agentfootprint/packageExports.json', import.meta.url);

function isNameList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((n) => typeof n === 'string');
}

/** Read and narrow the capture; a malformed one is an error saying which part is wrong. */
export function readPackageExports(url: URL = FIXTURE): PackageExports {
  const raw = JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
  const { package: name, version, commit, subpaths } = raw;
  if (typeof name !== 'string' || typeof version !== 'string' || typeof commit !== 'string') {
    throw new Error(`${url.pathname}: package, version and commit must be strings`);
  }
  if (typeof subpaths !== 'object' || subpaths === null) throw new Error(`${url.pathname}: no subpaths`);
  for (const [subpath, names] of Object.entries(subpaths)) {
    const { runtime, types } = names as Record<string, unknown>;
    if (!isNameList(runtime) || !isNameList(types)) {
      throw new Error(`${url.pathname}: ${subpath} needs runtime and types name lists`);
    }
  }
  return { package: name, version, commit, subpaths: subpaths as Record<string, SubpathExports> };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * `declare module` blocks for every subpath: a runtime name becomes an `any` constant, a type name an `any`
 * alias that takes up to four type arguments (so `Name<T>` compiles as it would against the real type).
 */
export function declareAgentfootprintModules(surface: PackageExports): string {
  const out = [
    `// ${surface.package} ${surface.version} (${surface.commit}), generated from its package exports.`,
  ];
  for (const [subpath, names] of Object.entries(surface.subpaths)) {
    out.push(`declare module '${subpath}' {`);
    for (const n of names.runtime) out.push(`  export const ${identifier(n, subpath)}: any;`);
    for (const n of names.types)
      out.push(`  export type ${identifier(n, subpath)}<_A = any, _B = any, _C = any, _D = any> = any;`);
    out.push('}');
  }
  return `${out.join('\n')}\n`;
}

function identifier(name: string, subpath: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`${subpath} exports ${JSON.stringify(name)}: not declarable`);
  return name;
}

/** One import of the framework in a file: the module, the names it takes (none for `* as` or a bare import). */
export interface FrameworkImport {
  readonly line: number;
  readonly module: string;
  readonly names: readonly string[];
  readonly typeOnly: boolean;
}

/** Every static `import … from 'agentfootprint…'` and `export … from 'agentfootprint…'` of a source text. */
export function findFrameworkImports(
  code: string,
  fileName: string,
  pkg = 'agentfootprint',
): FrameworkImport[] {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.ES2022, true);
  const found: FrameworkImport[] = [];
  const lineOf = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const isFramework = (m: string): boolean => m === pkg || m.startsWith(`${pkg}/`);
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const module = statement.moduleSpecifier.text;
      if (!isFramework(module)) continue;
      const clause = statement.importClause;
      const names: string[] = [];
      if (clause?.name !== undefined) names.push('default');
      const bindings = clause?.namedBindings;
      if (bindings !== undefined && ts.isNamedImports(bindings)) {
        for (const el of bindings.elements) names.push((el.propertyName ?? el.name).text);
      }
      found.push({ line: lineOf(statement), module, names, typeOnly: clause?.isTypeOnly === true });
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      isFramework(statement.moduleSpecifier.text)
    ) {
      const clause = statement.exportClause;
      const names =
        clause !== undefined && ts.isNamedExports(clause)
          ? clause.elements.map((el) => (el.propertyName ?? el.name).text)
          : [];
      found.push({
        line: lineOf(statement),
        module: statement.moduleSpecifier.text,
        names,
        typeOnly: statement.isTypeOnly,
      });
    }
  }
  return found;
}

/** What an import asks for that the framework does not export, as `file:line: message`; [] when all exist. */
export function checkFrameworkImports(
  imports: readonly FrameworkImport[],
  surface: PackageExports,
  fileName: string,
): string[] {
  const problems: string[] = [];
  for (const imp of imports) {
    const names = surface.subpaths[imp.module];
    if (names === undefined) {
      problems.push(`${fileName}:${imp.line}: ${surface.package} has no subpath '${imp.module}'`);
      continue;
    }
    // A plain-JavaScript import needs a runtime export; a type-only one (TypeScript) a type.
    const allowed = imp.typeOnly ? names.types : names.runtime;
    for (const n of imp.names) {
      if (!allowed.includes(n)) {
        const owners = Object.keys(surface.subpaths).filter((s) => surface.subpaths[s]!.runtime.includes(n));
        const hint = owners.length === 0 ? '' : ` (exported by ${owners.map((o) => `'${o}'`).join(', ')})`;
        problems.push(`${fileName}:${imp.line}: '${imp.module}' does not export ${n}${hint}`);
      }
    }
  }
  return problems;
}
