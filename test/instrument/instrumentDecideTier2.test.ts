import {
  context,
  diag,
  DiagLogLevel,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { Span, Tracer, TracerProvider } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AlwaysOffSampler } from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { INSTRUMENTATION_SCOPE_NAME } from '../../src/instrument/safeExecute.js';
import { resolveInstrumentationConfig } from '../../src/instrument/resolveInstrumentationConfig.js';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_ROUTING_CANDIDATE_IDS,
  ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES,
  ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES,
  ATTR_ROUTING_CANDIDATE_OMITTED,
  ATTR_ROUTING_CANDIDATE_SCORES,
  ATTR_ROUTING_FLOOR_DECLARED,
  ATTR_ROUTING_NEAR_TIE,
  ATTR_ROUTING_POLICY_SEMANTICS,
  ATTR_ROUTING_ROUTER,
  ATTR_ROUTING_SCORER_NAME,
  ATTR_ROUTING_SOURCE,
  ATTR_ROUTING_VERDICT,
} from '../../src/semconv/semconv.js';
import type { InstrumentationConfig, Tier2Call } from '../../src/instrument/types.js';
import { createDecideTier2, decideTier2 } from '../../src/policy/routingPolicy.js';
import type {
  DecideTier2,
  IntentScore,
  RoutingPolicy,
  ScorerTraits,
  Tier2Verdict,
} from '../../src/policy/types.js';
import { assertRoutingSpan, createMemorySdk } from '../helpers/otelSdk.js';
import { tier2CallArb } from './tier2Call.arbitrary.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

const sdk = createMemorySdk();
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterEach(() => sdk.reset());
afterAll(async () => {
  context.disable();
  await sdk.shutdown();
});

const s = (id: string, score: number): IntentScore => ({ id, score });
const policy = (nearTieMargin = 0.15, menuSize = 3, floor?: number): RoutingPolicy =>
  floor === undefined ? { nearTieMargin, menuSize } : { nearTieMargin, menuSize, floor };

/** Route once through a wrapper on the memory SDK; return the call, the verdict and the single span. */
function routeOnce(call: Tier2Call, config: InstrumentationConfig = {}) {
  const wrapped = instrumentDecideTier2(decideTier2, { tracerProvider: sdk.provider, ...config });
  const verdict = wrapped(call.scores, call.incumbentId, call.policy, call.scorer);
  const spans = sdk.spans();
  expect(spans).toHaveLength(1);
  return { verdict, span: spans[0]! };
}

describe('attributes per verdict kind', () => {
  it('move: a decisive winner that is not the incumbent', () => {
    const call: Tier2Call = {
      scores: [s('billing', 2), s('refunds', 0.2)],
      incumbentId: 'refunds',
      policy: policy(),
      scorer: { floor: 0 },
    };
    const { verdict, span } = routeOnce(call, { routerName: 'support', scorerName: 'keyword' });
    expect(verdict.kind).toBe('move');
    assertRoutingSpan(span, call, verdict, { router: 'support', scorerName: 'keyword' });
  });

  it('stay: a near-tie with an incumbent keeps it', () => {
    const call: Tier2Call = {
      scores: [s('billing', 0.5), s('refunds', 0.45)],
      incumbentId: 'refunds',
      policy: policy(),
    };
    const { verdict, span } = routeOnce(call);
    expect(verdict.kind).toBe('stay');
    assertRoutingSpan(span, call, verdict);
    expect(span.attributes[ATTR_ROUTING_NEAR_TIE]).toBe(true);
  });

  it('menu: a near-tie at cold start offers the tied cluster', () => {
    const call: Tier2Call = {
      scores: [s('a', 0.5), s('b', 0.48), s('c', 0.47), s('d', -2)],
      incumbentId: undefined,
      policy: policy(),
      scorer: { floor: -1 },
    };
    const { verdict, span } = routeOnce(call);
    expect(verdict.kind).toBe('menu');
    assertRoutingSpan(span, call, verdict);
  });

  it('unmatched: every candidate at or below the floor', () => {
    const call: Tier2Call = {
      scores: [s('a', 0), s('b', -0.5), s('c', NaN)],
      incumbentId: 'a',
      policy: policy(0.15, 3, 0),
    };
    const { verdict, span } = routeOnce(call);
    expect(verdict.kind).toBe('unmatched');
    assertRoutingSpan(span, call, verdict);
  });

  it('no candidates at all still records a complete span', () => {
    const call: Tier2Call = { scores: [], incumbentId: undefined, policy: policy(0.15, 3, 0) };
    const { verdict, span } = routeOnce(call);
    assertRoutingSpan(span, call, verdict);
  });
});

