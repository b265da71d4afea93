/**
 * routescopeObservability.rules.test — the strategy's configuration, flush / stop and the run-span index, one
 * rule each, on hand-built turn_routed events (the real capture is routescopeObservability.test.ts).
 */
import { readFileSync } from 'node:fs';
import { context, diag, ProxyTracerProvider, trace } from '@opentelemetry/api';
import type { MeterProvider, SpanContext, TracerProvider } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AlwaysOffSampler } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routescopeObservability } from '../../src/instrument/routescopeObservability.js';
import { ATTR_AGENTFOOTPRINT_RUN_ID, createRunSpanIndex } from '../../src/instrument/runSpanIndex.js';
import type { RunSpanIndex } from '../../src/instrument/runSpanIndex.js';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_ROUTING_CANDIDATE_IDS,
  ATTR_ROUTING_SCORER_WINDOW,
  SPAN_ROUTING_TIER2,
  SPAN_ROUTING_TURN,
} from '../../src/semconv/semconv.js';
import { METRIC_ROUTING_DECISIONS } from '../../src/semconv/metricNames.js';
import { createMemoryMeter, shutdownMemoryMeters } from '../helpers/memoryMeter.js';
import { createMemorySdk, type MemorySdk } from '../helpers/otelSdk.js';
import { keepDiagLines, turnRoutedEvent } from '../helpers/turnRoutedEvents.js';

const FIXTURES = new URL('../../../shared/fixtures/agentfootprint/', import.meta.url);
const CAPTURE = readFileSync(new URL('turn_routed.jsonl', FIXTURES), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as unknown);

const turnRouted = turnRoutedEvent;

let sdk: MemorySdk;
let warnings: string[];
beforeEach(() => {
  sdk = createMemorySdk();
  warnings = [];
  keepDiagLines(warnings);
});
afterEach(async () => {
  diag.disable();
  await sdk.shutdown();
  await shutdownMemoryMeters();
});

const ofName = (name: string): ReadableSpan[] => sdk.spans().filter((s) => s.name === name);

describe('a healthy strategy logs nothing', () => {
  it('every event of the real capture, with spans and metrics', () => {
    const strategy = routescopeObservability({
      tracerProvider: sdk.provider,
      meterProvider: createMemoryMeter().provider,
    });
    for (const e of CAPTURE) strategy.exportEvent(e);
    expect(ofName(SPAN_ROUTING_TIER2).length).toBeGreaterThan(0);
    expect(warnings).toStrictEqual([]);
  });

  it('every event of the real capture on an SDK that samples everything out: no span, no warning', () => {
    const off = createMemorySdk({ sampler: new AlwaysOffSampler() });
    const strategy = routescopeObservability({ tracerProvider: off.provider });
    for (const e of CAPTURE) strategy.exportEvent(e);
    expect(off.spans()).toStrictEqual([]);
    expect(warnings).toStrictEqual([]);
  });

  it('with neither a tracer nor metrics nothing is read, so a bad event warns nothing', () => {
    const throwing: TracerProvider = {
      getTracer: () => {
        throw new Error('getTracer');
      },
    };
    const strategy = routescopeObservability({ tracerProvider: throwing });
    expect(warnings.filter((w) => w.includes('getting a tracer failed'))).toHaveLength(1);
    strategy.exportEvent(turnRouted({ scores: 'billing' }));
    expect(warnings).toHaveLength(1);
  });
});

