// Strings from a trace can never drive the terminal or break a Markdown table: one escaping function, used
// by the text and Markdown renderers, checked alone (rules and laws) and through the CLI on hostile ids.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { escapeControlChars, escapeMarkdown } from '../../src/report/escapeControlChars.js';
import { formatJson } from '../../src/report/formatJson.js';
import { renderMarkdown } from '../../src/report/renderMarkdown.js';
import { renderText } from '../../src/report/renderText.js';
import { makeTempDir, writeTraceFile, type WrittenTraceFile } from '../helpers/traceFiles.js';
import { cli } from '../cli/runCliHarness.js';

// C0, DEL, C1, bidi controls and separators: nothing of these may reach the output raw.
const DANGEROUS =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ufeff]/;

describe('escapeControlChars', () => {
  it('shows ESC (ANSI and OSC sequences) as \\x1b', () => {
    expect(escapeControlChars('a\u001b[31mred\u001b]0;title\u0007')).toBe('a\\x1b[31mred\\x1b]0;title\\x07');
  });

  it('shows newlines, carriage returns and tabs by name', () => {
    expect(escapeControlChars('a\nb\rc\td')).toBe('a\\nb\\rc\\td');
  });

  it('shows C1 controls and DEL', () => {
    expect(escapeControlChars('\u009b31m\u007f')).toBe('\\x9b31m\\x7f');
  });

  it('shows bidi controls and line separators', () => {
    expect(escapeControlChars('abc\u202edef\u2066\u2028')).toBe('abc\\u202edef\\u2066\\u2028');
  });

  it('leaves ordinary text, accents and emoji alone', () => {
    expect(escapeControlChars('billing-é ↔ 退款 🚀')).toBe('billing-é ↔ 退款 🚀');
  });

  it('law: the output never contains a control, bidi or separator character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(DANGEROUS.test(escapeControlChars(text))).toBe(false);
        expect(/[\n\r\t]/.test(escapeControlChars(text))).toBe(false);
      }),
    );
  });

  it('law: a string without those characters is unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        fc.pre(!DANGEROUS.test(text) && !/[\n\r\t]/.test(text));
        expect(escapeControlChars(text)).toBe(text);
      }),
    );
  });
});

describe('escapeMarkdown', () => {
  it('escapes table pipes and the characters Markdown reads as structure', () => {
    expect(escapeMarkdown('a|b *c* _d_ `e` [f](g) <h>')).toBe(
      'a\\|b \\*c\\* \\_d\\_ \\`e\\` \\[f\\](g) \\<h\\>',
    );
  });

  it('escapes control characters too, and its own backslashes', () => {
    expect(escapeMarkdown('x\u001by')).toBe('x\\\\x1by');
  });

  it('law: a Markdown table row keeps its columns whatever the cell holds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const md = renderMarkdown([
          { kind: 'table', columns: [{ title: 'a' }, { title: 'b' }], rows: [[text, 'z']] },
        ]);
        const row = md.trim().split('\n')[2]!;
        expect(row.split(/(?<!\\)\|/).length).toBe(4);
      }),
    );
  });
});

describe('renderers', () => {
  it('text aligns columns on the escaped width and adds colour only when asked', () => {
    const doc = [
      {
        kind: 'table' as const,
        columns: [{ title: 'id' }, { title: 'n', align: 'right' as const }],
        rows: [
          ['a\u001bb', '1'],
          ['long-name', { text: '22', tone: 'bad' as const }],
        ],
      },
    ];
    const plain = renderText(doc, { color: false });
    expect(plain).toBe('  id          n\n  ---------  --\n  a\\x1bb      1\n  long-name  22\n');
    const coloured = renderText(doc, { color: true });
    expect(coloured).toContain('\u001b[31m22\u001b[0m');
  });

  it('formatJson spells non-finite numbers and escapes bidi controls, and parses back to the same strings', () => {
    const value = { score: NaN, up: Infinity, down: -Infinity, id: 'a\u202eb\u0085c\u001b' };
    const text = formatJson(value);
    expect(DANGEROUS.test(text)).toBe(false);
    expect(JSON.parse(text)).toEqual({ score: 'NaN', up: 'Infinity', down: '-Infinity', id: value.id });
  });
});

describe('hostile ids through the CLI', () => {
  const evilId = 'billing\u001b[2J\u001b]8;;http://evil\u0007|x\u202e\nforged';
  const evilRouter = 'desk\u009b31m';
  let tmp: { dir: string; cleanup: () => void };
  let file: WrittenTraceFile;
  beforeAll(async () => {
    tmp = makeTempDir();
    file = await writeTraceFile(join(tmp.dir, 'evil.jsonl'), [
      {
        scores: [
          { id: evilId, score: 1 },
          { id: 'refunds', score: 0.98 },
        ],
        router: evilRouter,
        trace: 't',
        conversationId: 'c\u001b',
      },
    ]);
  });
  afterAll(() => tmp.cleanup());

  it('text escapes every id and name from the trace', async () => {
    for (const argv of [
      ['analyze', file.path],
      ['hotspots', file.path],
      ['explain', file.traceIds.get('t')!, file.path],
    ]) {
      const r = await cli(argv);
      expect(DANGEROUS.test(r.stdout), argv[0]).toBe(false);
      expect(r.stdout).toContain('billing\\x1b[2J\\x1b]8;;http://evil\\x07|x\\u202e\\nforged');
      expect(r.stdout).not.toMatch(/^forged/m);
    }
  });

  it('Markdown escapes ids and keeps the table intact', async () => {
    const r = await cli(['hotspots', file.path, '--format', 'markdown']);
    expect(DANGEROUS.test(r.stdout)).toBe(false);
    const row = r.stdout.split('\n').find((l) => l.includes('refunds') && l.startsWith('|'))!;
    expect(row).toContain('\\|x');
    expect(row.split(/(?<!\\)\|/).length).toBe(14); // 12 columns
  });

  it('JSON keeps the exact id for a parser and stays inert as text', async () => {
    const r = await cli(['hotspots', file.path, '--format', 'json']);
    expect(DANGEROUS.test(r.stdout)).toBe(false);
    const json = JSON.parse(r.stdout) as { hotspots: { pair: string[]; router: string }[] };
    expect(json.hotspots[0]!.pair).toContain(evilId);
    expect(json.hotspots[0]!.router).toBe(evilRouter);
  });

  it('the explain target echoed in a message is escaped too', async () => {
    const r = await cli(['explain', 'nothing\u001b[31m', file.path]);
    expect(r.code).toBe(2);
    expect(DANGEROUS.test(r.stderr)).toBe(false);
  });
});
