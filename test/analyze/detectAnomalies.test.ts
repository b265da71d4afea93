// detectAnomalies — the edges of each check: odd thresholds, duplicate ids, the replay's inconsistency.
import { describe, expect, it } from 'vitest';
import {
  ANOMALY_KINDS,
  detectAnomalies,
  detectThresholdAnomalies,
  findDuplicateIds,
} from '../../src/analyze/detectAnomalies.js';
import { clauseCase, decision, s } from './decisionBuilder.js';

describe('detectAnomalies: edges', () => {
  it('the kinds, in report order', () => {
    expect(ANOMALY_KINDS).toStrictEqual([
      'odd-margin',
      'odd-menu-size',
      'duplicate-candidates',
      'inconsistent',
    ]);
  });

  it('a margin just above 0 is not odd; a negative or infinite one is', () => {
    const d = decision({ scores: [s('a', 1)] });
    const with_ = (nearTieMargin: number) => ({ ...d, policy: { ...d.policy, nearTieMargin } });
    expect(detectThresholdAnomalies(with_(1e-9))).toStrictEqual([]);
    expect(detectThresholdAnomalies(with_(-0.1))).toStrictEqual([{ kind: 'odd-margin', margin: -0.1 }]);
    expect(detectThresholdAnomalies(with_(Infinity))).toStrictEqual([
      { kind: 'odd-margin', margin: Infinity },
    ]);
  });

  it('a menu size of 2 is not odd; 1, 0 or a non-finite one is', () => {
    const d = decision({ scores: [s('a', 1)] });
    const with_ = (menuSize: number) => ({ ...d, policy: { ...d.policy, menuSize } });
    expect(detectThresholdAnomalies(with_(2))).toStrictEqual([]);
    expect(detectThresholdAnomalies(with_(0))).toStrictEqual([{ kind: 'odd-menu-size', menuSize: 0 }]);
    expect(detectThresholdAnomalies(with_(NaN))).toStrictEqual([{ kind: 'odd-menu-size', menuSize: NaN }]);
    expect(detectThresholdAnomalies(with_(Infinity))).toStrictEqual([
      { kind: 'odd-menu-size', menuSize: Infinity },
    ]);
  });

  it('several anomalies of one decision are all listed, in report order', () => {
    const d = decision({ scores: [s('a', 1), s('a', 0.5)] });
    const odd = { ...d, policy: { ...d.policy, nearTieMargin: 0, menuSize: 1 } };
    expect(detectThresholdAnomalies(odd).map((a) => a.kind)).toStrictEqual([
      'odd-margin',
      'odd-menu-size',
      'duplicate-candidates',
    ]);
  });

  it('no id repeated, no duplicates; each repeated id once, first seen first', () => {
    expect(findDuplicateIds([])).toStrictEqual([]);
    expect(findDuplicateIds(['a', 'b'])).toStrictEqual([]);
    expect(findDuplicateIds(['b', 'a', 'a', 'b', 'b'])).toStrictEqual(['a', 'b']);
  });

  it('a verdict the replay does not reproduce is inconsistent, with the differences and the behaviour', () => {
    const d = clauseCase('agentfootprint-9.62');
    const check = detectAnomalies(d);
    expect(check.anomalies).toStrictEqual([
      {
        kind: 'inconsistent',
        differences: [expect.stringMatching(/verdict: recorded stay, replayed menu/)],
        semantics: 'contract',
      },
    ]);
    expect(check.replay).toMatchObject({ kind: 'replayed', verdict: 'menu' });
  });

  it('judged by the behaviour that produced it, the same decision is consistent', () => {
    const check = detectAnomalies(clauseCase('agentfootprint-9.62'), 'agentfootprint-9.62');
    expect(check.anomalies).toStrictEqual([]);
    expect(check.replay).toMatchObject({
      kind: 'replayed',
      verdict: 'stay',
      semantics: 'agentfootprint-9.62',
    });
  });

  it('an undecidable replay is no inconsistency', () => {
    const cut = decision({ scores: [s('a', 0.9), s('b', 0.5)], maxCandidates: 1 });
    const check = detectAnomalies(cut);
    expect(check.replay.kind).toBe('undecidable');
    expect(check.anomalies).toStrictEqual([]);
  });
});