describe('flags', () => {
  it('near_tie is false for a decisive verdict and for a categorical scorer', () => {
    const decisive = routeOnce({ scores: [s('a', 3), s('b', 0)], incumbentId: undefined, policy: policy() });
    expect(decisive.span.attributes[ATTR_ROUTING_NEAR_TIE]).toBe(false);
    sdk.reset();
    const categorical = routeOnce({
      scores: [s('a', 1), s('b', 1)],
      incumbentId: undefined,
      policy: policy(),
      scorer: { categorical: true, floor: 0 },
    });
    expect(categorical.span.attributes[ATTR_ROUTING_NEAR_TIE]).toBe(false);
  });

  it('floor_declared is false for a floorless scorer', () => {
    const call: Tier2Call = {
      scores: [s('a', 0.9), s('b', 0.1)],
      incumbentId: undefined,
      policy: policy(),
      scorer: { categorical: false },
    };
    const { verdict, span } = routeOnce(call, { scorerName: 'embedding' });
    expect(span.attributes[ATTR_ROUTING_FLOOR_DECLARED]).toBe(false);
    assertRoutingSpan(span, call, verdict, { scorerName: 'embedding' });
  });

  it('non-finite scores become 0 in the array and are recorded exactly beside it', () => {
    const call: Tier2Call = {
      scores: [s('a', NaN), s('b', 1), s('c', Infinity), s('d', -Infinity)],
      incumbentId: undefined,
      policy: policy(),
    };
    const { verdict, span } = routeOnce(call);
    expect(span.attributes[ATTR_ROUTING_CANDIDATE_SCORES]).toEqual([1, 0, 0, 0]);
    expect(span.attributes[ATTR_ROUTING_CANDIDATE_NONFINITE_INDEXES]).toEqual([1, 2, 3]);
    expect(span.attributes[ATTR_ROUTING_CANDIDATE_NONFINITE_VALUES]).toEqual([
      'NaN',
      'Infinity',
      '-Infinity',
    ]);
    assertRoutingSpan(span, call, verdict);
  });
});

