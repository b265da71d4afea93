/**
 * routescopeObservability.test — the agentfootprint strategy against the real 9.62 capture and a real SDK in
 * memory: what each event becomes, that nothing it is handed can make it throw or change, the join to the
 * framework's own turn spans, and flush/stop.
 */
import { readFileSync } from 'node:fs';
import {
  diag,
  DiagLogLevel,
  ROOT_CONTEXT,
  trace,
  type DiagLogger,
  type TracerProvider,
} from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { routescopeObservability } from '../../src/instrument/routescopeObservability.js';
import { ATTR_AGENTFOOTPRINT_RUN_ID } from '../../src/instrument/runSpanIndex.js';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_ROUTING_BY,
  ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES,
  ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES,
  ATTR_ROUTING_CANDIDATE_SCORES,
  ATTR_ROUTING_DECIDER_PICKED,
  ATTR_ROUTING_DROPPED_RESUME_ID,
  ATTR_ROUTING_POLICY_SEMANTICS,
  ATTR_ROUTING_REBUILT_DIFFERENCES,
  ATTR_ROUTING_REBUILT_VERDICT,
  ATTR_ROUTING_SCORER_NAME,
  ATTR_ROUTING_SOURCE,
  ATTR_ROUTING_VERDICT,
  ATTR_ROUTING_WITNESS_KEYWORD,
  ATTR_ROUTING_WITNESS_TEXT,
  SPAN_ROUTING_TIER2,
  SPAN_ROUTING_TURN,
} from '../../src/semconv/semconv.js';
import { createDecideTier2 } from '../../src/policy/routingPolicy.js';
import { decodeRoutingAttributes } from '../../src/trace/decodeRoutingAttributes.js';
import { createMemoryMeter, shutdownMemoryMeters } from '../helpers/memoryMeter.js';
import { createMemorySdk, toAttributeMap, type MemorySdk } from '../helpers/otelSdk.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

