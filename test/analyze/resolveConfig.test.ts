import { describe, expect, it } from 'vitest';
import { createChartDigest, DEFAULT_CHART_DIGEST_CONFIG } from '../../src/analyze/chartDigest.js';
import { createExplainAnalysis, DEFAULT_EXPLAIN_CONFIG } from '../../src/analyze/explainDecisions.js';
import { createFloorlessAnalysis, DEFAULT_FLOORLESS_CONFIG } from '../../src/analyze/findFloorlessScorers.js';
import { createHotspotAnalysis, DEFAULT_HOTSPOT_CONFIG } from '../../src/analyze/findNearTieHotspots.js';
import { createFlappingAnalysis, DEFAULT_FLAPPING_CONFIG } from '../../src/analyze/flapping.js';
import { createPolicyAudit, DEFAULT_POLICY_AUDIT_CONFIG } from '../../src/analyze/policyAudit.js';
import { createReplayAnalysis, DEFAULT_REPLAY_CONFIG } from '../../src/analyze/replay.js';
import { resolveConfig } from '../../src/analyze/resolveConfig.js';
import { createSummaryAnalysis, DEFAULT_SUMMARY_CONFIG } from '../../src/analyze/summarizeDecisions.js';
import { createTuneAnalysis, DEFAULT_TUNE_CONFIG } from '../../src/analyze/tune.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { generateWorkload } from './replayRecords.js';

interface Config {
  readonly size: number;
  readonly label: string;
  readonly on: boolean;
}
const DEFAULTS: Config = Object.freeze({ size: 3, label: 'x', on: true });

describe('resolveConfig', () => {
  it('an option given replaces its default; the others keep theirs', () => {
    expect(resolveConfig(DEFAULTS, { size: 5 })).toEqual({ size: 5, label: 'x', on: true });
  });

  it('an option given as undefined keeps its default', () => {
    expect(resolveConfig(DEFAULTS, { size: undefined, label: undefined })).toEqual(DEFAULTS);
  });

  it('falsy values are values: 0, empty text and false replace the default', () => {
    expect(resolveConfig(DEFAULTS, { size: 0, label: '', on: false })).toEqual({
      size: 0,
      label: '',
      on: false,
    });
  });

  it('no options: a copy of the defaults, never the frozen object itself', () => {
    const resolved = resolveConfig(DEFAULTS);
    expect(resolved).toEqual(DEFAULTS);
    expect(resolved).not.toBe(DEFAULTS);
    expect(Object.isFrozen(resolved)).toBe(false);
  });

  it('changes neither the defaults nor the options', () => {
    const options: Partial<Config> = { size: 9, label: undefined };
    resolveConfig(DEFAULTS, options);
    expect(DEFAULTS).toEqual({ size: 3, label: 'x', on: true });
    expect(options).toEqual({ size: 9, label: undefined });
  });
});

/** Every option of `defaults`, each given as undefined. */
function allUndefined(defaults: object): Record<string, undefined> {
  return Object.fromEntries(Object.keys(defaults).map((key) => [key, undefined]));
}

interface Streaming {
  add(record: DecisionRecord): void;
  finish(): unknown;
}

const RECORDS = generateWorkload(300);

/** Each analysis with its defaults and how to start it with options. */
const ANALYSES: ReadonlyArray<readonly [string, object, (config: Record<string, undefined>) => Streaming]> = [
  ['chartDigest', DEFAULT_CHART_DIGEST_CONFIG, (c) => createChartDigest(c)],
  ['explain', DEFAULT_EXPLAIN_CONFIG, (c) => createExplainAnalysis(RECORDS[0]!.traceId, c)],
  ['floorless', DEFAULT_FLOORLESS_CONFIG, (c) => createFloorlessAnalysis(c)],
  ['hotspots', DEFAULT_HOTSPOT_CONFIG, (c) => createHotspotAnalysis(c)],
  ['flapping', DEFAULT_FLAPPING_CONFIG, (c) => createFlappingAnalysis(c)],
  ['policyAudit', DEFAULT_POLICY_AUDIT_CONFIG, (c) => createPolicyAudit('auto', c)],
  ['replay', DEFAULT_REPLAY_CONFIG, (c) => createReplayAnalysis(c)],
  ['summary', DEFAULT_SUMMARY_CONFIG, (c) => createSummaryAnalysis(c)],
  ['tune', DEFAULT_TUNE_CONFIG, (c) => createTuneAnalysis(c)],
];

describe('every analysis fills its options through resolveConfig', () => {
  for (const [name, defaults, start] of ANALYSES) {
    it(`${name}: every option passed as undefined gives the report of its defaults`, () => {
      const given = start(allUndefined(defaults));
      const plain = start({});
      for (const record of RECORDS) {
        given.add(record);
        plain.add(record);
      }
      expect(given.finish()).toEqual(plain.finish());
    });
  }
});
