// A trace id routescope synthesized (an event-log record's) is marked wherever a report prints it: anomaly
// examples, flapping conversations and examples, hot spots; JSON says it beside the id. A span's own id is not.
import { describe, expect, it } from 'vitest';
import { findFlapping } from '../../src/analyze/flapping.js';
import { findFloorlessScorers } from '../../src/analyze/findFloorlessScorers.js';
import { findNearTieHotspots } from '../../src/analyze/findNearTieHotspots.js';
import { summarizeDecisions } from '../../src/analyze/summarizeDecisions.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { analyzeToDocument, analyzeToJson } from '../../src/report/presentAnalyze.js';
import { flappingToDocument, flappingToJson } from '../../src/report/presentFlapping.js';
import { renderText } from '../../src/report/renderText.js';
import { buildTraceLinks } from '../../src/report/traceLinks.js';
import { decision, s, tid } from '../analyze/decisionBuilder.js';

const T = tid('made-up');
const made = (d: DecisionRecord): DecisionRecord => ({ ...d, syntheticTraceId: true });

function analyzeText(records: DecisionRecord[]): { text: string; json: Record<string, unknown> } {
  const view = {
    summary: summarizeDecisions(records),
    hotspots: findNearTieHotspots(records),
    floorless: findFloorlessScorers(records),
    gates: [],
  };
  return { text: renderText(analyzeToDocument(view), { color: false }), json: analyzeToJson(view, 1) };
}

describe('synthetic trace ids in reports', () => {
  it('an anomaly example: marked in text, syntheticTraceId on its location in JSON', () => {
    const odd = made(
      decision({ scores: [s('a', 0.9), s('b', 0.1)], policy: { nearTieMargin: 0 }, traceId: T }),
    );
    const { text, json } = analyzeText([odd]);
    expect(text).toContain(`trace ${T} (synthetic) span`);
    const [example] = json.anomalyExamples as { at: { traceId: string; syntheticTraceId?: boolean } }[];
    expect(example!.at).toMatchObject({ traceId: T, syntheticTraceId: true });
    const own = analyzeText([{ ...odd, syntheticTraceId: undefined } as DecisionRecord]);
    expect(own.text).not.toContain('(synthetic)');
  });

  it('a hot spot whose example is made up: marked, with the legend saying what that means', () => {
    const tied = [1, 2].map(() =>
      made(decision({ scores: [s('a', 0.9), s('b', 0.89)], traceId: T, conversationId: 'c' })),
    );
    const { text, json } = analyzeText(tied);
    expect(text).toContain(`${T} (synthetic)`);
    expect(text).toMatch(/synthetic +a trace id routescope made up for an event-log record/);
    const [h] = json.hotspots as { syntheticTraceIds: string[] }[];
    expect(h!.syntheticTraceIds).toStrictEqual([T]);
  });

  it('a flapping conversation keyed by a made-up trace id, and its examples: marked', () => {
    const step = (from: string, to: string, t: number) =>
      made(decision({ scores: [s(to, 0.9), s(from, 0.1)], incumbent: from, traceId: T, timeUnixMs: t }));
    const report = findFlapping([step('a', 'b', 1), step('b', 'a', 2), step('a', 'b', 3)]);
    const text = renderText(flappingToDocument({ report }), { color: false });
    expect(text).toContain(`${T} (synthetic) (trace)`);
    expect(text).toMatch(/\[[0-9a-f]{32} \(synthetic\)\]/);
    const json = flappingToJson({ report }, 1);
    const [c] = json.topConversations as {
      syntheticId?: boolean;
      examples: { syntheticTraceIds?: string[] }[];
    }[];
    expect(c!.syntheticId).toBe(true);
    expect(c!.examples[0]!.syntheticTraceIds).toStrictEqual([T]);
  });

  it('no trace-store link for a made-up id; a real one is linked as before', () => {
    const cfg = { jaegerUrl: 'http://jaeger', grafanaUrl: 'http://grafana' };
    expect(buildTraceLinks(T, 0, 1, cfg, true)).toStrictEqual({});
    expect(buildTraceLinks(T, 0, 1, cfg).jaeger).toBe(`http://jaeger/trace/${T}`);
  });
});