const FIXTURES = new URL('../../../shared/fixtures/agentfootprint/', import.meta.url);
const readLines = (name: string): Record<string, unknown>[] =>
  readFileSync(new URL(name, FIXTURES), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const EVENTS = readLines('turn_routed.jsonl');
const SCENARIOS = (
  JSON.parse(readFileSync(new URL('scenarios.json', FIXTURES), 'utf8')) as {
    events: { scenario: string; decideTier2: { kind: string } | null }[];
  }
).events;

type Payload = Record<string, unknown> & { scores?: Record<string, unknown>[] };
const payloadOf = (e: Record<string, unknown>): Payload => e.payload as Payload;
const ofName = (spans: ReadableSpan[], name: string): ReadableSpan[] => spans.filter((s) => s.name === name);

/** A diag logger that keeps every message, installed for one test. */
function captureDiag(): { warnings: string[]; restore: () => void } {
  const warnings: string[] = [];
  // A component logger hands its namespace over as the first argument.
  const keep = (...args: unknown[]): void => void warnings.push(args.map(String).join(' '));
  const logger: DiagLogger = { error: keep, warn: keep, info: () => {}, debug: () => {}, verbose: () => {} };
  diag.setLogger(logger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  return { warnings, restore: () => diag.disable() };
}

let sdk: MemorySdk;
beforeEach(() => {
  sdk = createMemorySdk();
});
afterEach(async () => {
  await sdk.shutdown();
  await shutdownMemoryMeters();
  diag.disable();
});

describe('the real capture, event by event', () => {
  it('one tier-2 span per event whose scorer ran (34), one turn span per event (46)', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    for (const e of EVENTS) strategy.exportEvent(e);
    expect(ofName(sdk.spans(), SPAN_ROUTING_TIER2)).toHaveLength(34);
    expect(ofName(sdk.spans(), SPAN_ROUTING_TURN)).toHaveLength(46);
  });

  it("each tier-2 span decodes to 9.62's verdict for its event, judged and recorded as agentfootprint-9.62", () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    EVENTS.forEach((e, i) => {
      sdk.reset();
      strategy.exportEvent(e);
      const [tier2] = ofName(sdk.spans(), SPAN_ROUTING_TIER2);
      const want = SCENARIOS[i]!.decideTier2;
      if (want === null) {
        expect(tier2, `event ${i}`).toBeUndefined();
        return;
      }
      const decoded = decodeRoutingAttributes(toAttributeMap(tier2!.attributes));
      expect(decoded.kind, `event ${i}`).toBe('ok');
      if (decoded.kind !== 'ok') return;
      expect(decoded.value.verdict, `event ${i}: ${SCENARIOS[i]!.scenario}`).toBe(want.kind);
      expect(tier2!.attributes[ATTR_ROUTING_POLICY_SEMANTICS]).toBe('agentfootprint-9.62');
      expect(tier2!.attributes[ATTR_ROUTING_SOURCE]).toBe('turn_routed');
      expect(tier2!.attributes[ATTR_ROUTING_REBUILT_VERDICT]).toBe(want.kind);
      expect(tier2!.attributes[ATTR_ROUTING_REBUILT_DIFFERENCES]).toBeUndefined();
      expect(tier2!.attributes[ATTR_ROUTING_SCORER_NAME]).toBe(payloadOf(e).scorer);
    });
  });

  it('conversation id from meta.sessionId, start and end at meta.wallClockMs, kind INTERNAL', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    strategy.exportEvent(EVENTS[0]);
    const meta = EVENTS[0]!.meta as { sessionId: string; wallClockMs: number };
    for (const span of sdk.spans()) {
      expect(span.attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe(meta.sessionId);
      expect(span.startTime).toEqual([Math.floor(meta.wallClockMs / 1000), (meta.wallClockMs % 1000) * 1e6]);
      expect(span.endTime).toEqual(span.startTime);
      expect(span.kind).toBe(0);
    }
  });

  it('the turn span carries by, the decider, the dropped resume and the witness keyword; witness text only when asked', () => {
    const find = (pred: (p: Payload) => boolean): Record<string, unknown> =>
      EVENTS.find((e) => pred(payloadOf(e)))!;
    const decided = find(
      (p) => p.decider !== undefined && (p.decider as { picked?: string }).picked === 'billing',
    );
    const dropped = find((p) => p.droppedResume !== undefined);
    const witnessed = find((p) => p.witness !== undefined);
    const plain = routescopeObservability({ tracerProvider: sdk.provider });
    for (const e of [decided, dropped, witnessed]) plain.exportEvent(e);
    const turns = ofName(sdk.spans(), SPAN_ROUTING_TURN);
    expect(turns[0]!.attributes[ATTR_ROUTING_BY]).toBe('decider');
    expect(turns[0]!.attributes[ATTR_ROUTING_DECIDER_PICKED]).toBe('billing');
    expect(turns[1]!.attributes[ATTR_ROUTING_DROPPED_RESUME_ID]).toBe('retired-skill');
    expect(turns[2]!.attributes[ATTR_ROUTING_WITNESS_KEYWORD]).toBeTypeOf('string');
    expect(turns[2]!.attributes[ATTR_ROUTING_WITNESS_TEXT]).toBeUndefined();

    sdk.reset();
    const withText = routescopeObservability({
      tracerProvider: sdk.provider,
      recordWitness: true,
      redactWitness: (t) => t.replace(/\w/g, '#'),
    });
    withText.exportEvent(witnessed);
    const [turn] = ofName(sdk.spans(), SPAN_ROUTING_TURN);
    expect(turn!.attributes[ATTR_ROUTING_WITNESS_TEXT]).toMatch(/^[#\s]+$/);
  });

  it('judged under the contract, the at-floor near-tie records what happened (stay) and the disagreement', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider, policySemantics: 'contract' });
    const i = SCENARIOS.findIndex((s) => s.scenario === 'tier2-keyword-mid-near-tie-incumbent-at-floor-stay');
    strategy.exportEvent(EVENTS[i]);
    const [tier2] = ofName(sdk.spans(), SPAN_ROUTING_TIER2);
    expect(tier2!.attributes[ATTR_ROUTING_VERDICT]).toBe('stay');
    expect(tier2!.attributes[ATTR_ROUTING_REBUILT_VERDICT]).toBe('menu');
    expect(tier2!.attributes[ATTR_ROUTING_POLICY_SEMANTICS]).toBe('contract');
    expect(tier2!.attributes[ATTR_ROUTING_REBUILT_DIFFERENCES]).toEqual([
      expect.stringMatching(/^verdict: event by continuity/),
    ]);
  });
});

