/**
 * swallowedFailures.test — what the instrumentation swallows it reports, naming the step that failed, and a
 * healthy call reports nothing.
 *
 * The diag channel is the only place a host learns that tracing broke; a message that does not say which step
 * failed (or a warning on every healthy call) makes it useless. Each rule here drives one entry point through
 * the real SDK in memory, with the one piece that fails replaced by a stand-in.
 */
import { diag, DiagLogLevel, SpanStatusCode } from '@opentelemetry/api';
import type { Span, SpanContext, Tracer, TracerProvider } from '@opentelemetry/api';
import { AlwaysOffSampler } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { markMisrouted } from '../../src/instrument/markMisrouted.js';
import { addRoutingContext } from '../../src/instrument/addRoutingContext.js';
import { encodeTurnRoute, recordTurnRoute } from '../../src/instrument/recordTurnRoute.js';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_ROUTING_BY,
  ATTR_ROUTING_RECORD_VERSION,
  ATTR_ROUTING_STAY_OFFERED,
  ROUTING_RECORD_VERSION,
  SPAN_ROUTING_TIER2,
} from '../../src/semconv/semconv.js';
import { decideTier2 } from '../../src/policy/routingPolicy.js';
import type { IntentScore, RoutingPolicy, TurnRoute } from '../../src/policy/types.js';
import { createMemoryMeter, shutdownMemoryMeters } from '../helpers/memoryMeter.js';
import { createMemorySdk } from '../helpers/otelSdk.js';

const sdk = createMemorySdk();
let warnings: string[] = [];

beforeEach(() => {
  warnings = [];
  const log = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
  diag.setLogger({ error: log, warn: log, info: log, debug: log, verbose: log }, DiagLogLevel.WARN);
});
afterEach(async () => {
  diag.disable();
  sdk.reset();
  await shutdownMemoryMeters();
});
afterAll(() => sdk.shutdown());

const s = (id: string, score: number): IntentScore => ({ id, score });
const P: RoutingPolicy = { nearTieMargin: 0.15, menuSize: 3 };
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const failedStep = (step: string) => warnings.some((w) => w.includes(`${step} failed`));

/** A recording span whose `method` throws; every other method works and does nothing. */
function spanThrowingOn(method: keyof Span): Span {
  const context: SpanContext = { traceId: TRACE_ID, spanId: '00f067aa0ba902b7', traceFlags: 1 };
  const span: Span = {
    spanContext: () => context,
    setAttribute: () => span,
    setAttributes: () => span,
    addEvent: () => span,
    addLink: () => span,
    addLinks: () => span,
    setStatus: () => span,
    updateName: () => span,
    end: () => undefined,
    isRecording: () => true,
    recordException: () => undefined,
  };
  span[method] = (() => {
    throw new Error(`span.${method}`);
  }) as never;
  return span;
}

/** A provider whose tracer hands out `span`. */
function providerOf(span: Span): TracerProvider {
  const tracer = { startSpan: () => span, startActiveSpan: () => undefined } as unknown as Tracer;
  return { getTracer: () => tracer };
}

const throwingProvider: TracerProvider = {
  getTracer: () => {
    throw new Error('getTracer');
  },
};

describe('a healthy call logs nothing', () => {
  it('the tier-2 wrapper, with and without a meter provider, hooks or context', () => {
    const plain = instrumentDecideTier2(decideTier2, { tracerProvider: sdk.provider });
    const counted = instrumentDecideTier2(decideTier2, {
      tracerProvider: sdk.provider,
      meterProvider: createMemoryMeter().provider,
    });
    // Duplicate ids give a negative gap, which the histogram must not be handed.
    for (const scores of [[s('a', 0.9), s('b', 0.85)], [s('a', 1), s('b', 0.9), s('a', 0)], []]) {
      plain(scores, undefined, P);
      counted(scores, 'a', P, { floor: 0 });
    }
    expect(warnings).toStrictEqual([]);
  });

  it('recordTurnRoute on its own span and on the caller span, with and without witness or stayOffered', () => {
    const routes: TurnRoute[] = [
      { by: 'entry', to: 'refunds' },
      { by: 'menu', offered: ['a', 'b'], stayOffered: true },
      { by: 'entry', to: 'refunds', witness: { keyword: 'refund', text: 'a refund' } },
    ];
    for (const route of routes) {
      recordTurnRoute(route, { tracerProvider: sdk.provider, recordWitness: true });
      const caller = sdk.provider.getTracer('host').startSpan('turn');
      recordTurnRoute(route, { span: caller });
      caller.end();
    }
    expect(warnings).toStrictEqual([]);
  });

  it('markMisrouted on a live span, an ended span and bare ids', () => {
    const live = sdk.provider.getTracer('host').startSpan('routing');
    markMisrouted(live, { source: 'eval' }, { tracerProvider: sdk.provider });
    live.end();
    markMisrouted(live, { source: 'eval' }, { tracerProvider: sdk.provider });
    markMisrouted({ traceId: TRACE_ID }, { source: 'eval' }, { tracerProvider: sdk.provider });
    expect(warnings).toStrictEqual([]);
  });
});

