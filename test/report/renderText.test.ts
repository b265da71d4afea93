/**
 * renderText — tables stay aligned on a terminal when ids are written in wide characters or emoji: columns
 * are measured in terminal columns, not in code points.
 */
import { describe, expect, it } from 'vitest';
import { renderText } from '../../src/report/renderText.js';
import { measureTerminalWidth } from '../../src/report/measureTerminalWidth.js';

describe('renderText tables', () => {
  it('a column of CJK, Hangul, emoji and ASCII ids puts the next column at one terminal column', () => {
    const ids = ['billing', '請求書', '환불', '📦 shipping', 'ｶﾀｶﾅ'];
    const text = renderText(
      [
        {
          kind: 'table',
          columns: [{ title: 'skill' }, { title: 'decisions', align: 'right' }],
          rows: ids.map((id, i) => [id, String(10 ** i)]),
        },
      ],
      { color: false },
    );
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2 + ids.length);
    // Every line ends at the same terminal column, whatever its first cell is written in.
    const ends = new Set(lines.map(measureTerminalWidth));
    expect(ends).toEqual(new Set([measureTerminalWidth(lines[0]!)]));
    // 請求書 is 6 columns of the 11 that 📦 shipping needs: 5 of padding, the gap, then 10 right-aligned under 9.
    expect(lines[3]).toBe(`  請求書${' '.repeat(5)}  ${' '.repeat(7)}10`);
  });
});