describe('non-finite scores', () => {
  const withScores = (scores: unknown[]): Record<string, unknown> => ({
    ...EVENTS[2]!,
    payload: { ...payloadOf(EVENTS[2]!), scores },
  });

  it('an in-process listener sees NaN and ±Infinity: recorded exactly beside the scores', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    const scores = payloadOf(EVENTS[2]!).scores!.map((c, i) => ({
      ...c,
      score: [NaN, Infinity, -Infinity][i] ?? c.score,
    }));
    strategy.exportEvent(withScores(scores));
    const [tier2] = ofName(sdk.spans(), SPAN_ROUTING_TIER2);
    const values = tier2!.attributes[ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES] as string[];
    expect([...values].sort()).toEqual(['-Infinity', 'Infinity', 'NaN']);
    const decoded = decodeRoutingAttributes(toAttributeMap(tier2!.attributes));
    if (decoded.kind !== 'ok') throw new Error(decoded.kind);
    const raw = decoded.value.ranked.map((c) => c.score).filter((s) => !Number.isFinite(s));
    expect(raw.map(String).sort()).toEqual(['-Infinity', 'Infinity', 'NaN']);
  });

  it('a JSON log wrote them as null: recorded as non-finite, never as 0', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    const scores = payloadOf(EVENTS[2]!).scores!.map((c, i) => (i === 0 ? { ...c, score: null } : c));
    strategy.exportEvent(withScores(scores));
    const [tier2] = ofName(sdk.spans(), SPAN_ROUTING_TIER2);
    expect(tier2!.attributes[ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES]).toEqual(['NaN']);
    const at = (tier2!.attributes[ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES] as number[])[0]!;
    // The placeholder in the scores array is 0; the decoder puts the recorded NaN back.
    expect((tier2!.attributes[ATTR_ROUTING_CANDIDATE_SCORES] as number[])[at]).toBe(0);
    const decoded = decodeRoutingAttributes(toAttributeMap(tier2!.attributes));
    if (decoded.kind !== 'ok') throw new Error(decoded.kind);
    expect(decoded.value.ranked[at]!.score).toBeNaN();
  });
});

