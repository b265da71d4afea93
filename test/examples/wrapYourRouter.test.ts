import { describe, expect, it } from 'vitest';
import { runExample } from '../../examples/wrapYourRouter.js';
import { decideTier2, resolveRoutingPolicy } from '../../src/index.js';

describe('the README example', () => {
  it('returns the policy verdict and leaves a near-tie routing span', () => {
    const { verdict, span } = runExample();
    const expected = decideTier2(
      [
        { id: 'refunds', score: 0.61 },
        { id: 'returns', score: 0.6 },
        { id: 'shipping', score: 0.2 },
      ],
      undefined,
      resolveRoutingPolicy(),
      {},
    );
    expect(verdict).toEqual(expected);
    expect(verdict.kind).toBe('menu');
    expect(span?.name).toBe('agentfootprint.routing.tier2');
    expect(span?.attributes['agentfootprint.routing.near_tie']).toBe(true);
    expect(span?.attributes['agentfootprint.routing.router']).toBe('support-desk');
    expect(span?.attributes['gen_ai.conversation.id']).toBe('conv-42');
  });
});
