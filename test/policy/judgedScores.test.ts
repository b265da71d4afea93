/**
 * judgedScores: each entry is judged by its id's last sanitized score, found pairwise for a few candidates and
 * through the hash table past that — the same as a Map, at any size and with any ids, garbage included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgedScores } from '../../src/policy/judgedScores.js';
import type { IntentScore } from '../../src/policy/types.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

/** The reference: a Map from id to its last index (SameValueZero, which is === for every id but NaN). */
function byMap(scores: readonly IntentScore[], sanitized: number[]): number[] {
  const last = new Map<unknown, number>();
  scores.forEach((s, i) => last.set(s.id, i));
  return scores.map((s, i) => (Number.isNaN(s.id as unknown) ? sanitized[i]! : sanitized[last.get(s.id)!]!));
}

describe('judgedScores', () => {
  it('law: the same as a Map of last occurrences, for lists of 0 to 300 entries over few or many ids', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.array(fc.tuple(fc.nat(), fc.double({ noNaN: true })), { maxLength: 300 }),
        (idRange, entries) => {
          const scores = entries.map(([k, score]) => ({ id: `skill-${k % idRange}`, score }));
          const sanitized = scores.map((s) => s.score);
          expect(judgedScores(scores, sanitized.slice())).toEqual(byMap(scores, sanitized));
        },
      ),
      { numRuns: propertyRuns(200) },
    );
  });

  it('ids that are not strings (garbage input): NaN is never equal to itself, 1 and "1" are two ids', () => {
    const scores = [
      { id: NaN, score: 1 },
      { id: 'a', score: 2 },
      { id: NaN, score: 3 },
      { id: 1, score: 4 },
      { id: '1', score: 5 },
      { id: 'a', score: 6 },
      { id: 1, score: 7 },
      { id: 'b', score: 8 },
    ] as unknown as IntentScore[];
    const sanitized = scores.map((s) => s.score);
    expect(judgedScores(scores, sanitized.slice())).toEqual([1, 6, 3, 7, 5, 6, 7, 8]);
  });

  it('a million unique ids that share their first character, length and last two (skill-000000…): every one its own', () => {
    const n = 1_000_000;
    const scores = Array.from({ length: n }, (_, i) => ({
      id: `skill-${String(i).padStart(6, '0')}`,
      score: i,
    }));
    const sanitized = scores.map((s) => s.score);
    expect(judgedScores(scores, sanitized)).toBe(sanitized);
  });
});
