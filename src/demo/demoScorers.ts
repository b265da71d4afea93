/**
 * demoScorers — the demo's three tier-2 scorers, each computing its numbers from the text.
 *
 * They mirror the framework's built-in scorers in kind and in declared traits, which is what the analyzer
 * judges: `keyword` (token set-cosine against the skill's keyword set and each of its phrasings, the best
 * one counts; floor 0), `embedding` (cosine of character-trigram frequency vectors against the skill's intent
 * and each phrasing, the nearest one counts — an embedding stand-in that needs no model — and, like most
 * embedding scorers, NO floor: it can never say "none of these"), and `llm-classifier` (a categorical stand-in
 * for an LLM asked to pick one skill: it picks the best keyword evidence, or none when there is none; the pick
 * scores 1, the rest 0, floor 0). Every scorer ranks only the skills its router offers, in declaration order.
 * Pure. No I/O.
 */
import type { IntentScore, ScorerTraits } from '../policy/types.js';
import type { DemoSkill } from './demoSkills.js';
import { charNgramCounts, countCosine, setCosine, tokenize } from './textVectors.js';

/** The scorer names the demo records (`agentfootprint.routing.scorer.name`). */
export type DemoScorerName = 'keyword' | 'embedding' | 'llm-classifier';

/** A scorer: its recorded name and traits, and the scoring of one message against some skills. */
export interface DemoScorer {
  readonly name: DemoScorerName;
  readonly traits: ScorerTraits;
  /** One score per skill id, in the order given; unknown ids score 0. */
  score(text: string, skillIds: readonly string[]): IntentScore[];
}

/** Keyword scorer: the best set-cosine between the message's tokens and a skill's keyword or phrasing tokens. */
export function createKeywordScorer(skills: readonly DemoSkill[]): DemoScorer {
  const profiles = new Map<string, readonly ReadonlySet<string>[]>();
  for (const skill of skills) {
    const sets = [new Set(tokenize(skill.keywords.join(' ')))];
    for (const p of skill.phrasings) sets.push(new Set(tokenize(p)));
    profiles.set(skill.id, sets);
  }
  return {
    name: 'keyword',
    traits: { floor: 0, categorical: false },
    score(text, skillIds) {
      const message = new Set(tokenize(text));
      return skillIds.map((id) => {
        const profile = profiles.get(id);
        let best = 0;
        for (const set of profile ?? []) best = Math.max(best, setCosine(message, set));
        return { id, score: best };
      });
    },
  };
}

/** Embedding stand-in: the best cosine of character-trigram vectors, message vs the intent and each phrasing. */
export function createEmbeddingScorer(skills: readonly DemoSkill[]): DemoScorer {
  const profiles = new Map<string, readonly ReadonlyMap<string, number>[]>();
  for (const skill of skills) {
    profiles.set(
      skill.id,
      [skill.intent, ...skill.phrasings].map((t) => charNgramCounts(t)),
    );
  }
  return {
    name: 'embedding',
    traits: { categorical: false },
    score(text, skillIds) {
      const message = charNgramCounts(text);
      return skillIds.map((id) => {
        const profile = profiles.get(id);
        let best = 0;
        for (const vector of profile ?? []) best = Math.max(best, countCosine(message, vector));
        return { id, score: best };
      });
    },
  };
}

/**
 * Classifier stand-in: asks the keyword evidence for the best skill and answers with that one id (first
 * declared wins a tie, as a model's bias for the first option would), or with none when no skill shares a
 * single token with the message.
 */
export function createClassifierScorer(skills: readonly DemoSkill[]): DemoScorer {
  const evidence = createKeywordScorer(skills);
  return {
    name: 'llm-classifier',
    traits: { floor: 0, categorical: true },
    score(text, skillIds) {
      const keyword = evidence.score(text, skillIds);
      let pick: string | undefined;
      let best = 0;
      for (const s of keyword) {
        if (s.score > best) {
          best = s.score;
          pick = s.id;
        }
      }
      return skillIds.map((id) => ({ id, score: id === pick ? 1 : 0 }));
    },
  };
}

/** The scorer a router is declared with, built over the whole graph. */
export function createDemoScorer(name: DemoScorerName, skills: readonly DemoSkill[]): DemoScorer {
  switch (name) {
    case 'keyword':
      return createKeywordScorer(skills);
    case 'embedding':
      return createEmbeddingScorer(skills);
    case 'llm-classifier':
      return createClassifierScorer(skills);
  }
}