describe('configuration', () => {
  it('metrics alone: a tracer provider whose getTracer throws still counts the decision', async () => {
    const meter = createMemoryMeter();
    const throwing: TracerProvider = {
      getTracer: () => {
        throw new Error('getTracer');
      },
    };
    const strategy = routescopeObservability({ tracerProvider: throwing, meterProvider: meter.provider });
    expect(strategy.capabilities.metrics).toBe(true);
    strategy.exportEvent(turnRouted());
    const counter = (await meter.collect()).get(METRIC_ROUTING_DECISIONS);
    expect(counter!.dataPoints.map((p) => p.value)).toStrictEqual([1]);
  });

  it('a meter provider that throws is logged as creating the routing metrics, and traces go on', () => {
    const broken = {
      getMeter: () => {
        throw new Error('getMeter');
      },
    } as unknown as MeterProvider;
    const strategy = routescopeObservability({ tracerProvider: sdk.provider, meterProvider: broken });
    expect(strategy.capabilities.metrics).toBe(false);
    expect(warnings.some((w) => w.includes('creating the routing metrics failed'))).toBe(true);
    strategy.exportEvent(turnRouted());
    expect(ofName(SPAN_ROUTING_TIER2)).toHaveLength(1);
  });

  it('agentName joins the session id as the conversation; without a session it stands alone', () => {
    const named = routescopeObservability({ tracerProvider: sdk.provider, agentName: 'support' });
    named.exportEvent(turnRouted());
    named.exportEvent(turnRouted({}, { sessionId: undefined }));
    const plain = routescopeObservability({ tracerProvider: sdk.provider });
    plain.exportEvent(turnRouted());
    const turns = ofName(SPAN_ROUTING_TURN).map((s) => [
      s.attributes[ATTR_GEN_AI_CONVERSATION_ID],
      s.attributes[ATTR_GEN_AI_AGENT_NAME],
    ]);
    expect(turns).toStrictEqual([
      ['sess-1', 'support'],
      [undefined, 'support'],
      ['sess-1', undefined],
    ]);
  });

  it('maxRecordedCandidates: a whole number from 0 (fractions round down); anything else is the default 20', () => {
    const ids = (max: unknown): number => {
      sdk.reset();
      const strategy = routescopeObservability({
        tracerProvider: sdk.provider,
        maxRecordedCandidates: max as number,
      });
      strategy.exportEvent(turnRouted());
      return (ofName(SPAN_ROUTING_TIER2)[0]!.attributes[ATTR_ROUTING_CANDIDATE_IDS] as string[]).length;
    };
    expect([ids(0), ids(1.9), ids(2)]).toStrictEqual([0, 1, 2]);
    expect([ids(-1), ids(NaN), ids(Infinity), ids('2')]).toStrictEqual([3, 3, 3, 3]);
  });

  it('maxJudgedCandidates: a number from 0 bounds what is judged; anything else is the default', () => {
    const judged = (max: unknown): number => {
      sdk.reset();
      routescopeObservability({
        tracerProvider: sdk.provider,
        maxJudgedCandidates: max as number,
      }).exportEvent(turnRouted());
      return ofName(SPAN_ROUTING_TIER2).length;
    };
    expect([judged(2), judged(3), judged(0)]).toStrictEqual([0, 1, 0]);
    expect([judged(-1), judged('1')]).toStrictEqual([1, 1]);
  });

  it('a finite scorer window is recorded; a non-finite one is not', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    strategy.exportEvent(turnRouted({ window: 4 }));
    strategy.exportEvent(turnRouted({ window: Infinity }));
    expect(ofName(SPAN_ROUTING_TIER2).map((s) => s.attributes[ATTR_ROUTING_SCORER_WINDOW])).toStrictEqual([
      4,
      undefined,
    ]);
  });

  it('attributesHook runs on each span with the span, the reading and the span name', () => {
    const seen: string[] = [];
    const strategy = routescopeObservability({
      tracerProvider: sdk.provider,
      attributesHook: (span, reading, name) => {
        seen.push(`${name}:${reading.kind}`);
        span.setAttribute('app.hooked', name);
      },
    });
    strategy.exportEvent(turnRouted());
    console.log(
      seen,
      sdk.spans().map((s) => s.name),
    );
    expect(seen).toStrictEqual([`${SPAN_ROUTING_TIER2}:turn_routed`, `${SPAN_ROUTING_TURN}:turn_routed`]);
    expect(sdk.spans().map((s) => s.attributes['app.hooked'])).toStrictEqual([
      SPAN_ROUTING_TIER2,
      SPAN_ROUTING_TURN,
    ]);
  });

  it('a run the index does not know takes the active context', () => {
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    const outer = sdk.provider.getTracer('host').startSpan('outer');
    context.with(trace.setSpan(context.active(), outer), () =>
      strategy.exportEvent(turnRouted({}, { runId: 'run-x' })),
    );
    outer.end();
    context.disable();
    expect(ofName(SPAN_ROUTING_TURN)).toHaveLength(1);
    for (const s of [...ofName(SPAN_ROUTING_TURN), ...ofName(SPAN_ROUTING_TIER2)]) {
      expect(s.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    }
  });
});

