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
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { markMisrouted } from '../../src/instrument/markMisrouted.js';
import { recordTurnRoute } from '../../src/instrument/recordTurnRoute.js';
import { SPAN_ROUTING_TIER2 } from '../../src/instrument/semconv.js';
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