describe('config', () => {
  it('records at most maxRecordedCandidates (default 20) and counts the rest', () => {
    const scores = Array.from({ length: 26 }, (_, i) => s(`skill${i}`, i / 10));
    const call: Tier2Call = { scores, incumbentId: undefined, policy: policy() };
    const byDefault = routeOnce(call);
    expect(byDefault.span.attributes[ATTR_ROUTING_CANDIDATE_OMITTED]).toBe(6);
    expect(byDefault.span.attributes[ATTR_ROUTING_CANDIDATE_IDS]).toHaveLength(20);
    assertRoutingSpan(byDefault.span, call, byDefault.verdict);
    sdk.reset();
    const bounded = routeOnce(call, { maxRecordedCandidates: 5 });
    expect(bounded.span.attributes[ATTR_ROUTING_CANDIDATE_OMITTED]).toBe(21);
    assertRoutingSpan(bounded.span, call, bounded.verdict, { maxRecordedCandidates: 5 });
  });

  it('a span uses at most 34 attributes, whatever the candidate count (docs/semconv.md)', () => {
    const scores = Array.from({ length: 64 }, (_, i) =>
      s(`skill${i}`, i === 3 ? NaN : i === 63 ? -2 : 1 - i / 1000),
    );
    const call: Tier2Call = {
      scores,
      incumbentId: 'skill63',
      policy: policy(0.15, 3, -1),
      scorer: { floor: 0, categorical: false },
    };
    const { verdict, span } = routeOnce(call, {
      maxRecordedCandidates: 64,
      routerName: 'r',
      scorerName: 'keyword',
      context: { conversationId: 'c', agentName: 'a' },
    });
    expect(verdict.kind).toBe('menu');
    expect(Object.keys(span.attributes)).toHaveLength(34);
    assertRoutingSpan(span, call, verdict, {
      maxRecordedCandidates: 64,
      router: 'r',
      scorerName: 'keyword',
      conversationId: 'c',
      agentName: 'a',
    });
  });

  it('context and scorerName may be functions of the call', () => {
    const call: Tier2Call = {
      scores: [s('a', 1), s('b', 0)],
      incumbentId: 'b',
      policy: policy(),
    };
    const seen: Tier2Call[] = [];
    const { verdict, span } = routeOnce(call, {
      routerName: 'triage',
      scorerName: (c) => (c.scores.length > 1 ? 'keyword' : undefined),
      context: (c) => {
        seen.push(c);
        return { conversationId: `conv-${c.incumbentId}`, agentName: 'helpdesk' };
      },
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.scores).toBe(call.scores);
    assertRoutingSpan(span, call, verdict, {
      router: 'triage',
      scorerName: 'keyword',
      conversationId: 'conv-b',
      agentName: 'helpdesk',
    });
  });

  it('scorerTraits are recorded when the call passes none, and never passed to the wrapped function', () => {
    const received: (ScorerTraits | undefined)[] = [];
    const decide: DecideTier2 = (scores, incumbentId, p, scorer) => {
      received.push(scorer);
      return decideTier2(scores, incumbentId, p, { floor: 0 });
    };
    const wrapped = instrumentDecideTier2(decide, {
      tracerProvider: sdk.provider,
      scorerTraits: { floor: 0 },
    });
    const call: Tier2Call = { scores: [s('a', 0.4), s('b', 0)], incumbentId: undefined, policy: policy() };
    const verdict = wrapped(call.scores, call.incumbentId, call.policy);
    expect(received).toEqual([undefined]);
    assertRoutingSpan(sdk.spans()[0]!, { ...call, scorer: { floor: 0 } }, verdict);
  });

  it('attributesHook adds attributes after routescope’s own and sees the call and verdict', () => {
    const { verdict, span } = routeOnce(
      { scores: [s('a', 1)], incumbentId: undefined, policy: policy() },
      {
        attributesHook: (sp, call, v) => {
          sp.setAttribute('app.route.kind', v.kind);
          sp.setAttribute('app.route.candidates', call.scores.length);
        },
      },
    );
    expect(span.attributes['app.route.kind']).toBe(verdict.kind);
    expect(span.attributes['app.route.candidates']).toBe(1);
  });

  it('the span is a child of the active context', () => {
    const tracer = sdk.provider.getTracer('host');
    const wrapped = instrumentDecideTier2(decideTier2, { tracerProvider: sdk.provider });
    tracer.startActiveSpan('invoke_agent', (parent) => {
      wrapped([s('a', 1), s('b', 0)], undefined, policy());
      parent.end();
    });
    const [child, parent] = sdk.spans();
    expect(child!.kind).toBe(SpanKind.INTERNAL);
    expect(child!.parentSpanContext?.spanId).toBe(parent!.spanContext().spanId);
    expect(child!.spanContext().traceId).toBe(parent!.spanContext().traceId);
  });
});

describe('errors from the wrapped function', () => {
  it('are rethrown unchanged with an ERROR span and the exception recorded', () => {
    const boom = new RangeError('scorer returned garbage');
    const wrapped = instrumentDecideTier2(
      () => {
        throw boom;
      },
      { tracerProvider: sdk.provider, routerName: 'support' },
    );
    let caught: unknown;
    try {
      wrapped([s('a', 1)], undefined, policy());
    } catch (err) {
      caught = err;
    }
    expect(caught).toBe(boom);
    const [span] = sdk.spans();
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'scorer returned garbage' });
    expect(span!.events.map((e) => e.name)).toEqual(['exception']);
    expect(span!.events[0]!.attributes?.['exception.type']).toBe('RangeError');
    expect(span!.attributes[ATTR_ROUTING_ROUTER]).toBe('support');
    expect(span!.attributes[ATTR_ROUTING_VERDICT]).toBeUndefined();
  });

  it('a thrown non-Error value is rethrown as the same value', () => {
    const thrown = { code: 42 };
    const wrapped = instrumentDecideTier2(
      () => {
        throw thrown;
      },
      { tracerProvider: sdk.provider },
    );
    expect(() => wrapped([], undefined, policy())).toThrow(expect.objectContaining({ code: 42 }));
    let caught: unknown;
    try {
      wrapped([], undefined, policy());
    } catch (err) {
      caught = err;
    }
    expect(caught).toBe(thrown);
    expect(sdk.spans().every((sp) => sp.status.code === SpanStatusCode.ERROR)).toBe(true);
  });
});

/** A span whose every method throws, as a broken SDK might hand out. */
function throwingSpan(recording: boolean | 'throws'): Span {
  const fail = (): never => {
    throw new Error('broken span');
  };
  return {
    spanContext: fail,
    setAttribute: fail,
    setAttributes: fail,
    addEvent: fail,
    addLink: fail,
    addLinks: fail,
    setStatus: fail,
    updateName: fail,
    end: fail,
    isRecording: () => (recording === 'throws' ? fail() : recording),
    recordException: fail,
  };
}

