import { describe, expect, it } from 'vitest';
import { DEMO_CONVERSATIONS } from '../../src/demo/demoConversations.js';
import { DEMO_ROUTERS, DEMO_SKILLS } from '../../src/demo/demoSkills.js';

describe('the skill graph', () => {
  it('has 8 to 12 skills with unique ids', () => {
    expect(DEMO_SKILLS.length).toBeGreaterThanOrEqual(8);
    expect(DEMO_SKILLS.length).toBeLessThanOrEqual(12);
    expect(new Set(DEMO_SKILLS.map((s) => s.id)).size).toBe(DEMO_SKILLS.length);
  });
  it('every skill has an intent, keywords and at least five non-empty phrasings', () => {
    for (const s of DEMO_SKILLS) {
      expect(s.intent.trim(), s.id).not.toBe('');
      expect(s.keywords.length, s.id).toBeGreaterThan(0);
      expect(s.phrasings.length, s.id).toBeGreaterThanOrEqual(5);
      for (const p of s.phrasings) expect(p.trim(), s.id).not.toBe('');
    }
  });
  it('routers have unique names, known skills, and three different scorers', () => {
    const known = new Set(DEMO_SKILLS.map((s) => s.id));
    expect(new Set(DEMO_ROUTERS.map((r) => r.name)).size).toBe(DEMO_ROUTERS.length);
    for (const r of DEMO_ROUTERS)
      for (const id of r.skills) expect(known.has(id), `${r.name}: ${id}`).toBe(true);
    expect(new Set(DEMO_ROUTERS.map((r) => r.scorer))).toEqual(
      new Set(['keyword', 'embedding', 'llm-classifier']),
    );
  });
});

describe('the conversations', () => {
  const turns = DEMO_CONVERSATIONS.flatMap((c) => c.turns);
  it('60+ conversations of 2 to 6 turns, 200+ user messages', () => {
    expect(DEMO_CONVERSATIONS.length).toBeGreaterThanOrEqual(60);
    for (const c of DEMO_CONVERSATIONS) {
      expect(c.turns.length, c.id).toBeGreaterThanOrEqual(2);
      expect(c.turns.length, c.id).toBeLessThanOrEqual(6);
    }
    expect(turns.length).toBeGreaterThanOrEqual(200);
  });
  it('unique conversation ids', () => {
    expect(new Set(DEMO_CONVERSATIONS.map((c) => c.id)).size).toBe(DEMO_CONVERSATIONS.length);
  });
  it('every message is non-empty and labelled with a skill its router can reach', () => {
    const routers = new Map(DEMO_ROUTERS.map((r) => [r.name, new Set(r.skills)]));
    for (const c of DEMO_CONVERSATIONS) {
      const reachable = routers.get(c.router);
      expect(reachable, c.id).toBeDefined();
      for (const t of c.turns) {
        expect(t.text.trim(), c.id).not.toBe('');
        expect(reachable!.has(t.expected), `${c.id}: ${t.expected}`).toBe(true);
      }
    }
  });
  it('every router gets conversations', () => {
    for (const r of DEMO_ROUTERS)
      expect(
        DEMO_CONVERSATIONS.some((c) => c.router === r.name),
        r.name,
      ).toBe(true);
  });
});