describe('each swallowed failure is logged naming the step that failed', () => {
  it('the tier-2 wrapper: getting a tracer, starting and ending the span, the scorerName function', () => {
    instrumentDecideTier2(decideTier2, { tracerProvider: throwingProvider });
    expect(failedStep('getting a tracer')).toBe(true);
    const throwingStart = {
      getTracer: () => ({
        startSpan: () => {
          throw new Error('startSpan');
        },
      }),
    } as unknown as TracerProvider;
    instrumentDecideTier2(decideTier2, { tracerProvider: throwingStart })([s('a', 1)], undefined, P);
    expect(failedStep(`starting the ${SPAN_ROUTING_TIER2} span`)).toBe(true);
    instrumentDecideTier2(decideTier2, { tracerProvider: providerOf(spanThrowingOn('end')) })(
      [],
      undefined,
      P,
    );
    expect(failedStep('ending a routing span')).toBe(true);
    const scorerName = () => {
      throw new Error('scorerName');
    };
    instrumentDecideTier2(decideTier2, { tracerProvider: sdk.provider, scorerName })([], undefined, P);
    expect(failedStep('the scorerName function')).toBe(true);
  });

  it('the tier-2 wrapper: recording the routing error, which is still rethrown unchanged', () => {
    const boom = new Error('decide');
    const wrapped = instrumentDecideTier2(
      () => {
        throw boom;
      },
      { tracerProvider: providerOf(spanThrowingOn('setStatus')) },
    );
    expect(() => wrapped([], undefined, P)).toThrow(boom);
    expect(failedStep('recording the routing error')).toBe(true);
  });

  it('recordTurnRoute: the caller span, its attributes, its context, a tracer, the redactWitness function', () => {
    const route: TurnRoute = { by: 'entry', to: 'refunds', witness: { keyword: 'refund', text: 'a refund' } };
    recordTurnRoute(route, { span: spanThrowingOn('isRecording') });
    expect(failedStep('checking the caller span')).toBe(true);
    recordTurnRoute(route, { span: spanThrowingOn('setAttributes') });
    expect(failedStep('setting the turn attributes')).toBe(true);
    recordTurnRoute(route, { span: spanThrowingOn('spanContext') });
    expect(failedStep('reading the span context')).toBe(true);
    recordTurnRoute(route, { tracerProvider: throwingProvider });
    expect(failedStep('getting a tracer')).toBe(true);
    const redactWitness = () => {
      throw new Error('redact');
    };
    recordTurnRoute(route, { tracerProvider: sdk.provider, recordWitness: true, redactWitness });
    expect(failedStep('the redactWitness function')).toBe(true);
  });

  it('recordTurnRoute on its own span: setting its attributes and reading its context', () => {
    const route: TurnRoute = { by: 'entry', to: 'refunds' };
    recordTurnRoute(route, { tracerProvider: providerOf(spanThrowingOn('setAttributes')) });
    expect(failedStep('setting the turn attributes')).toBe(true);
    expect(recordTurnRoute(route, { tracerProvider: providerOf(spanThrowingOn('spanContext')) })).toBe(
      undefined,
    );
    expect(failedStep('reading the span context')).toBe(true);
  });

  it('markMisrouted: a bad trace id is named in the message; a failing event is named as such', () => {
    markMisrouted({ traceId: 'not-a-trace' }, { source: 'eval' }, { tracerProvider: sdk.provider });
    expect(warnings.some((w) => w.includes('markMisrouted failed') && w.includes('"not-a-trace"'))).toBe(
      true,
    );
    markMisrouted(
      { traceId: TRACE_ID },
      { source: 'eval' },
      { tracerProvider: providerOf(spanThrowingOn('addEvent')) },
    );
    expect(failedStep('adding the misroute event')).toBe(true);
    markMisrouted({ traceId: TRACE_ID }, { source: 'eval' }, { tracerProvider: throwingProvider });
    expect(failedStep('getting a tracer')).toBe(true);
  });

  it('markMisrouted: a span that throws is logged under markMisrouted', () => {
    markMisrouted(spanThrowingOn('isRecording'), { source: 'eval' });
    expect(failedStep('markMisrouted')).toBe(true);
  });
});