function tracerProviderOf(tracer: Partial<Tracer>): TracerProvider {
  return { getTracer: () => tracer as Tracer };
}

const throwingHooks: InstrumentationConfig = {
  attributesHook: () => {
    throw new Error('hook');
  },
  context: () => {
    throw new Error('context');
  },
  scorerName: () => {
    throw new Error('scorerName');
  },
};

/** Every way the tracing side can fail, plus no provider at all; each must leave the verdict untouched. */
const FAILURE_MODES: ReadonlyArray<readonly [string, () => InstrumentationConfig]> = [
  ['no provider at all (global API, nothing registered)', () => ({})],
  ['hooks that throw, real SDK', () => ({ tracerProvider: sdk.provider, ...throwingHooks })],
  [
    'a provider whose getTracer throws',
    () => ({
      tracerProvider: {
        getTracer: () => {
          throw new Error('provider');
        },
      },
    }),
  ],
  [
    'a tracer whose startSpan throws',
    () => ({
      tracerProvider: tracerProviderOf({
        startSpan: () => {
          throw new Error('tracer');
        },
      }),
    }),
  ],
  [
    'a recording span whose methods all throw',
    () => ({ tracerProvider: tracerProviderOf({ startSpan: () => throwingSpan(true) }), ...throwingHooks }),
  ],
  [
    'a span whose isRecording throws',
    () => ({ tracerProvider: tracerProviderOf({ startSpan: () => throwingSpan('throws') }) }),
  ],
];

