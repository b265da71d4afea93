/**
 * policyAudit.rules.test — the audit's smaller rules, one `it` each: which records can tell the behaviours
 * apart, what a replay is labelled, the order and the sums of the settled result, and the choices offered.
 */
import { describe, expect, it } from 'vitest';
import {
  behavioursMayDiffer,
  createPolicyAudit,
  POLICY_CHOICES,
  replayUnderBoth,
} from '../../src/analyze/policyAudit.js';
import { clauseCase as clause, decision, plainMove as plain, s } from './decisionBuilder.js';

describe('behavioursMayDiffer', () => {
  it('no floor anywhere: they cannot differ, whatever the incumbent scored', () => {
    const d = decision({
      scores: [s('f', -5), s('c', 1), s('i', 1)],
      incumbent: 'f',
      policy: { nearTieMargin: 1 },
    });
    expect(behavioursMayDiffer(d)).toBe(false);
  });

  it('an incumbent scored above the floor, among other candidates below it: they cannot differ', () => {
    // Only the incumbent's own score matters: `x` below the floor must not be taken for it.
    const d = decision({
      scores: [s('x', -1), s('f', 0.5), s('c', 1)],
      incumbent: 'f',
      policy: { floor: 0 },
    });
    expect(behavioursMayDiffer(d)).toBe(false);
  });

  it('an incumbent scored but left out of the record (its limit): it may be below the floor, so they may differ', () => {
    const d = decision({
      scores: [s('c', 1), s('i', 0.99), s('f', 0)],
      incumbent: 'f',
      policy: { nearTieMargin: 1, floor: 0 },
      maxCandidates: 2,
    });
    expect(d.ranked.map((c) => c.id)).toEqual(['c', 'i']);
    expect(behavioursMayDiffer(d)).toBe(true);
  });
});

describe('replayUnderBoth', () => {
  it('one replay serves both when they cannot differ, each labelled with its own behaviour', () => {
    const both = replayUnderBoth(plain());
    expect(both.contract).toMatchObject({ kind: 'replayed', semantics: 'contract' });
    expect(both['agentfootprint-9.62']).toMatchObject({ kind: 'replayed', semantics: 'agentfootprint-9.62' });
  });

  it('at the clause they are two replays with two verdicts', () => {
    const both = replayUnderBoth(clause('agentfootprint-9.62'));
    expect(both.contract).toMatchObject({ kind: 'replayed', verdict: 'menu', semantics: 'contract' });
    expect(both['agentfootprint-9.62']).toMatchObject({ kind: 'replayed', verdict: 'stay' });
  });

  it('an undecidable record stays undecidable under both, unlabelled', () => {
    const d = decision({
      scores: [s('a', 0.9), s('b', 0.5), s('c', 0.4)],
      policy: { nearTieMargin: 0.15 },
      maxCandidates: 1,
    });
    const both = replayUnderBoth(d);
    expect(both.contract.kind).toBe('undecidable');
    expect(both['agentfootprint-9.62']).toStrictEqual(both.contract);
  });
});

describe('the settled result', () => {
  it('services are listed busiest first, then by name, the service-less last', () => {
    const a = createPolicyAudit('auto');
    for (const service of ['beta', 'alpha', undefined, 'gamma', 'gamma']) {
      a.add(plain(service === undefined ? {} : { service }));
    }
    expect(a.finish().services.map((r) => r.service)).toEqual(['gamma', 'alpha', 'beta', null]);
  });

  it('audited is complete plus partial, and inconsistent counts settled and open findings together', () => {
    const a = createPolicyAudit('auto');
    // Recorded as 9.62 (settled) but a contract menu: inconsistent when judged by what it records.
    a.add({ ...clause('contract'), semantics: 'agentfootprint-9.62', service: 'desk' });
    // Unrecorded 9.62 clause cases: evidence for 9.62, consistent under it.
    a.add({ ...clause('agentfootprint-9.62'), service: 'desk' });
    a.add({ ...clause('agentfootprint-9.62'), service: 'desk' });
    // Unrecorded, but a contract menu: inconsistent under the service's 9.62.
    a.add({ ...clause('contract'), service: 'desk' });
    a.add(
      decision({
        scores: [s('c', 1), s('i', 0.99), s('f', 0)],
        incumbent: 'f',
        policy: { nearTieMargin: 1, floor: 0 },
        maxCandidates: 2,
        service: 'desk',
        behaviour: 'agentfootprint-9.62',
      }),
    );
    const r = a.finish();
    // Evidence ties 2–2 (the partial record is undecidable under the contract: no evidence), so what the
    // decisions record settles it.
    expect(r.services[0]).toMatchObject({ semantics: 'agentfootprint-9.62', resolvedBy: 'recorded' });
    expect(r.inconsistent).toBe(2);
    expect(r.services[0]!.inconsistent).toBe(2);
    expect(r.audited).toBe(r.complete + r.partial);
    expect(r.partial).toBeGreaterThan(0);
    expect(r.audited).toBe(5 - r.undecidable);
  });

  it('finish keeps the examples it was asked for, even past the settled ones (the list is its own copy)', () => {
    const a = createPolicyAudit('auto', { maxExamples: 3 });
    a.add({ ...clause('contract'), semantics: 'agentfootprint-9.62', service: 'desk' });
    a.add({ ...clause('agentfootprint-9.62'), service: 'desk' });
    a.add({ ...clause('agentfootprint-9.62'), service: 'desk' });
    a.add({ ...clause('contract'), service: 'desk' });
    const first = a.finish();
    expect(first.examples.map((e) => e.seq)).toEqual([0, 3]);
    expect(first.examples.map((e) => e.semantics)).toEqual(['agentfootprint-9.62', 'agentfootprint-9.62']);
  });

  it('maxExamples is a cap: exactly that many kept, the first ones', () => {
    const a = createPolicyAudit('contract', { maxExamples: 2 });
    for (let i = 0; i < 4; i++) a.add(clause('agentfootprint-9.62'));
    const r = a.finish();
    expect(r.inconsistent).toBe(4);
    expect(r.examples.map((e) => e.seq)).toEqual([0, 1]);
  });

  it('a decision whose replay reproduces it is no example, even under a forced behaviour', () => {
    const a = createPolicyAudit('agentfootprint-9.62');
    a.add(clause('agentfootprint-9.62'));
    a.add(plain());
    const r = a.finish();
    expect(r.examples).toEqual([]);
    expect(r.inconsistent).toBe(0);
  });
});

