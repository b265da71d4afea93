import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addCounts,
  charNgramCounts,
  countCosine,
  setCosine,
  stemWord,
  tokenize,
} from '../../src/demo/textVectors.js';

const words = fc.array(fc.constantFrom('refund', 'order', 'card', 'late', 'label', 'app', 'code', 'x'), {
  maxLength: 8,
});
const counts = fc
  .array(fc.tuple(fc.constantFrom('ab', 'bc', 'cd', 'de', 'ef'), fc.integer({ min: 1, max: 9 })), {
    maxLength: 6,
  })
  .map((pairs) => new Map(pairs));

describe('setCosine', () => {
  it('identical non-empty sets → 1', () => {
    expect(setCosine(new Set(['a', 'b', 'c']), new Set(['c', 'b', 'a']))).toBe(1);
  });
  it('disjoint sets → 0', () => {
    expect(setCosine(new Set(['a', 'b']), new Set(['c']))).toBe(0);
  });
  it('an empty set → 0, not NaN', () => {
    expect(setCosine(new Set(), new Set(['a']))).toBe(0);
    expect(setCosine(new Set(), new Set())).toBe(0);
  });
  it('|A ∩ B| / sqrt(|A|·|B|)', () => {
    expect(setCosine(new Set(['a', 'b']), new Set(['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']))).toBeCloseTo(
      0.25,
      12,
    );
  });
  it('property: in [0, 1] and symmetric', () => {
    fc.assert(
      fc.property(words, words, (a, b) => {
        const x = setCosine(new Set(a), new Set(b));
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(1);
        expect(setCosine(new Set(b), new Set(a))).toBe(x);
      }),
    );
  });
});

describe('countCosine', () => {
  it('a vector with itself → 1', () => {
    const v = new Map([
      ['ab', 3],
      ['cd', 1],
    ]);
    expect(countCosine(v, v)).toBeCloseTo(1, 12);
  });
  it('orthogonal vectors → 0', () => {
    expect(countCosine(new Map([['ab', 2]]), new Map([['cd', 5]]))).toBe(0);
  });
  it('scale does not matter (cosine of v and 3v is 1)', () => {
    const v = new Map([
      ['ab', 1],
      ['bc', 2],
    ]);
    const w = new Map([
      ['ab', 3],
      ['bc', 6],
    ]);
    expect(countCosine(v, w)).toBeCloseTo(1, 12);
  });
  it('dot / (|a|·|b|) on a worked example', () => {
    const a = new Map([
      ['ab', 1],
      ['bc', 1],
    ]);
    const b = new Map([['ab', 1]]);
    expect(countCosine(a, b)).toBeCloseTo(1 / Math.SQRT2, 12);
  });
  it('property: in [0, 1], symmetric, self-similarity 1', () => {
    fc.assert(
      fc.property(counts, counts, (a, b) => {
        const x = countCosine(a, b);
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(1);
        expect(countCosine(b, a)).toBeCloseTo(x, 12);
        if (a.size > 0) expect(countCosine(a, a)).toBeCloseTo(1, 12);
      }),
    );
  });
});

describe('tokens and n-grams', () => {
  it('stop words go, inflections meet', () => {
    expect(tokenize('I want my REFUNDS, please')).toEqual(['want', 'refund']);
    expect(stemWord('refunded')).toBe(stemWord('refund'));
    expect(stemWord('cancelled')).toBe(stemWord('cancel'));
    expect(stemWord('cancelling')).toBe(stemWord('cancel'));
    expect(stemWord('charges')).toBe(stemWord('charged'));
    expect(stemWord('crashes')).toBe(stemWord('crash'));
  });
  it('trigrams are taken over the padded, lower-cased text', () => {
    const grams = charNgramCounts('Hi, HI');
    expect([...grams.entries()]).toEqual([
      [' hi', 2],
      ['hi ', 2],
      ['i h', 1],
    ]);
  });
  it('a text shorter than n has no n-gram', () => {
    expect(charNgramCounts('', 3).size).toBe(0);
  });
  it('addCounts sums term frequencies', () => {
    const sum = addCounts(
      new Map([['ab', 1]]),
      new Map([
        ['ab', 2],
        ['cd', 1],
      ]),
    );
    expect(Object.fromEntries(sum)).toEqual({ ab: 3, cd: 1 });
  });
});
