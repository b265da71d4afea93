import { trace, type TracerProvider } from '@opentelemetry/api';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { markMisrouted } from '../../src/instrument/markMisrouted.js';
import {
  ATTR_ROUTING_MISROUTE_EXPECTED,
  ATTR_ROUTING_MISROUTE_REASON,
  ATTR_ROUTING_MISROUTE_SOURCE,
  EVENT_ROUTING_MISROUTED,
  SPAN_ROUTING_FEEDBACK,
} from '../../src/semconv/semconv.js';
import { createMemorySdk } from '../helpers/otelSdk.js';

const sdk = createMemorySdk();
afterEach(() => sdk.reset());
afterAll(() => sdk.shutdown());

const mark = { expected: 'refunds', reason: 'asked for a refund, got billing', source: 'user-feedback' };
const markAttributes = {
  [ATTR_ROUTING_MISROUTE_EXPECTED]: 'refunds',
  [ATTR_ROUTING_MISROUTE_REASON]: 'asked for a refund, got billing',
  [ATTR_ROUTING_MISROUTE_SOURCE]: 'user-feedback',
};

describe('markMisrouted', () => {
  it('a live span gets the misrouted event', () => {
    const span = sdk.provider.getTracer('host').startSpan('routing');
    markMisrouted(span, mark, { tracerProvider: sdk.provider });
    span.end();
    const [recorded] = sdk.spans();
    expect(recorded!.events.map((e) => [e.name, e.attributes])).toEqual([
      [EVENT_ROUTING_MISROUTED, markAttributes],
    ]);
  });

  it('an ended span gets a feedback span as its child, carrying the event', () => {
    const span = sdk.provider.getTracer('host').startSpan('routing');
    span.end();
    markMisrouted(span, mark, { tracerProvider: sdk.provider });
    const [routing, feedback] = sdk.spans();
    expect(routing!.events).toEqual([]);
    expect(feedback!.name).toBe(SPAN_ROUTING_FEEDBACK);
    expect(feedback!.spanContext().traceId).toBe(span.spanContext().traceId);
    expect(feedback!.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(feedback!.events.map((e) => [e.name, e.attributes])).toEqual([
      [EVENT_ROUTING_MISROUTED, markAttributes],
    ]);
  });

  it('trace and span ids: a feedback span in that trace, child of that span (ids case-insensitive)', () => {
    const traceId = '0AF7651916CD43DD8448EB211C80319C';
    const spanId = 'B7AD6B7169203331';
    markMisrouted({ traceId, spanId }, { source: 'eval' }, { tracerProvider: sdk.provider });
    const [feedback] = sdk.spans();
    expect(feedback!.name).toBe(SPAN_ROUTING_FEEDBACK);
    expect(feedback!.spanContext().traceId).toBe(traceId.toLowerCase());
    expect(feedback!.parentSpanContext?.spanId).toBe(spanId.toLowerCase());
    expect(feedback!.events[0]!.attributes).toEqual({ [ATTR_ROUTING_MISROUTE_SOURCE]: 'eval' });
  });

  it('a trace id alone: the feedback span still lands in that trace', () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    markMisrouted({ traceId }, mark, { tracerProvider: sdk.provider });
    markMisrouted({ traceId }, mark, { tracerProvider: sdk.provider });
    const spans = sdk.spans();
    expect(spans.map((sp) => sp.spanContext().traceId)).toEqual([traceId, traceId]);
    expect(spans.every((sp) => /^[0-9a-f]{16}$/.test(sp.parentSpanContext?.spanId ?? ''))).toBe(true);
  });

  it('a no-op span (no SDK where it was made) starts no feedback trace of its own', () => {
    const noop = trace.getTracerProvider().getTracer('host').startSpan('routing');
    expect(noop.isRecording()).toBe(false);
    markMisrouted(noop, mark, { tracerProvider: sdk.provider });
    expect(sdk.spans()).toHaveLength(0);
  });

  it('bad ids and broken providers: nothing recorded, nothing thrown', () => {
    const broken: TracerProvider = {
      getTracer: () => {
        throw new Error('provider');
      },
    };
    expect(() =>
      markMisrouted({ traceId: 'not-a-trace' }, mark, { tracerProvider: sdk.provider }),
    ).not.toThrow();
    expect(() =>
      markMisrouted({ traceId: '0'.repeat(32) }, mark, { tracerProvider: sdk.provider }),
    ).not.toThrow();
    expect(() => markMisrouted(null as never, mark, { tracerProvider: sdk.provider })).not.toThrow();
    expect(() =>
      markMisrouted({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736' }, mark, { tracerProvider: broken }),
    ).not.toThrow();
    expect(() => markMisrouted({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736' }, mark)).not.toThrow();
    expect(sdk.spans()).toHaveLength(0);
  });
});

describe('markMisrouted: which span carries the mark', () => {
  it('a live span carries the event itself: no feedback span is made', () => {
    const span = sdk.provider.getTracer('host').startSpan('routing');
    markMisrouted(span, mark, { tracerProvider: sdk.provider });
    span.end();
    expect(sdk.spans().map((sp) => sp.name)).toStrictEqual(['routing']);
  });

  it('the feedback span of bare ids has a remote, sampled parent: the given span id, else a random valid one', () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    markMisrouted({ traceId, spanId: '00f067aa0ba902b7' }, mark, { tracerProvider: sdk.provider });
    markMisrouted({ traceId, spanId: 'not-a-span-id' }, mark, { tracerProvider: sdk.provider });
    markMisrouted({ traceId, spanId: '0000000000000000' }, mark, { tracerProvider: sdk.provider });
    const parents = sdk.spans().map((sp) => sp.parentSpanContext!);
    expect(parents[0]!.spanId).toBe('00f067aa0ba902b7');
    for (const parent of parents) {
      expect(parent.isRemote).toBe(true);
      expect(parent.traceFlags).toBe(1);
      expect(parent.spanId).toMatch(/^(?!0{16})[0-9a-f]{16}$/);
    }
    expect(parents[1]!.spanId).not.toBe(parents[2]!.spanId);
  });

  it('a target that is neither a span nor ids with a string trace id records nothing', () => {
    for (const target of [{ traceId: 42 }, 'trace', { spanContext: () => undefined }, undefined]) {
      markMisrouted(target as never, mark, { tracerProvider: sdk.provider });
    }
    expect(sdk.spans()).toStrictEqual([]);
  });
});