describe('flush and stop', () => {
  it('flush drains the meter provider too, when there is one', async () => {
    let flushed = 0;
    const meter = createMemoryMeter();
    const counting = meter.provider as unknown as { forceFlush: () => Promise<void> };
    const original = counting.forceFlush.bind(counting);
    counting.forceFlush = () => {
      flushed++;
      return original();
    };
    await routescopeObservability({ tracerProvider: sdk.provider, meterProvider: meter.provider }).flush();
    await routescopeObservability({ tracerProvider: sdk.provider }).flush();
    expect(flushed).toBe(1);
  });

  it("flush reaches the global proxy's delegate, and a failing forceFlush is logged naming the provider", async () => {
    let flushed = 0;
    const delegate = { getTracer: () => trace.getTracer('x'), forceFlush: async () => void flushed++ };
    const proxy = new ProxyTracerProvider();
    proxy.setDelegate(delegate);
    await routescopeObservability({ tracerProvider: proxy }).flush();
    expect(flushed).toBe(1);
    await routescopeObservability({ tracerProvider: new ProxyTracerProvider() }).flush();
    expect(warnings).toStrictEqual([]);
    const failing = {
      getTracer: () => trace.getTracer('x'),
      forceFlush: () => Promise.reject(new Error('flush')),
    };
    await routescopeObservability({ tracerProvider: failing }).flush();
    expect(warnings.some((w) => w.includes('flushing the tracer provider failed'))).toBe(true);
  });

  it('stop clears its own index, never a shared one', () => {
    const shared = createRunSpanIndex();
    const provider = createMemorySdk({}).provider;
    const own = routescopeObservability({ tracerProvider: provider });
    const sharing = routescopeObservability({ tracerProvider: provider, runSpanIndex: shared });
    const start = (index: typeof shared) =>
      index.onStart(
        startedSpan({ [ATTR_AGENTFOOTPRINT_RUN_ID]: 'run-1' }, 'aaaaaaaaaaaaaaaa'),
        context.active(),
      );
    start(own.spanProcessor);
    start(shared);
    own.stop();
    sharing.stop();
    expect(own.spanProcessor.size).toBe(0);
    expect(shared.size).toBe(1);
  });
});

type StartedSpan = Parameters<RunSpanIndex['onStart']>[0];

/** The part of a started span the index reads. */
function startedSpan(attributes: Record<string, unknown> | undefined, spanId: string): StartedSpan {
  const ctx: SpanContext = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId, traceFlags: 1 };
  return { attributes, spanContext: () => ctx } as unknown as StartedSpan;
}

