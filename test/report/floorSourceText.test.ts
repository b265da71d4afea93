// How explain names a floor's origin, one rule per source: the policy's (over the scorer's when both set one),
// the scorer's, and an event's effective floor, which is never called the policy's or an override.
import { describe, expect, it } from 'vitest';
import { explainDecisions } from '../../src/analyze/explainDecisions.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { explainToDocument } from '../../src/report/presentExplain.js';
import { renderText } from '../../src/report/renderText.js';
import { decision, s } from '../analyze/decisionBuilder.js';

const scores = [s('a', 0.9), s('b', 0.1)];

function floorRow(d: DecisionRecord): string {
  const report = explainDecisions([{ ...d, conversationId: 'c-1' }], 'c-1');
  const text = renderText(explainToDocument({ report, links: {} }), { color: false });
  const line = text.split('\n').find((l) => /^\s*floor\s/.test(l));
  if (line === undefined) throw new Error(`no floor row in:\n${text}`);
  return line.trim();
}

describe('the floor row of explain', () => {
  it("a policy floor is the policy's; over a scorer floor it says so", () => {
    expect(floorRow(decision({ scores, policy: { floor: 0.2 } }))).toBe("floor          0.2 (the policy's)");
    expect(floorRow(decision({ scores, policy: { floor: 0.2 }, scorer: { floor: 0 } }))).toBe(
      "floor          0.2 (the policy's, over the scorer's 0)",
    );
  });

  it("a scorer floor alone is the scorer's", () => {
    expect(floorRow(decision({ scores, scorer: { floor: 0 } }))).toBe("floor          0 (the scorer's)");
  });

  it("an event's floor is the effective floor, never the policy's, never an override", () => {
    const d = decision({ scores, policy: { floor: 0 } });
    const row = floorRow({ ...d, policy: { nearTieMargin: 0.15, menuSize: 3 }, floorSource: 'effective' });
    expect(row).toBe(
      "floor          0 (effective floor: the policy's or the scorer's, the turn_routed event does not say which)",
    );
    expect(row).not.toMatch(/override/);
  });

  it('no floor: floorless', () => {
    expect(floorRow(decision({ scores }))).toBe('floor          none (floorless: unmatched unreachable)');
  });
});
