// A folder's files that hold no traces are named in every format, as skipped — never silent beside "bad lines:
// none" — the list capped (5 in text and Markdown, 50 in JSON) with how many more.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, writeTraceFile } from '../helpers/traceFiles.js';
import { cli, cliJson } from './runCliHarness.js';

const temp = makeTempDir('routescope-cli-no-traces-');
afterAll(() => temp.cleanup());
const EMPTY = Array.from({ length: 8 }, (_, i) => `empty-${i}.jsonl`);

beforeAll(async () => {
  await writeTraceFile(join(temp.dir, 'traces.jsonl'), [{ scores: [{ id: 'billing', score: 0.9 }] }]);
  for (const name of EMPTY) writeFileSync(join(temp.dir, name), '');
  writeFileSync(join(temp.dir, 'metrics.jsonl'), '{"resourceMetrics":[]}\n');
});

describe('files without traces in the report', () => {
  it('JSON: the count, and each file with why', async () => {
    const { code, json } = await cliJson(['analyze', temp.dir]);
    expect(code).toBe(0);
    const input = json.input as {
      filesWithoutTraces: number;
      skippedFiles: { file: string }[];
      problems: number;
    };
    expect(input.problems).toBe(0);
    expect(input.filesWithoutTraces).toBe(9);
    expect(input.skippedFiles.map((f) => f.file)).toStrictEqual(
      [...EMPTY, 'metrics.jsonl'].map((n) => join(temp.dir, n)),
    );
  });

  it.each(['text', 'markdown'])(
    '%s: a row beside "bad lines: none", five names and how many more',
    async (format) => {
      const { stdout } = await cli(['analyze', temp.dir, '--format', format]);
      expect(stdout).toMatch(/bad lines[^\n]*none/);
      expect(stdout).toMatch(/no traces[^\n]*9 files skipped: not one span or event in them/);
      for (const name of EMPTY.slice(0, 5)) expect(stdout).toContain(`${join(temp.dir, name)}: empty`);
      expect(stdout).not.toContain(join(temp.dir, EMPTY[5]!));
      expect(stdout).toContain('… and 4 more');
    },
  );

  it('HTML: the same row and names', async () => {
    const { stdout } = await cli(['analyze', temp.dir, '--format', 'html']);
    expect(stdout).toContain('9 files skipped: not one span or event in them');
    expect(stdout).toContain(join(temp.dir, EMPTY[0]!));
  });

  it('nothing at all in the folder: the input error names the files', async () => {
    const only = makeTempDir('routescope-cli-only-empty-');
    try {
      writeFileSync(join(only.dir, 'a.jsonl'), '');
      writeFileSync(join(only.dir, 'b.jsonl'), '{"resourceLogs":[]}\n');
      const { code, stderr } = await cli(['analyze', only.dir]);
      expect(code).toBe(2);
      expect(stderr).toContain(
        `2 files without traces: ${join(only.dir, 'a.jsonl')}, ${join(only.dir, 'b.jsonl')}`,
      );
    } finally {
      only.cleanup();
    }
  });
});