describe('the run-span index', () => {
  it('holds at most maxOpenRuns (a whole number from 1, fractions round down); anything else is 4096', () => {
    const fill = (max: number): number => {
      const index = createRunSpanIndex(max);
      for (let i = 0; i < 5000; i++)
        index.onStart(
          startedSpan({ [ATTR_AGENTFOOTPRINT_RUN_ID]: `run-${i}` }, 'aaaaaaaaaaaaaaaa'),
          context.active(),
        );
      return index.size;
    };
    expect([fill(1), fill(2.9), fill(3)]).toStrictEqual([1, 2, 3]);
    expect([fill(0), fill(-1), fill(NaN), fill(Infinity)]).toStrictEqual([4096, 4096, 4096, 4096]);
  });

  it("a run's first span is its root: a later span of the run neither replaces it nor, ending, forgets it", () => {
    const index = createRunSpanIndex();
    const root = startedSpan({ [ATTR_AGENTFOOTPRINT_RUN_ID]: 'run-1' }, 'aaaaaaaaaaaaaaaa');
    const child = startedSpan({ [ATTR_AGENTFOOTPRINT_RUN_ID]: 'run-1' }, 'bbbbbbbbbbbbbbbb');
    index.onStart(root, context.active());
    index.onStart(child, context.active());
    expect(index.lookup('run-1')?.spanId).toBe('aaaaaaaaaaaaaaaa');
    index.onEnd(child);
    expect(index.lookup('run-1')?.spanId).toBe('aaaaaaaaaaaaaaaa');
    index.onEnd(root);
    expect(index.lookup('run-1')).toBeUndefined();
  });

  it('spans without attributes or with a non-string run id are passed over silently', () => {
    const index = createRunSpanIndex();
    for (const attributes of [undefined, {}, { [ATTR_AGENTFOOTPRINT_RUN_ID]: 7 }]) {
      index.onStart(startedSpan(attributes, 'aaaaaaaaaaaaaaaa'), context.active());
      index.onEnd(startedSpan(attributes, 'aaaaaaaaaaaaaaaa'));
    }
    expect(index.size).toBe(0);
    expect(warnings).toStrictEqual([]);
  });

  it('a span that throws is logged, naming the step, and never reaches the SDK', () => {
    const index = createRunSpanIndex();
    const broken = {
      attributes: { [ATTR_AGENTFOOTPRINT_RUN_ID]: 'run-1' },
      spanContext: () => {
        throw new Error('spanContext');
      },
    } as unknown as StartedSpan;
    expect(() => index.onStart(broken, context.active())).not.toThrow();
    index.onStart(
      startedSpan({ [ATTR_AGENTFOOTPRINT_RUN_ID]: 'run-1' }, 'aaaaaaaaaaaaaaaa'),
      context.active(),
    );
    expect(() => index.onEnd(broken)).not.toThrow();
    expect(warnings.some((w) => w.includes('indexing a started span by run id failed'))).toBe(true);
    expect(warnings.some((w) => w.includes('forgetting an ended span failed'))).toBe(true);
  });

  it('forceFlush and shutdown resolve; shutdown forgets every run', async () => {
    const index = createRunSpanIndex();
    index.onStart(
      startedSpan({ [ATTR_AGENTFOOTPRINT_RUN_ID]: 'run-1' }, 'aaaaaaaaaaaaaaaa'),
      context.active(),
    );
    await expect(index.forceFlush()).resolves.toBeUndefined();
    expect(index.size).toBe(1);
    await expect(index.shutdown()).resolves.toBeUndefined();
    expect(index.size).toBe(0);
  });
});