describe('garbage in: nothing thrown, what is valid recorded, one diag warning', () => {
  const base = EVENTS[2]!;
  const cases: [string, unknown, { tier2: number; turn: number }][] = [
    ['no payload', { type: base.type, meta: base.meta }, { tier2: 0, turn: 0 }],
    ['by not a route', { ...base, payload: { ...payloadOf(base), by: 7 } }, { tier2: 0, turn: 0 }],
    [
      'scores not an array',
      { ...base, payload: { ...payloadOf(base), scores: 'billing' } },
      { tier2: 0, turn: 1 },
    ],
    [
      'strings for numbers',
      {
        ...base,
        payload: {
          ...payloadOf(base),
          scores: payloadOf(base).scores!.map((c) => ({ ...c, score: String(c.score) })),
        },
      },
      { tier2: 0, turn: 1 },
    ],
    [
      '100k candidates',
      {
        ...base,
        payload: {
          ...payloadOf(base),
          scores: Array.from({ length: 100_000 }, (_, i) => ({ id: `s${i}`, score: 0.5, relevance: 1e-5 })),
        },
      },
      { tier2: 0, turn: 1 },
    ],
    [
      'a policy that is not one',
      { ...base, payload: { ...payloadOf(base), policy: [] } },
      { tier2: 0, turn: 1 },
    ],
    ['meta that is a string', { ...base, meta: 'run-1' }, { tier2: 1, turn: 1 }],
  ];
  for (const [what, event, want] of cases) {
    it(`${what} → ${want.tier2} tier-2 and ${want.turn} turn spans, one warning`, () => {
      const log = captureDiag();
      const strategy = routescopeObservability({ tracerProvider: sdk.provider });
      expect(strategy.exportEvent(event)).toBeUndefined();
      expect(ofName(sdk.spans(), SPAN_ROUTING_TIER2)).toHaveLength(want.tier2);
      expect(ofName(sdk.spans(), SPAN_ROUTING_TURN)).toHaveLength(want.turn);
      expect(log.warnings).toHaveLength(1);
      expect(log.warnings[0]).toMatch(/turn_routed event was (not recorded|recorded in part)/);
      log.restore();
    });
  }

  it('any other event type, or no event at all, records nothing and warns nothing', () => {
    const log = captureDiag();
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    for (const e of [
      { ...base, type: 'agentfootprint.agent.turn_start' },
      undefined,
      null,
      'agentfootprint.skill.turn_routed',
      42,
      [],
    ]) {
      strategy.exportEvent(e);
    }
    expect(sdk.spans()).toHaveLength(0);
    expect(log.warnings).toEqual([]);
    log.restore();
  });

  it('a tracer provider, hook or redaction that throws costs the record, never the host', () => {
    const throwing = {
      getTracer: () => {
        throw new Error('broken provider');
      },
    } as unknown as TracerProvider;
    const a = routescopeObservability({ tracerProvider: throwing });
    const b = routescopeObservability({
      tracerProvider: sdk.provider,
      recordWitness: true,
      redactWitness: () => {
        throw new Error('broken redaction');
      },
      attributesHook: () => {
        throw new Error('broken hook');
      },
    });
    for (const e of EVENTS) {
      expect(() => a.exportEvent(e)).not.toThrow();
      expect(() => b.exportEvent(e)).not.toThrow();
    }
    expect(ofName(sdk.spans(), SPAN_ROUTING_TIER2)).toHaveLength(34);
    expect(sdk.spans().some((s) => s.attributes[ATTR_ROUTING_WITNESS_TEXT] !== undefined)).toBe(false);
  });

  it('property: never throws, returns nothing, and leaves the event exactly as it was (seed printed on failure)', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    const mutated = fc
      .tuple(
        fc.constantFrom(...EVENTS),
        fc.constantFrom('payload', 'meta', 'scores', 'policy', 'runnerUp', 'by', 'offered'),
        fc.anything(),
      )
      .map(([e, key, value]) => {
        const copy = structuredClone(e);
        if (key === 'payload' || key === 'meta') copy[key] = value;
        else (copy.payload as Record<string, unknown>)[key] = value;
        return copy;
      });
    fc.assert(
      fc.property(fc.oneof(mutated, fc.anything()), (event) => {
        const before = structuredClone(event);
        expect(strategy.exportEvent(event)).toBeUndefined();
        expect(event).toStrictEqual(before);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('a frozen event is read, not written', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    const deepFreeze = (v: unknown): unknown => {
      if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) deepFreeze(x);
      return Object.freeze(v);
    };
    for (const e of EVENTS) strategy.exportEvent(deepFreeze(structuredClone(e)));
    expect(ofName(sdk.spans(), SPAN_ROUTING_TIER2)).toHaveLength(34);
  });
});

describe('the strategy object', () => {
  it("has agentfootprint's ObservabilityStrategy shape, and exportEvent works detached as a listener", () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    expect(strategy.name).toBe('routescope');
    expect(strategy.capabilities).toEqual({ traces: true, metrics: false });
    expect(strategy.relevantEventTypes).toEqual([
      'agentfootprint.skill.turn_routed',
      'agentfootprint.agent.turn_end',
      'agentfootprint.stream.llm_start',
    ]);
    const listener = strategy.exportEvent;
    listener(EVENTS[0]);
    expect(sdk.spans()).toHaveLength(2);
  });

  it('flush drains the spans a batch processor holds; flush and stop are safe twice and after each other', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 60_000 })],
    });
    const strategy = routescopeObservability({ tracerProvider: provider });
    for (const e of EVENTS) strategy.exportEvent(e);
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    await strategy.flush();
    expect(exporter.getFinishedSpans()).toHaveLength(80);
    await strategy.flush();
    strategy.stop();
    strategy.stop();
    await strategy.flush();
    strategy.exportEvent(EVENTS[0]);
    await strategy.flush();
    expect(exporter.getFinishedSpans()).toHaveLength(80);
    await provider.shutdown();
  });

  it('flush never rejects, even when the provider has no forceFlush or its forceFlush throws', async () => {
    const broken = {
      getTracer: (...args: Parameters<TracerProvider['getTracer']>) => sdk.provider.getTracer(...args),
      forceFlush: () => {
        throw new Error('flush failed');
      },
    } as unknown as TracerProvider;
    await expect(routescopeObservability({ tracerProvider: broken }).flush()).resolves.toBeUndefined();
    await expect(
      routescopeObservability({ tracerProvider: trace.getTracerProvider() }).flush(),
    ).resolves.toBeUndefined();
  });

  it('with no SDK registered it records nothing and builds nothing', () => {
    const strategy = routescopeObservability();
    for (const e of EVENTS) strategy.exportEvent(e);
    expect(strategy.spanProcessor.size).toBe(0);
  });

  it('metrics: exactly what instrumentDecideTier2 records for the same decisions', async () => {
    const viaStrategy = createMemoryMeter();
    const viaWrapper = createMemoryMeter();
    const strategy = routescopeObservability({ meterProvider: viaStrategy.provider, routerName: 'desk' });
    expect(strategy.capabilities.metrics).toBe(true);
    const decide962 = createDecideTier2('agentfootprint-9.62');
    for (const e of EVENTS) {
      strategy.exportEvent(e);
      const p = payloadOf(e);
      if (p.scores === undefined) continue;
      const scorer = p.scorer as string;
      const wrapped = instrumentDecideTier2(decide962, {
        meterProvider: viaWrapper.provider,
        routerName: 'desk',
        scorerName: scorer,
      });
      wrapped(
        p.scores.map((c) => ({ id: c.id as string, score: c.score as number })),
        p.from as string | undefined,
        p.policy as { nearTieMargin: number; menuSize: number; floor?: number },
        scorer === 'llm-classifier' ? { categorical: true } : {},
      );
    }
    const [a, b] = [await viaStrategy.collect(), await viaWrapper.collect()];
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    const points = (m: (typeof a extends Map<string, infer M> ? M : never) | undefined): unknown[] =>
      (m?.dataPoints ?? []).map((p) => ({ attributes: p.attributes, value: p.value }));
    for (const [name, metric] of a) expect(points(metric), name).toEqual(points(b.get(name)));
  });
});

