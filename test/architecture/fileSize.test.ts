// A new capability is a new room, not a longer file: no source file passes 400 lines (STYLE.md). A file near
// the line is split along a seam before it grows.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
const MAX_LINES = 400;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

it(`no source file is over ${MAX_LINES} lines`, () => {
  const files = sources(SRC);
  expect(files.length).toBeGreaterThan(100);
  const long = files
    .map((f) => [relative(SRC, f), readFileSync(f, 'utf8').split('\n').length - 1] as const)
    .filter(([, lines]) => lines > MAX_LINES);
  expect(long).toEqual([]);
});