describe('what the strategy swallows it logs, naming the step', () => {
  /** A recording span whose `method` throws; every other method works and does nothing. */
  const spanThrowingOn = (method: string): TracerProvider => {
    const ctx: SpanContext = {
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
    };
    const span: Record<string, unknown> = {
      spanContext: () => ctx,
      setAttribute: () => span,
      setAttributes: () => span,
      addEvent: () => span,
      setStatus: () => span,
      updateName: () => span,
      end: () => undefined,
      isRecording: () => true,
      recordException: () => undefined,
    };
    span[method] = () => {
      throw new Error(method);
    };
    const tracer = { startSpan: () => span };
    return { getTracer: () => tracer } as unknown as TracerProvider;
  };
  const failed = (step: string) => warnings.some((w) => w.includes(`${step} failed`));

  it('the tier-2 attributes, the call attributes, the turn attributes, ending a span at the event time', () => {
    // Every attribute goes onto the span key by key (setAttribute); each step fails on its own and is named.
    routescopeObservability({ tracerProvider: spanThrowingOn('setAttribute') }).exportEvent(turnRouted());
    expect(failed('setting the tier-2 attributes')).toBe(true);
    expect(failed('setting the call attributes')).toBe(true);
    expect(failed('setting the turn attributes')).toBe(true);
    warnings.length = 0;
    routescopeObservability({ tracerProvider: spanThrowingOn('end') }).exportEvent(turnRouted());
    expect(failed('ending a routing span')).toBe(true);
  });

  it('the attributesHook', () => {
    const attributesHook = () => {
      throw new Error('hook');
    };
    routescopeObservability({ tracerProvider: sdk.provider, attributesHook }).exportEvent(turnRouted());
    expect(warnings.filter((w) => w.includes('the attributesHook failed'))).toHaveLength(2);
  });

  it('an event whose fields throw when read is logged as recording a turn_routed event', () => {
    const event = {
      type: 'agentfootprint.skill.turn_routed',
      get payload(): unknown {
        throw new Error('payload');
      },
    };
    routescopeObservability({ tracerProvider: sdk.provider }).exportEvent(event);
    expect(failed('recording a turn_routed event')).toBe(true);
  });

  it('an event recorded in part is one warning listing each problem, separated by "; "', () => {
    routescopeObservability({ tracerProvider: sdk.provider }).exportEvent(
      turnRouted({ window: 'x', from: 5 }),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      'event was recorded in part: payload.from is number 5, not a string: left out; payload.window is "x", not a number: left out',
    );
  });

  it('metrics alone (getTracer throws): the one warning is the tracer’s, none per event', () => {
    const throwing: TracerProvider = {
      getTracer: () => {
        throw new Error('getTracer');
      },
    };
    const strategy = routescopeObservability({
      tracerProvider: throwing,
      meterProvider: createMemoryMeter().provider,
    });
    strategy.exportEvent(turnRouted());
    strategy.exportEvent(turnRouted({ scores: undefined }));
    expect(warnings).toHaveLength(1);
  });

  it('a failing meter-provider flush is logged naming the meter provider', async () => {
    const meter = createMemoryMeter();
    (meter.provider as unknown as { forceFlush: () => Promise<void> }).forceFlush = () =>
      Promise.reject(new Error('flush'));
    await routescopeObservability({ tracerProvider: sdk.provider, meterProvider: meter.provider }).flush();
    expect(failed('flushing the meter provider')).toBe(true);
    expect(failed('flushing the tracer provider')).toBe(false);
  });
});

describe('flush: which forceFlush', () => {
  it("a provider's own forceFlush, even when it also has a delegate; neither, or an empty delegate: nothing, silently", async () => {
    const calls: string[] = [];
    const both = {
      getTracer: () => trace.getTracer('x'),
      forceFlush: async () => void calls.push('own'),
      getDelegate: () => ({ forceFlush: async () => void calls.push('delegate') }),
    };
    await routescopeObservability({ tracerProvider: both }).flush();
    expect(calls).toStrictEqual(['own']);
    await routescopeObservability({ tracerProvider: { getTracer: () => trace.getTracer('x') } }).flush();
    const empty = { getTracer: () => trace.getTracer('x'), getDelegate: () => undefined };
    await routescopeObservability({ tracerProvider: empty as TracerProvider }).flush();
    expect(warnings).toStrictEqual([]);
  });

  it('maxRecordedCandidates Infinity is not a count: the default 20 is recorded', () => {
    const scores = Array.from({ length: 25 }, (_, i) => ({
      id: `c${i}`,
      score: 1 - i / 100,
      relevance: 0.04,
    }));
    routescopeObservability({ tracerProvider: sdk.provider, maxRecordedCandidates: Infinity }).exportEvent(
      turnRouted({ scores, runnerUp: undefined, decisive: undefined }),
    );
    expect(ofName(SPAN_ROUTING_TIER2)[0]!.attributes[ATTR_ROUTING_CANDIDATE_IDS]).toHaveLength(20);
  });
});