describe('resolving a service', () => {
  it('evidence decides by the larger count, in either direction (one each way is a tie: recorded decides)', () => {
    const tie = createPolicyAudit('auto');
    tie.add({ ...clause('contract'), service: 'desk' });
    tie.add({ ...clause('agentfootprint-9.62'), service: 'desk' });
    tie.add({ ...plain(), semantics: 'agentfootprint-9.62', service: 'desk' });
    expect(tie.finish().services[0]).toMatchObject({
      semantics: 'agentfootprint-9.62',
      resolvedBy: 'recorded',
    });
  });

  it('recorded decides by the larger count: two contract against one 9.62 is the contract', () => {
    const a = createPolicyAudit('auto');
    a.add({ ...plain(), semantics: 'contract', service: 'desk' });
    a.add({ ...plain(), semantics: 'contract', service: 'desk' });
    a.add({ ...plain(), semantics: 'agentfootprint-9.62', service: 'desk' });
    expect(a.finish().services[0]).toMatchObject({ semantics: 'contract', resolvedBy: 'recorded' });
    const b = createPolicyAudit('auto');
    b.add({ ...plain(), semantics: 'contract', service: 'desk' });
    b.add({ ...plain(), semantics: 'agentfootprint-9.62', service: 'desk' });
    b.add({ ...plain(), semantics: 'agentfootprint-9.62', service: 'desk' });
    expect(b.finish().services[0]).toMatchObject({
      semantics: 'agentfootprint-9.62',
      resolvedBy: 'recorded',
    });
  });

  it('judge never creates a service: a service never added is judged by the default, and stays unlisted', () => {
    const a = createPolicyAudit('auto');
    a.add({ ...clause('agentfootprint-9.62'), service: 'desk' });
    expect(a.judge({ ...plain(), service: 'other' })).toBe('contract');
    expect(a.judge({ ...plain(), service: 'desk' })).toBe('agentfootprint-9.62');
    expect(a.finish().services.map((r) => r.service)).toEqual(['desk']);
  });

  it('past maxServices, judge reads the shared row only once a decision was pooled', () => {
    const a = createPolicyAudit('auto', { maxServices: 1 });
    a.add({ ...plain(), service: 'one' });
    expect(a.judge({ ...plain(), service: 'two' })).toBe('contract');
    a.add({ ...clause('agentfootprint-9.62'), service: 'two' });
    expect(a.judge({ ...plain(), service: 'three' })).toBe('agentfootprint-9.62');
  });

  it('a forced behaviour judges every decision by it, whatever it records', () => {
    const a = createPolicyAudit('contract');
    expect(a.judge({ ...plain(), semantics: 'agentfootprint-9.62' })).toBe('contract');
    expect(a.add({ ...plain(), semantics: 'agentfootprint-9.62' }).semantics).toBe('contract');
  });
});

describe('POLICY_CHOICES', () => {
  it('is auto, then the two published behaviours', () => {
    expect(POLICY_CHOICES).toEqual(['auto', 'contract', 'agentfootprint-9.62']);
  });
});
