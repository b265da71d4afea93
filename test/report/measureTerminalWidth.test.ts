/**
 * measureTerminalWidth — columns on a terminal, checked against the string-width package (what yargs and cliui lay
 * help out with, and what the bundled CLI replaces with measureTerminalWidth) on the cases a report can show, and
 * by laws: ANSI sequences add nothing, widths of clusters add up.
 */
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { measureTerminalWidth } from '../../src/report/measureTerminalWidth.js';

const CASES: ReadonlyArray<readonly [string, number]> = [
  ['', 0],
  ['routing.tier2', 13],
  ['日本語', 6],
  ['한국어', 6],
  ['ＡＢＣ', 6],
  ['ｶﾀｶﾅ', 4],
  ['skill-日本', 10],
  ['👍', 2],
  ['👍🏽', 2],
  ['👨‍👩‍👧', 2],
  ['🇯🇵', 2],
  ['1️⃣', 2],
  ['❤️', 2],
  ['❤', 1],
  ['⌚', 2],
  ['é', 1],
  ['e\u0301', 1],
  ['x\u0308y', 2],
  ['zero\u200bwidth', 9],
  ['soft\u00adhyphen', 10],
  ['a\tb', 2],
  ['\u0000x', 1],
  ['\ud800', 0],
  ['\u001b[31mred\u001b[0m', 3],
  ['\u001b[1;38;5;208mbold orange\u001b[22m', 11],
  ['\u001b]8;;https://example.com\u0007link\u001b]8;;\u0007', 4],
  ['Ａ👍b', 5],
];

describe('measureTerminalWidth', () => {
  it.each(CASES)('%j takes %i columns, as string-width counts it', (text, columns) => {
    expect(measureTerminalWidth(text)).toBe(columns);
    expect(stringWidth(text)).toBe(columns);
  });

  it('law: agrees with string-width on strings drawn from ASCII, CJK, Hangul, marks, emoji and ANSI colour', () => {
    const pieces = CASES.map(([text]) => text).filter((text) => !text.includes('\ud800'));
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces, ' ', '-', 'q')), (parts) => {
        const text = parts.join('');
        expect(measureTerminalWidth(text)).toBe(stringWidth(text));
      }),
    );
  });

  it('law: colour codes around any text add no columns', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.integer({ min: 0, max: 255 }), (text, colour) => {
        expect(measureTerminalWidth(`\u001b[38;5;${colour}m${text}\u001b[0m`)).toBe(
          measureTerminalWidth(text),
        );
      }),
    );
  });

  it('law: printable ASCII takes one column per character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), (text) => {
        const printable = text.replace(/[^\x20-\x7e]/g, '');
        expect(measureTerminalWidth(printable)).toBe(printable.length);
      }),
    );
  });
});