describe('the run-span index: ending what it never saw', () => {
  it('the end of a span whose run it does not hold changes nothing and logs nothing', () => {
    const index = createRunSpanIndex();
    index.onStart(
      startedSpan({ [ATTR_AGENTFOOTPRINT_RUN_ID]: 'run-1' }, 'aaaaaaaaaaaaaaaa'),
      context.active(),
    );
    index.onEnd(startedSpan({ [ATTR_AGENTFOOTPRINT_RUN_ID]: 'run-2' }, 'aaaaaaaaaaaaaaaa'));
    expect(index.size).toBe(1);
    expect(warnings).toStrictEqual([]);
  });
});

describe('the SDK, looked up when routed turns arrive', () => {
  afterEach(() => trace.disable());

  it('one copy of the API: built before setGlobalTracerProvider, it records the turns after it', () => {
    const strategy = routescopeObservability();
    expect(strategy.status()).toMatchObject({ turnsReceived: 0, turnsWithoutSdk: 0, sdkFound: false });
    trace.setGlobalTracerProvider(sdk.provider);
    strategy.exportEvent(turnRouted());
    expect(ofName(SPAN_ROUTING_TIER2)).toHaveLength(1);
    expect(strategy.status()).toMatchObject({ turnsReceived: 1, turnsWithoutSdk: 0, sdkFound: true });
    expect(warnings).toStrictEqual([]);
  });

  it('other event types and turns after stop are not counted', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    strategy.exportEvent({ type: 'agentfootprint.agent.turn_start', payload: {}, meta: {} });
    strategy.exportEvent(turnRouted());
    strategy.stop();
    strategy.exportEvent(turnRouted());
    expect(strategy.status()).toMatchObject({ turnsReceived: 1, turnsWithoutSdk: 0, sdkFound: true });
  });

  it('the API proxy passed as tracerProvider with no SDK yet: counted, one warning, recorded once it has one', () => {
    const proxy = new ProxyTracerProvider();
    const strategy = routescopeObservability({ tracerProvider: proxy });
    strategy.exportEvent(turnRouted());
    strategy.exportEvent(turnRouted());
    expect(sdk.spans()).toStrictEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('the tracerProvider given to routescopeObservability');
    proxy.setDelegate(sdk.provider);
    strategy.exportEvent(turnRouted());
    expect(ofName(SPAN_ROUTING_TIER2)).toHaveLength(1);
    expect(strategy.status()).toMatchObject({ turnsReceived: 3, turnsWithoutSdk: 2, sdkFound: true });
  });

  it('a provider that throws while asked for its SDK is one warning; spans are tried from then on', () => {
    const asking: TracerProvider & { getDelegateTracer: () => never } = {
      getTracer: (...args) => sdk.provider.getTracer(...args),
      getDelegateTracer: () => {
        throw new Error('getDelegateTracer');
      },
    };
    const strategy = routescopeObservability({ tracerProvider: asking });
    strategy.exportEvent(turnRouted());
    strategy.exportEvent(turnRouted());
    expect(ofName(SPAN_ROUTING_TIER2)).toHaveLength(2);
    expect(warnings.filter((w) => w.includes('looking for the OpenTelemetry SDK failed'))).toHaveLength(1);
    expect(warnings).toHaveLength(1);
  });

  it('a provider whose getTracer throws is not "no SDK": one warning, nothing counted', () => {
    const throwing: TracerProvider = {
      getTracer: () => {
        throw new Error('getTracer');
      },
    };
    const strategy = routescopeObservability({ tracerProvider: throwing });
    strategy.exportEvent(turnRouted());
    expect(strategy.status()).toMatchObject({ turnsReceived: 1, turnsWithoutSdk: 0, sdkFound: true });
    expect(warnings).toHaveLength(1);
  });
});
