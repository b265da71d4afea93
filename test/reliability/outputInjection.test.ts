/**
 * Output injection: hostile ids and names from a trace are inert in the text and Markdown reports.
 *
 * Every command that reports on a trace runs in-process (`runCli`) over the hostile trace (see hostileTrace),
 * in text (with colour on, as on a terminal) and Markdown. No raw escape, C1 control, forged line break or
 * bidi control from the trace may reach the output, and the Markdown may gain no heading, table row or link
 * from it; the hostile text is still shown (escaped), not silently dropped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { MARK, writeHostileTrace } from './hostileTrace.js';

let dir: string;
let file: string;
let conversationId: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'routescope-inject-'));
  file = join(dir, 'hostile.jsonl');
  conversationId = writeHostileTrace(file).conversationId;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[], tty: boolean): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    isTTY: tty,
    stderrIsTTY: false,
    env: {},
  });
  return { code, stdout, stderr };
}

// Raw bytes no trace string may put into the output: C0 but \n (and \t), DEL, C1, separators, bidi controls.
const FORBIDDEN =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
const ESC_NOT_SGR = /\u001b(?!\[[0-9;]*m)/;

const commands = (): string[][] => [
  ['analyze', file],
  ['hotspots', file],
  ['floorless', file],
  ['explain', conversationId, file],
  ['replay', file, '--margin', '0.05', '--list'],
  ['tune', file],
  ['flapping', file],
];

describe('hostile trace strings in the terminal and Markdown reports', () => {
  for (const format of ['text', 'markdown'] as const) {
    for (const tty of format === 'text' ? [true, false] : [false]) {
      it(`${format}${tty ? ' on a colour terminal' : ''}: no raw control, escape, forged line or bidi control; the text is shown`, async () => {
        for (const argv of commands()) {
          const r = await run([...argv, '--format', format], tty);
          const what = `${argv[0]} --format ${format}`;
          expect(r.code, `${what}: ${r.stderr}`).toBe(0);
          const out = r.stdout + r.stderr;
          expect(out.match(FORBIDDEN), what).toBeNull();
          // On a terminal the report may colour itself (SGR); nothing else may start with ESC.
          if (tty) expect(out.match(ESC_NOT_SGR), what).toBeNull();
          else expect(out.includes('\u001b'), what).toBe(false);
          // A forged line never starts a line of its own.
          expect(
            out.split('\n').filter((l) => /^\s*(FORGED|# FORGED)/.test(l)),
            what,
          ).toEqual([]);
          expect(out.includes(MARK), `${what} shows the hostile text`).toBe(true);
          if (format === 'markdown') {
            expect(
              out.split('\n').filter((l) => l.startsWith('#') && l.includes('FORGED')),
              what,
            ).toEqual([]);
            // `]` escaped as `\]` no longer closes a link text.
            expect(/(?<!\\)\]\(javascript:/.test(out), what).toBe(false);
            // Every table row keeps its column count: no pipe from the trace opened a cell.
            const tables = out.split(/\n(?!\|)/).filter((b) => b.startsWith('|'));
            for (const table of tables) {
              const widths = table.split('\n').map((row) => row.split(/(?<!\\)\|/).length);
              expect(new Set(widths).size, `${what}: ${table.slice(0, 200)}`).toBe(1);
            }
          }
        }
      });
    }
  }
});
