/**
 * The CLI writes only where `--out` says: `..` in the path resolves to the folder named, and a link (or a
 * folder) where the trace file would go is refused before anything is written, so nothing lands outside.
 *
 * `demo --out DIR` and `serve --out FILE` (appending what arrived, by design to the file named) are the only
 * writing options; every other command only reads. The demo and the readers are checked: the demo
 * against `..`, a link to a file outside, a dangling link and a folder in the file's place; the reading
 * commands by a snapshot of the trace's folder before and after; and the source by a scan for file-writing
 * calls outside the three modules that write (the demo command, the trace file exporter, serve's --out file).
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { DEMO_TRACE_FILE } from '../../src/cli/commands/demo.js';
import { OtlpJsonLinesFileExporter } from '../../src/demo/otlpJsonLinesFileExporter.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'routescope-paths-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    isTTY: false,
    env: {},
  });
  return { code, stdout, stderr };
}

/** Every path under `dir`, relative, with a mark for links; sorted. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = lstatSync(p);
      out.push(`${relative(dir, p)}${st.isSymbolicLink() ? ' ->' : st.isDirectory() ? '/' : ''}`);
      if (st.isDirectory() && !st.isSymbolicLink()) walk(p);
    }
  };
  walk(dir);
  return out.sort();
}

function fresh(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

describe('demo --out', () => {
  it('`..` in --out resolves to the folder named, and only that folder gains the trace file', async () => {
    const base = fresh('dotdot');
    mkdirSync(join(base, 'a'));
    const r = await run(['demo', '--out', join(base, 'a', '..', 'b'), '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(tree(base)).toEqual(['a/', 'b/', `b/${DEMO_TRACE_FILE}`]);
  });

  it('a link in the trace file place (to a file outside) is refused; the outside file is untouched', async () => {
    const base = fresh('link');
    const outside = join(fresh('link-outside'), 'precious.txt');
    writeFileSync(outside, 'keep me');
    const out = join(base, 'out');
    mkdirSync(out);
    symlinkSync(outside, join(out, DEMO_TRACE_FILE));
    const r = await run(['demo', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a regular file/);
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
    expect(tree(base)).toEqual(['out/', `out/${DEMO_TRACE_FILE} ->`]);
  });

  it('a dangling link in its place is refused, and nothing is created where it points', async () => {
    const base = fresh('dangling');
    const target = join(root, 'dangling-target', 'created.jsonl');
    const out = join(base, 'out');
    mkdirSync(out);
    symlinkSync(target, join(out, DEMO_TRACE_FILE));
    const r = await run(['demo', '--out', out]);
    expect(r.code).toBe(2);
    expect(existsSync(target)).toBe(false);
    expect(existsSync(join(root, 'dangling-target'))).toBe(false);
  });

  it('a folder in its place is refused and left as it was', async () => {
    const base = fresh('folder');
    const out = join(base, 'out');
    mkdirSync(join(out, DEMO_TRACE_FILE), { recursive: true });
    writeFileSync(join(out, DEMO_TRACE_FILE, 'inside'), 'x');
    const r = await run(['demo', '--out', out]);
    expect(r.code).toBe(2);
    expect(tree(base)).toEqual(['out/', `out/${DEMO_TRACE_FILE}/`, `out/${DEMO_TRACE_FILE}/inside`]);
  });

  it('an existing regular trace file is rewritten in place (not appended)', async () => {
    const out = fresh('rewrite');
    writeFileSync(join(out, DEMO_TRACE_FILE), 'old content\n');
    const r = await run(['demo', '--out', out, '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(out, DEMO_TRACE_FILE), 'utf8').startsWith('old content')).toBe(false);
    expect(tree(out)).toEqual([DEMO_TRACE_FILE]);
  });
});

describe('the reading commands write nothing', () => {
  it('every report command, every format, leaves the trace folder exactly as it was', async () => {
    const dir = fresh('readonly');
    const made = await run(['demo', '--out', dir, '--format', 'json']);
    expect(made.code).toBe(0);
    const file = join(dir, DEMO_TRACE_FILE);
    const before = tree(dir);
    const bytes = readFileSync(file);
    for (const argv of [
      ['analyze', file],
      ['hotspots', file],
      ['floorless', file],
      ['replay', file, '--margin', '0.1'],
      ['tune', file],
      ['flapping', file],
    ]) {
      for (const format of ['text', 'json', 'markdown', 'html']) {
        const r = await run([...argv, '--format', format]);
        expect(r.code, `${argv[0]} ${format}: ${r.stderr}`).toBe(0);
      }
    }
    expect(tree(dir)).toEqual(before);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('only the demo command, the trace file exporter and serve --out call file-writing APIs', () => {
    const src = resolve(import.meta.dirname, '../../src');
    const writers: string[] = [];
    const walk = (d: string): void => {
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (lstatSync(p).isDirectory()) walk(p);
        else if (/\.ts$/.test(name)) {
          const text = readFileSync(p, 'utf8');
          if (
            /\b(writeFile|writeFileSync|appendFile|createWriteStream|openSync|mkdirSync|mkdtempSync|symlink|rename|unlink|rmSync|copyFile)\b/.test(
              text,
            )
          )
            writers.push(relative(src, p));
        }
      }
    };
    walk(src);
    expect(writers.sort()).toEqual([
      'cli/commands/demo.ts',
      'demo/otlpJsonLinesFileExporter.ts',
      'serve/outFile.ts',
    ]);
  });
});

describe('the trace file exporter behind --out', () => {
  it('refuses to open a link in the file place even when nothing checked it first (O_NOFOLLOW)', () => {
    // The demo checks the path before it runs; this closes the gap between that check and the open.
    const base = fresh('nofollow');
    const outside = join(base, 'outside.txt');
    writeFileSync(outside, 'keep me');
    const link = join(base, DEMO_TRACE_FILE);
    symlinkSync(outside, link);
    for (const append of [false, true]) {
      expect(() => new OtlpJsonLinesFileExporter({ path: link, append })).toThrow(/ELOOP|symbolic link/i);
    }
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
  });
});