describe("joined to the framework's own turn spans (framework-otel-otlp.json)", () => {
  interface OtlpSpan {
    traceId: string;
    spanId: string;
    parentSpanId?: string;
    name: string;
    startTimeUnixNano: string;
    attributes: { key: string; value: { stringValue?: string } }[];
  }
  const otlp = JSON.parse(readFileSync(new URL('framework-otel-otlp.json', FIXTURES), 'utf8')) as {
    resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
  };
  const roots = otlp.resourceSpans
    .flatMap((r) => r.scopeSpans.flatMap((s) => s.spans))
    .filter((s) => s.attributes.some((a) => a.key === ATTR_AGENTFOOTPRINT_RUN_ID))
    .sort((x, y) => (BigInt(x.startTimeUnixNano) < BigInt(y.startTimeUnixNano) ? -1 : 1));
  const frameworkEvents = readLines('framework-otel-turn_routed.jsonl');

  it('every routing span is a child of its turn root span, found by meta.runId (8 turns)', () => {
    expect(roots).toHaveLength(8);
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    const provider = new BasicTracerProvider({ spanProcessors: [strategy.spanProcessor] });
    const framework = provider.getTracer('agentfootprint');
    const rootOf = new Map<string, string>();
    for (const root of roots) {
      const attributes = Object.fromEntries(root.attributes.map((a) => [a.key, a.value.stringValue ?? '']));
      // The framework never makes its span active: the routing span must find it by run id alone.
      const span = framework.startSpan(root.name, { attributes }, ROOT_CONTEXT);
      const runId = attributes[ATTR_AGENTFOOTPRINT_RUN_ID]!;
      rootOf.set(runId, span.spanContext().spanId);
      const event = frameworkEvents.find((e) => (e.meta as { runId: string }).runId === runId);
      expect(event, runId).toBeDefined();
      strategy.exportEvent(event);
      span.end();
    }
    expect(strategy.spanProcessor.size).toBe(0);
    const routing = sdk.spans();
    const scored = frameworkEvents.filter((e) => payloadOf(e).scores !== undefined).length;
    expect(routing).toHaveLength(8 + scored);
    for (const span of routing) {
      const runIdOfSpan = [...rootOf.entries()].find(([, id]) => id === span.parentSpanContext?.spanId)?.[0];
      expect(runIdOfSpan, `${span.name} has parent ${span.parentSpanContext?.spanId}`).toBeDefined();
    }
    const perRoot = new Map<string, number>();
    for (const span of routing) {
      const id = span.parentSpanContext!.spanId;
      perRoot.set(id, (perRoot.get(id) ?? 0) + 1);
    }
    expect(perRoot.size).toBe(8);
  });

  it('without the span processor the routing spans take the active context', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    strategy.exportEvent(frameworkEvents[0]);
    for (const span of sdk.spans()) expect(span.parentSpanContext).toBeUndefined();
  });

  it('the index holds at most 4096 open runs, and forgets a run when its span ends', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    const provider = new BasicTracerProvider({ spanProcessors: [strategy.spanProcessor] });
    const tracer = provider.getTracer('agentfootprint');
    const spans = Array.from({ length: 5000 }, (_, i) =>
      tracer.startSpan('turn', { attributes: { [ATTR_AGENTFOOTPRINT_RUN_ID]: `run-${i}` } }),
    );
    expect(strategy.spanProcessor.size).toBe(4096);
    expect(strategy.spanProcessor.lookup('run-0')).toBeUndefined();
    expect(strategy.spanProcessor.lookup('run-4999')?.spanId).toBe(spans[4999]!.spanContext().spanId);
    for (const s of spans) s.end();
    expect(strategy.spanProcessor.size).toBe(0);
  });
});
