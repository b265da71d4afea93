/**
 * policyAudit.test — `--policy`: which published behaviour judges each decision, and the audit under it.
 * One `it` per rule of `auto`, then the law that lets one replay serve both behaviours.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  behavioursMayDiffer,
  createPolicyAudit,
  replayUnderBoth,
  type PolicyChoice,
} from '../../src/analyze/policyAudit.js';
import { replayDecision as replayDecisionFor, type ReplayOutcome } from '../../src/analyze/replayDecision.js';
import type { PolicySemantics } from '../../src/policy/types.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { clauseCase as clause, decision, plainMove as plain, s } from './decisionBuilder.js';

function audit(choice: PolicyChoice, records: readonly DecisionRecord[]) {
  const a = createPolicyAudit(choice);
  const judged = records.map((r) => a.add(r).semantics);
  return { judged, result: a.finish(), final: records.map((r) => a.judge(r)) };
}

describe('--policy auto', () => {
  it('a service with no recorded behaviour and a 9.62 clause case resolves to agentfootprint-9.62', () => {
    const { result } = audit('auto', [
      plain({ service: 'desk' }),
      clause('agentfootprint-9.62', { service: 'desk' }),
    ]);
    expect(result.services).toEqual([
      expect.objectContaining({
        service: 'desk',
        semantics: 'agentfootprint-9.62',
        resolvedBy: 'evidence',
        inconsistent: 0,
      }),
    ]);
    expect(result.inconsistent).toBe(0);
  });

  it('the same service with a contract clause case resolves to the contract', () => {
    const { result } = audit('auto', [plain({ service: 'desk' }), clause('contract', { service: 'desk' })]);
    expect(result.services[0]).toMatchObject({
      semantics: 'contract',
      resolvedBy: 'evidence',
      inconsistent: 0,
    });
  });

  it('services are resolved apart: one runs 9.62, another the contract', () => {
    const { final, result } = audit('auto', [
      clause('agentfootprint-9.62', { service: 'old' }),
      clause('contract', { service: 'new' }),
      plain({ service: 'old' }),
    ]);
    expect(final).toEqual(['agentfootprint-9.62', 'contract', 'agentfootprint-9.62']);
    expect(result.inconsistent).toBe(0);
  });

  it('a decision that records its behaviour is judged by it, whatever its service shows', () => {
    const labelled = clause('agentfootprint-9.62', { service: 'desk', override: { semantics: 'contract' } });
    const { judged, result } = audit('auto', [
      clause('agentfootprint-9.62', { service: 'desk' }),
      clause('agentfootprint-9.62', { service: 'desk' }),
      labelled,
    ]);
    expect(judged[2]).toBe('contract');
    expect(result.inconsistent).toBe(1);
    expect(result.examples.map((e) => e.record)).toEqual([labelled]);
  });

  it('no evidence: the behaviour most of the service decisions record', () => {
    const { final, result } = audit('auto', [
      plain({ service: 'desk', override: { semantics: 'agentfootprint-9.62' } }),
      plain({ service: 'desk' }),
    ]);
    expect(final[1]).toBe('agentfootprint-9.62');
    expect(result.services[0]).toMatchObject({
      resolvedBy: 'recorded',
      recorded: { contract: 0, 'agentfootprint-9.62': 1 },
    });
  });

  it('no evidence and nothing recorded: the contract, by default', () => {
    const { result } = audit('auto', [plain(), plain()]);
    expect(result.services[0]).toMatchObject({ service: null, semantics: 'contract', resolvedBy: 'default' });
  });

  it('a decision neither behaviour reproduces is inconsistent', () => {
    const broken = plain({ override: { verdict: 'stay' } });
    const { result } = audit('auto', [broken]);
    expect(result.inconsistent).toBe(1);
    expect(result.services[0]!.evidence).toEqual({ contract: 0, 'agentfootprint-9.62': 0 });
  });

  it('streaming, a decision before any evidence is judged by the contract', () => {
    const { judged, final } = audit('auto', [
      plain({ service: 'desk' }),
      clause('agentfootprint-9.62', { service: 'desk' }),
    ]);
    expect(judged).toEqual(['contract', 'agentfootprint-9.62']);
    expect(final).toEqual(['agentfootprint-9.62', 'agentfootprint-9.62']);
  });

  it('the count is settled at the end: in a mixed service the minority is inconsistent, whatever the order', () => {
    const early = clause('contract', { service: 'desk' });
    const records = [
      early,
      clause('agentfootprint-9.62', { service: 'desk' }),
      clause('agentfootprint-9.62', { service: 'desk' }),
    ];
    const { judged, result } = audit('auto', records);
    // While reading, the second was judged by the contract (a tie, so the default); at the end 9.62 leads.
    expect(judged[1]).toBe('contract');
    expect(result.services[0]).toMatchObject({
      semantics: 'agentfootprint-9.62',
      evidence: { contract: 1, 'agentfootprint-9.62': 2 },
    });
    expect(result.inconsistent).toBe(1);
    expect(result.examples.map((e) => e.record)).toEqual([early]);
  });

  it('examples are the first inconsistent decisions in input order, capped', () => {
    const a = createPolicyAudit('auto', { maxExamples: 2 });
    const bad = [0, 1, 2].map(() => plain({ override: { semantics: 'contract', verdict: 'stay' } }));
    const late = [0, 1].map(() => plain({ service: 'x', override: { verdict: 'stay' } }));
    for (const r of [late[0]!, bad[0]!, bad[1]!, late[1]!, bad[2]!]) a.add(r);
    const result = a.finish();
    expect(result.inconsistent).toBe(5);
    expect(result.examples.map((e) => e.record)).toEqual([late[0], bad[0]]);
  });

  it('past maxServices the rest share one row named (other)', () => {
    const a = createPolicyAudit('auto', { maxServices: 1 });
    for (const svc of ['a', 'b', 'c']) a.add(plain({ service: svc }));
    expect(a.finish().services.map((r) => [r.service, r.decisions])).toEqual([
      ['(other)', 2],
      ['a', 1],
    ]);
  });
});

describe('a forced --policy', () => {
  it('--policy contract: a 9.62 clause case is inconsistent, even when it records 9.62', () => {
    const rec = clause('agentfootprint-9.62', { override: { semantics: 'agentfootprint-9.62' } });
    const { judged, result } = audit('contract', [rec]);
    expect(judged).toEqual(['contract']);
    expect(result.inconsistent).toBe(1);
    expect(result.services[0]).toMatchObject({ semantics: 'contract', resolvedBy: 'forced' });
  });

  it('--policy agentfootprint-9.62: a contract menu at the clause case is inconsistent', () => {
    const { result } = audit('agentfootprint-9.62', [clause('contract'), plain()]);
    expect(result.inconsistent).toBe(1);
  });
});

describe('behavioursMayDiffer', () => {
  it('only a scored incumbent at/below some floor can tell the behaviours apart', () => {
    expect(behavioursMayDiffer(clause('contract'))).toBe(true);
    // An incumbent alive above the floor, or no floor at all: the clause cannot apply.
    expect(
      behavioursMayDiffer(decision({ scores: [s('a', 2), s('b', 1)], incumbent: 'b', policy: { floor: 0 } })),
    ).toBe(false);
    expect(behavioursMayDiffer(decision({ scores: [s('a', 2), s('b', 0)], incumbent: 'b' }))).toBe(false);
    expect(
      behavioursMayDiffer(decision({ scores: [s('a', 1), s('b', 1)], incumbent: 'a', policy: { floor: 0 } })),
    ).toBe(false);
    expect(
      behavioursMayDiffer(decision({ scores: [s('a', 1), s('b', 1)], incumbent: 'z', policy: { floor: 0 } })),
    ).toBe(false);
  });

  it('a threshold can make them differ: a floor raised over the incumbent', () => {
    const rec = decision({
      scores: [s('a', 0.5), s('b', 0.9), s('c', 0.9)],
      incumbent: 'a',
      policy: { floor: 0 },
    });
    expect(behavioursMayDiffer(rec)).toBe(false);
    expect(behavioursMayDiffer(rec, { floor: 0.5 })).toBe(true);
  });

  it('law: when they cannot differ, both behaviours replay to the same verdict and differences', () => {
    const score = fc.oneof(fc.double({ min: -1, max: 2, noNaN: true }), fc.constantFrom(NaN, Infinity, 0));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), score), { maxLength: 6 }),
        fc.option(fc.constantFrom('a', 'b', 'z'), { nil: undefined }),
        fc.option(fc.constantFrom(0, 0.3, 0.6), { nil: undefined }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom<PolicySemantics>('contract', 'agentfootprint-9.62'),
        fc.option(fc.constantFrom(null, 0, 0.5, 1), { nil: undefined }),
        (pairs, incumbent, floor, margin, behaviour, replayFloor) => {
          const rec = decision({
            scores: pairs.map(([id, v]) => s(id, v)),
            ...(incumbent === undefined ? {} : { incumbent }),
            policy: { nearTieMargin: margin, ...(floor === undefined ? {} : { floor }) },
            behaviour,
          });
          const t = replayFloor === undefined ? {} : { floor: replayFloor };
          const direct = {
            contract: replayDecisionFor(rec, t, 'contract'),
            'agentfootprint-9.62': replayDecisionFor(rec, t, 'agentfootprint-9.62'),
          };
          if (!behavioursMayDiffer(rec, t)) {
            expect(strip(direct.contract)).toEqual(strip(direct['agentfootprint-9.62']));
          }
          // And the pair replayUnderBoth gives is the direct replays, either way.
          const both = replayUnderBoth(rec, t);
          expect(both.contract).toEqual(direct.contract);
          expect(strip(both['agentfootprint-9.62'])).toEqual(strip(direct['agentfootprint-9.62']));
        },
      ),
      { numRuns: 500 },
    );
  });
});

/** A replay without its behaviour label, to compare what the two behaviours decided. */
function strip(o: ReplayOutcome): unknown {
  if (o.kind !== 'replayed') return o;
  const { semantics: _s, ...rest } = o;
  return rest;
}