describe('the routing error on the span', () => {
  it('a thrown non-Error value: ERROR status with a message saying so, and its string form recorded', () => {
    const wrapped = instrumentDecideTier2(
      () => {
        throw 42;
      },
      { tracerProvider: sdk.provider },
    );
    expect(() => wrapped([], undefined, P)).toThrow();
    const [span] = sdk.spans();
    expect(span!.status).toStrictEqual({
      code: SpanStatusCode.ERROR,
      message: 'decideTier2 threw a non-Error value',
    });
    expect(span!.events[0]!.attributes?.['exception.message']).toBe('42');
  });

  it('a thrown string is recorded as the exception message itself', () => {
    const wrapped = instrumentDecideTier2(
      () => {
        throw 'no scorer';
      },
      { tracerProvider: sdk.provider },
    );
    expect(() => wrapped([], undefined, P)).toThrow();
    expect(sdk.spans()[0]!.events[0]!.attributes?.['exception.message']).toBe('no scorer');
  });
});

describe('each swallowed failure is logged naming the step (continued)', () => {
  it('the tier-2 wrapper: resolving the config, the tier-2 and call attributes, the routing context', () => {
    const config = {
      get routerName(): string {
        throw new Error('getter');
      },
    };
    instrumentDecideTier2(decideTier2, config);
    expect(failedStep('resolving the instrumentation config')).toBe(true);
    instrumentDecideTier2(decideTier2, { tracerProvider: providerOf(spanThrowingOn('setAttribute')) })(
      [s('a', 1)],
      undefined,
      P,
    );
    expect(failedStep('setting the tier-2 attributes')).toBe(true);
    instrumentDecideTier2(decideTier2, { tracerProvider: providerOf(spanThrowingOn('setAttributes')) })(
      [s('a', 1)],
      undefined,
      P,
    );
    expect(failedStep('setting the call attributes')).toBe(true);
    const context = {
      get conversationId(): string {
        throw new Error('context');
      },
    };
    instrumentDecideTier2(decideTier2, { tracerProvider: sdk.provider, context })([s('a', 1)], undefined, P);
    expect(failedStep('reading the routing context')).toBe(true);
  });

  it('a tracer provider whose getTracer throws, with a meter provider: one warning when wrapping, none per call', () => {
    const wrapped = instrumentDecideTier2(decideTier2, {
      tracerProvider: throwingProvider,
      meterProvider: createMemoryMeter().provider,
    });
    wrapped([s('a', 1), s('b', 0.9)], undefined, P);
    wrapped([s('a', 1)], undefined, P);
    expect(warnings).toHaveLength(1);
    expect(failedStep('getting a tracer')).toBe(true);
  });

  it('recordTurnRoute: encoding the turn route, on the caller span and on its own; nothing else is tried', () => {
    const route = {
      get by(): string {
        throw new Error('by');
      },
    } as unknown as TurnRoute;
    const caller = sdk.provider.getTracer('host').startSpan('turn');
    expect(recordTurnRoute(route, { span: caller })).toBeUndefined();
    caller.end();
    expect(recordTurnRoute(route, { tracerProvider: sdk.provider })).toBeDefined();
    expect(warnings).toHaveLength(2);
    expect(warnings.every((w) => w.includes('encoding the turn route failed'))).toBe(true);
  });

  it('recordTurnRoute: a getTracer that throws is one warning; a sampled-out span is none', () => {
    recordTurnRoute({ by: 'entry', to: 'a' }, { tracerProvider: throwingProvider });
    expect(warnings).toHaveLength(1);
    const off = createMemorySdk({ sampler: new AlwaysOffSampler() });
    expect(recordTurnRoute({ by: 'entry', to: 'a' }, { tracerProvider: off.provider })).toBeUndefined();
    expect(warnings).toHaveLength(1);
  });

  it('markMisrouted: a getTracer that throws is one warning; a sampled-out feedback span is none', () => {
    markMisrouted({ traceId: TRACE_ID }, { source: 'eval' }, { tracerProvider: throwingProvider });
    expect(warnings).toHaveLength(1);
    const off = createMemorySdk({ sampler: new AlwaysOffSampler() });
    markMisrouted({ traceId: TRACE_ID }, { source: 'eval' }, { tracerProvider: off.provider });
    expect(warnings).toHaveLength(1);
  });

  it('markMisrouted: a trace id that is not a string is named in the warning', () => {
    markMisrouted({ traceId: 42 } as never, { source: 'eval' }, { tracerProvider: sdk.provider });
    expect(warnings.some((w) => w.includes('not a valid trace id: 42'))).toBe(true);
  });

  it('markMisrouted: no target at all (null, a number) says no valid trace id, not a TypeError', () => {
    markMisrouted(null as never, { source: 'eval' }, { tracerProvider: sdk.provider });
    markMisrouted(7 as never, { source: 'eval' }, { tracerProvider: sdk.provider });
    expect(warnings.filter((w) => w.includes('not a valid trace id: null'))).toHaveLength(1);
    expect(warnings.filter((w) => w.includes('not a valid trace id: 7'))).toHaveLength(1);
    expect(warnings.some((w) => w.includes('TypeError'))).toBe(false);
  });
});

