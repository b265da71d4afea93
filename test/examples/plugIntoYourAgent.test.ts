import { describe, expect, it } from 'vitest';
import { runExample } from '../../examples/plugIntoYourAgent.js';

describe("the README's first example", () => {
  it('turns the turn_routed event into a tier-2 span and a turn span; the other event into nothing', async () => {
    const spans = await runExample();
    expect(spans.map((s) => s.name).sort()).toEqual([
      'agentfootprint.routing.tier2',
      'agentfootprint.routing.turn',
    ]);
    const tier2 = spans.find((s) => s.name === 'agentfootprint.routing.tier2')!;
    expect(tier2.attributes['agentfootprint.routing.verdict']).toBe('menu');
    expect(tier2.attributes['agentfootprint.routing.offered']).toEqual(['shipping', 'billing']);
    expect(tier2.attributes['agentfootprint.routing.near_tie']).toBe(true);
    expect(tier2.attributes['agentfootprint.routing.policy.semantics']).toBe('agentfootprint-9.62');
    expect(tier2.attributes['agentfootprint.routing.router']).toBe('support-desk');
    expect(tier2.attributes['gen_ai.conversation.id']).toBe('sess-42');
    const turn = spans.find((s) => s.name === 'agentfootprint.routing.turn')!;
    expect(turn.attributes['agentfootprint.routing.by']).toBe('menu');
  });
});