describe('never changes the result, never throws into the host', () => {
  it.each(FAILURE_MODES)('%s: the very same verdict object, equal to the unwrapped one', (_name, config) => {
    let returned: Tier2Verdict | undefined;
    const spy: DecideTier2 = (...args) => (returned = decideTier2(...args));
    const wrapped = instrumentDecideTier2(spy, config());
    fc.assert(
      fc.property(tier2CallArb(), (call) => {
        const verdict = wrapped(call.scores, call.incumbentId, call.policy, call.scorer);
        expect(verdict).toBe(returned);
        expect(verdict).toStrictEqual(decideTier2(call.scores, call.incumbentId, call.policy, call.scorer));
      }),
      { numRuns: propertyRuns(150) },
    );
    sdk.reset();
  });

  it('what it swallows goes to the OpenTelemetry diag logger (namespace routescope), never the console', () => {
    const warnings: string[] = [];
    const log = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
    diag.setLogger({ error: log, warn: log, info: log, debug: log, verbose: log }, DiagLogLevel.WARN);
    const consoleSpies = (['log', 'warn', 'error', 'info', 'debug'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation(() => undefined),
    );
    try {
      routeOnce({ scores: [s('a', 1)], incumbentId: undefined, policy: policy() }, throwingHooks);
      expect(warnings.some((w) => w.includes('routescope') && w.includes('attributesHook'))).toBe(true);
      expect(warnings.some((w) => w.includes('context function'))).toBe(true);
      for (const spy of consoleSpies) expect(spy).not.toHaveBeenCalled();
    } finally {
      diag.disable();
      for (const spy of consoleSpies) spy.mockRestore();
    }
  });

  it('hooks that throw still give a complete span', () => {
    const call: Tier2Call = { scores: [s('a', 1), s('b', 0.9)], incumbentId: undefined, policy: policy() };
    const { verdict, span } = routeOnce(call, { routerName: 'support', ...throwingHooks });
    assertRoutingSpan(span, call, verdict, { router: 'support' });
  });

  it('a span that throws still lets the wrapped function’s error through unchanged', () => {
    const boom = new Error('decide');
    const wrapped = instrumentDecideTier2(
      () => {
        throw boom;
      },
      { tracerProvider: tracerProviderOf({ startSpan: () => throwingSpan(true) }) },
    );
    expect(() => wrapped([], undefined, policy())).toThrow(boom);
  });

  it('a config whose getters throw gives back a working router', () => {
    const config = Object.defineProperty({}, 'tracerProvider', {
      get: () => {
        throw new Error('getter');
      },
    }) as InstrumentationConfig;
    const wrapped = instrumentDecideTier2(decideTier2, config);
    expect(wrapped([s('a', 1)], undefined, policy()).kind).toBe('move');
  });
});

describe('builds nothing when the span is not recording', () => {
  /** A verdict whose every property read is counted: the wrapper must not read it when not recording. */
  function watchedDecide() {
    const reads = { count: 0 };
    const decide: DecideTier2 = (...args) =>
      new Proxy(decideTier2(...args), {
        get(target, key, receiver) {
          reads.count++;
          return Reflect.get(target, key, receiver);
        },
      });
    return { decide, reads };
  }

  function counters() {
    const calls = { hook: 0, context: 0, scorerName: 0 };
    const config: InstrumentationConfig = {
      attributesHook: () => void calls.hook++,
      context: () => (calls.context++, { conversationId: 'c' }),
      scorerName: () => (calls.scorerName++, 'keyword'),
    };
    return { calls, config };
  }

  it('an SDK that samples everything out: no span, no hook, the verdict never read', async () => {
    const off = createMemorySdk({ sampler: new AlwaysOffSampler() });
    const { decide, reads } = watchedDecide();
    const { calls, config } = counters();
    const wrapped = instrumentDecideTier2(decide, { tracerProvider: off.provider, ...config });
    wrapped([s('a', 1), s('b', 0.5)], 'a', policy());
    expect(reads.count).toBe(0);
    expect(calls).toEqual({ hook: 0, context: 0, scorerName: 0 });
    expect(off.spans()).toHaveLength(0);
    await off.shutdown();
  });

  it('no provider registered: the API no-op span, nothing built', () => {
    expect(trace.getTracerProvider().getTracer('probe').startSpan('x').isRecording()).toBe(false);
    const { decide, reads } = watchedDecide();
    const { calls, config } = counters();
    instrumentDecideTier2(decide, config)([s('a', 1)], undefined, policy());
    expect(reads.count).toBe(0);
    expect(calls).toEqual({ hook: 0, context: 0, scorerName: 0 });
  });

  it('a proxy provider with no SDK yet starts no span; an SDK set later is recorded from the next call', () => {
    const proxy = new ProxyTracerProvider();
    // Every ProxyTracer shares its prototype's startSpan: watch that, whichever tracer the wrapper holds.
    const proxyTracer = Object.getPrototypeOf(proxy.getTracer(INSTRUMENTATION_SCOPE_NAME)) as Tracer;
    const startSpan = vi.spyOn(proxyTracer, 'startSpan');
    const wrapped = instrumentDecideTier2(decideTier2, { tracerProvider: proxy });
    const call = [[s('a', 1), s('b', 0.2)], undefined, policy()] as const;
    expect(wrapped(...call)).toEqual(decideTier2(...call));
    expect(startSpan).not.toHaveBeenCalled();
    expect(sdk.spans()).toHaveLength(0);
    proxy.setDelegate(sdk.provider);
    expect(wrapped(...call)).toEqual(decideTier2(...call));
    expect(sdk.spans()).toHaveLength(1);
    expect(sdk.spans()[0]!.attributes[ATTR_ROUTING_VERDICT]).toBe('move');
    startSpan.mockRestore();
  });

  it('a proxy provider that throws when asked for its SDK is logged, and routing goes on', () => {
    const proxy = new ProxyTracerProvider();
    const broken = vi.spyOn(proxy, 'getDelegateTracer').mockImplementation(() => {
      throw new Error('broken proxy');
    });
    const wrapped = instrumentDecideTier2(decideTier2, { tracerProvider: proxy });
    const call = [[s('a', 1)], 'a', policy()] as const;
    expect(wrapped(...call)).toEqual(decideTier2(...call));
    expect(broken).toHaveBeenCalled();
  });

  it('a non-recording span from a custom tracer is never written to', () => {
    const written: string[] = [];
    const span = new Proxy(throwingSpan(false), {
      get(target, key, receiver) {
        if (key !== 'isRecording' && key !== 'end') written.push(String(key));
        return key === 'end' ? () => undefined : Reflect.get(target, key, receiver);
      },
    });
    const { decide, reads } = watchedDecide();
    const wrapped = instrumentDecideTier2(decide, {
      tracerProvider: tracerProviderOf({ startSpan: () => span }),
    });
    wrapped([s('a', 1)], undefined, policy());
    expect(written).toEqual([]);
    expect(reads.count).toBe(0);
  });

  it('a recording span does get built (the counters above can move)', () => {
    const { decide, reads } = watchedDecide();
    const { calls, config } = counters();
    instrumentDecideTier2(decide, { tracerProvider: sdk.provider, ...config })(
      [s('a', 1)],
      undefined,
      policy(),
    );
    expect(reads.count).toBeGreaterThan(0);
    expect(calls).toEqual({ hook: 1, context: 1, scorerName: 1 });
    expect(sdk.spans()[0]!.attributes[ATTR_ROUTING_SCORER_NAME]).toBe('keyword');
    expect(sdk.spans()[0]!.attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe('c');
  });
});

describe('every recorded span decodes back to its decision', () => {
  it('property: random calls through the real SDK', () => {
    const wrapped = instrumentDecideTier2(decideTier2, {
      tracerProvider: sdk.provider,
      maxRecordedCandidates: 8,
    });
    fc.assert(
      fc.property(tier2CallArb(12), (call) => {
        sdk.reset();
        const verdict = wrapped(call.scores, call.incumbentId, call.policy, call.scorer);
        assertRoutingSpan(sdk.spans()[0]!, call, verdict, { maxRecordedCandidates: 8 });
      }),
      { numRuns: propertyRuns(300) },
    );
  });
});

describe('the behaviour and the path on the record', () => {
  const call = (): Parameters<typeof decideTier2> => [
    [s('a', 0.9), s('b', 0.85)],
    'a',
    { nearTieMargin: 0.15, menuSize: 3 },
  ];
  const recorded = (decide: typeof decideTier2, config = {}): Record<string, unknown> => {
    const sdk = createMemorySdk();
    instrumentDecideTier2(decide, { tracerProvider: sdk.provider, ...config })(...call());
    const [span] = sdk.spans();
    return span!.attributes;
  };

  it("wrapping routescope's own verdict functions records their behaviour; source is wrapper", () => {
    expect(recorded(decideTier2)[ATTR_ROUTING_POLICY_SEMANTICS]).toBe('contract');
    expect(recorded(createDecideTier2('agentfootprint-9.62'))[ATTR_ROUTING_POLICY_SEMANTICS]).toBe(
      'agentfootprint-9.62',
    );
    expect(recorded(decideTier2)[ATTR_ROUTING_SOURCE]).toBe('wrapper');
  });

  it('a function of unknown behaviour records none, unless the config names it', () => {
    const foreign: typeof decideTier2 = (...args) => decideTier2(...args);
    expect(recorded(foreign)[ATTR_ROUTING_POLICY_SEMANTICS]).toBeUndefined();
    expect(recorded(foreign, { policySemantics: 'agentfootprint-9.62' })[ATTR_ROUTING_POLICY_SEMANTICS]).toBe(
      'agentfootprint-9.62',
    );
  });
});

describe('the resolved configuration', () => {
  it('maxRecordedCandidates 0 records no candidate and counts them all as omitted; fractions round down', () => {
    const call: Tier2Call = { scores: [s('a', 1), s('b', 0.5)], incumbentId: undefined, policy: policy() };
    expect(resolveInstrumentationConfig({ maxRecordedCandidates: 0 }).maxRecordedCandidates).toBe(0);
    expect(resolveInstrumentationConfig({ maxRecordedCandidates: 2.7 }).maxRecordedCandidates).toBe(2);
    for (const bad of [-1, NaN, Infinity, '3']) {
      const max = bad as number;
      expect(resolveInstrumentationConfig({ maxRecordedCandidates: max }).maxRecordedCandidates).toBe(20);
    }
    const { span } = routeOnce(call, { maxRecordedCandidates: 0 });
    expect(span.attributes[ATTR_ROUTING_CANDIDATE_IDS]).toStrictEqual([]);
    expect(span.attributes[ATTR_ROUTING_CANDIDATE_OMITTED]).toBe(2);
  });

  it('recordWitness and redactWitness given are kept; absent, the defaults (off, and the text unchanged)', () => {
    const redact = (text: string) => text.toUpperCase();
    const given = resolveInstrumentationConfig({ recordWitness: true, redactWitness: redact });
    expect(given.recordWitness).toBe(true);
    expect(given.redactWitness).toBe(redact);
    const defaults = resolveInstrumentationConfig({});
    expect(defaults.recordWitness).toBe(false);
    expect(defaults.redactWitness('as typed')).toBe('as typed');
  });

  it("spans carry the instrumentation scope 'routescope'", () => {
    const { span } = routeOnce({ scores: [s('a', 1)], incumbentId: undefined, policy: policy() });
    expect(span.instrumentationScope.name).toBe('routescope');
  });
});