describe('what reaches the span', () => {
  it('with neither a tracer nor metrics the routing function itself is handed back', () => {
    expect(instrumentDecideTier2(decideTier2, { tracerProvider: throwingProvider })).toBe(decideTier2);
  });

  it('a null context is no context: nothing added, nothing logged', () => {
    instrumentDecideTier2(decideTier2, { tracerProvider: sdk.provider, context: null as never })(
      [s('a', 1)],
      undefined,
      P,
    );
    expect(warnings).toStrictEqual([]);
    expect(sdk.spans()).toHaveLength(1);
  });

  it('context values that are not strings are left out, not coerced', () => {
    const attrs: Record<string, unknown> = {};
    addRoutingContext(attrs as never, { conversationId: 42, agentName: 'desk' } as never);
    expect(attrs).toStrictEqual({ [ATTR_GEN_AI_AGENT_NAME]: 'desk' });
  });

  it('encodeTurnRoute writes only the keys the route has: no key set to undefined', () => {
    expect(encodeTurnRoute({ by: 'entry' })).toStrictEqual({
      [ATTR_ROUTING_RECORD_VERSION]: ROUTING_RECORD_VERSION,
      [ATTR_ROUTING_BY]: 'entry',
    });
    expect(encodeTurnRoute({ by: 'menu', stayOffered: 'yes' } as never)).not.toHaveProperty(
      ATTR_ROUTING_STAY_OFFERED,
    );
  });

  it('a null witness is no witness; redactWitness is only ever handed a string', () => {
    const seen: unknown[] = [];
    const redactWitness = (text: string) => {
      seen.push(text);
      return text;
    };
    expect(encodeTurnRoute({ by: 'entry', witness: null } as never)).toStrictEqual({
      [ATTR_ROUTING_RECORD_VERSION]: ROUTING_RECORD_VERSION,
      [ATTR_ROUTING_BY]: 'entry',
    });
    encodeTurnRoute({ by: 'entry', witness: { text: 42, keyword: 'k' } } as never, {
      recordWitness: true,
      redactWitness,
    });
    expect(seen).toStrictEqual([]);
  });

  it('a route that is not an object records nothing, on the caller span or on its own', () => {
    const caller = sdk.provider.getTracer('host').startSpan('turn');
    expect(recordTurnRoute('entry' as never, { span: caller })).toBeUndefined();
    caller.end();
    expect(recordTurnRoute(null as never, { tracerProvider: sdk.provider })).toBeUndefined();
    expect(sdk.spans().map((sp) => Object.keys(sp.attributes).length)).toStrictEqual([0]);
  });

  it('markMisrouted: synthetic parent ids of bare trace ids are 16 hex digits and all distinct', () => {
    for (let i = 0; i < 64; i++) markMisrouted({ traceId: TRACE_ID }, {}, { tracerProvider: sdk.provider });
    const ids = sdk.spans().map((sp) => sp.parentSpanContext!.spanId);
    expect(ids.every((id) => /^[0-9a-f]{16}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(64);
  });

  it('markMisrouted: ids carried by an object with a spanContext function but no addEvent are read as ids', () => {
    const target = { traceId: TRACE_ID, spanId: '00f067aa0ba902b7', spanContext: () => undefined };
    markMisrouted(target as never, { source: 'eval' }, { tracerProvider: sdk.provider });
    expect(sdk.spans().map((sp) => sp.parentSpanContext?.spanId)).toStrictEqual(['00f067aa0ba902b7']);
    expect(warnings).toStrictEqual([]);
  });
});
