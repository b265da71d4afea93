import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createClassifierScorer,
  createDemoScorer,
  createEmbeddingScorer,
  createKeywordScorer,
} from '../../src/demo/demoScorers.js';
import { DEMO_SKILLS } from '../../src/demo/demoSkills.js';

const ids = DEMO_SKILLS.map((s) => s.id);
const scorers = [
  createKeywordScorer(DEMO_SKILLS),
  createEmbeddingScorer(DEMO_SKILLS),
  createClassifierScorer(DEMO_SKILLS),
];

describe('declared traits (what the analyzer judges)', () => {
  it('keyword: floor 0, not categorical', () => {
    expect(createDemoScorer('keyword', DEMO_SKILLS).traits).toEqual({ floor: 0, categorical: false });
  });
  it('embedding: no floor at all', () => {
    const traits = createDemoScorer('embedding', DEMO_SKILLS).traits;
    expect(traits.floor).toBeUndefined();
    expect(traits.categorical).toBe(false);
  });
  it('llm-classifier: floor 0, categorical', () => {
    expect(createDemoScorer('llm-classifier', DEMO_SKILLS).traits).toEqual({ floor: 0, categorical: true });
  });
});

describe('scores', () => {
  it('one score per requested id, in the order given; an unknown id scores 0', () => {
    for (const scorer of scorers) {
      const out = scorer.score('where is my refund', ['refunds', 'nope', 'billing']);
      expect(out.map((s) => s.id)).toEqual(['refunds', 'nope', 'billing']);
      expect(out[1]!.score).toBe(0);
    }
  });
  it("a skill's own phrasing scores 1 for that skill under keyword and embedding", () => {
    for (const skill of DEMO_SKILLS) {
      for (const name of ['keyword', 'embedding'] as const) {
        const scores = createDemoScorer(name, DEMO_SKILLS).score(skill.phrasings[0]!, ids);
        expect(scores.find((s) => s.id === skill.id)!.score, `${name} ${skill.id}`).toBeCloseTo(1, 12);
      }
    }
  });
  it('keyword: a message sharing no token with any skill scores 0 everywhere (unmatched is reachable)', () => {
    expect(
      createKeywordScorer(DEMO_SKILLS)
        .score('zzz qqq', ids)
        .every((s) => s.score === 0),
    ).toBe(true);
  });
  it('embedding: the same message still gets positive scores (it cannot say "none")', () => {
    const scores = createEmbeddingScorer(DEMO_SKILLS).score('the weather is lovely today', ids);
    expect(scores.some((s) => s.score > 0)).toBe(true);
  });
  it('overlapping vocabulary gives close keyword scores (refund vs cancel)', () => {
    const scores = createKeywordScorer(DEMO_SKILLS).score('I want to cancel the order and get a refund', ids);
    const by = Object.fromEntries(scores.map((s) => [s.id, s.score]));
    expect(by['refunds']!).toBeGreaterThan(0);
    expect(by['cancellations']!).toBeGreaterThan(0);
  });
  it('classifier: picks the best keyword evidence, or none', () => {
    const classifier = createClassifierScorer(DEMO_SKILLS);
    const picked = classifier.score('please reset my password', ids).filter((s) => s.score === 1);
    expect(picked.map((s) => s.id)).toEqual(['password-reset']);
    expect(classifier.score('zzz qqq', ids).every((s) => s.score === 0)).toBe(true);
  });
  it('property: every score in [0, 1]; the classifier picks at most one', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        for (const scorer of scorers) {
          const out = scorer.score(text, ids);
          expect(out).toHaveLength(ids.length);
          for (const s of out) {
            expect(s.score).toBeGreaterThanOrEqual(0);
            expect(s.score).toBeLessThanOrEqual(1);
          }
          if (scorer.traits.categorical === true) {
            expect(out.filter((s) => s.score !== 0).length).toBeLessThanOrEqual(1);
          }
        }
      }),
    );
  });
});
