import { SpanKind } from '@opentelemetry/api';
import type { TracerProvider } from '@opentelemetry/api';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { encodeTurnRoute, recordTurnRoute } from '../../src/instrument/recordTurnRoute.js';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_ROUTING_OFFERED,
  ATTR_ROUTING_RECORD_VERSION,
  ATTR_ROUTING_ROUTER,
  ATTR_ROUTING_VERDICT,
  ATTR_ROUTING_WITNESS_TEXT,
  ROUTING_RECORD_VERSION,
  SPAN_ROUTING_TURN,
} from '../../src/semconv/semconv.js';
import type { TurnRoute } from '../../src/policy/types.js';
import { decodeTurnAttributes } from '../../src/trace/decodeRoutingAttributes.js';
import { createMemorySdk, expectOnlyFiniteNumbers, toAttributeMap } from '../helpers/otelSdk.js';

const sdk = createMemorySdk();
afterEach(() => sdk.reset());
afterAll(() => sdk.shutdown());

function recordAndDecode(turnRoute: TurnRoute, options: Parameters<typeof recordTurnRoute>[1] = {}) {
  const spanContext = recordTurnRoute(turnRoute, { tracerProvider: sdk.provider, ...options });
  const spans = sdk.spans();
  expect(spans).toHaveLength(1);
  const span = spans[0]!;
  expect(span.name).toBe(SPAN_ROUTING_TURN);
  expect(span.kind).toBe(SpanKind.INTERNAL);
  expect(span.attributes[ATTR_ROUTING_RECORD_VERSION]).toBe(ROUTING_RECORD_VERSION);
  expect(span.attributes[ATTR_ROUTING_VERDICT]).toBeUndefined();
  expect(spanContext?.spanId).toBe(span.spanContext().spanId);
  expectOnlyFiniteNumbers(span.attributes);
  return { span, decoded: decodeTurnAttributes(toAttributeMap(span.attributes)) };
}

const entry: TurnRoute = {
  by: 'entry',
  from: 'billing',
  to: 'refunds',
  witness: { text: 'I want my money back for order 1234', keyword: 'money back' },
};

describe('recordTurnRoute', () => {
  it('entry: the witness keyword is recorded, the witness text is not by default (PII)', () => {
    const { span, decoded } = recordAndDecode(entry, { routerName: 'support' });
    expect(decoded).toEqual({ by: 'entry', from: 'billing', to: 'refunds', witnessKeyword: 'money back' });
    expect(span.attributes[ATTR_ROUTING_WITNESS_TEXT]).toBeUndefined();
    expect(span.attributes[ATTR_ROUTING_ROUTER]).toBe('support');
  });

  it('entry with recordWitness: the text goes through redactWitness first', () => {
    const { decoded } = recordAndDecode(entry, {
      recordWitness: true,
      redactWitness: (text) => text.replace(/\d/g, '#'),
    });
    expect(decoded?.witnessText).toBe('I want my money back for order ####');
  });

  it('entry with recordWitness and no redaction records the text as matched', () => {
    const { decoded } = recordAndDecode(entry, { recordWitness: true });
    expect(decoded?.witnessText).toBe(entry.witness!.text);
  });

  it('a redaction that throws drops the text rather than leak it', () => {
    const { span, decoded } = recordAndDecode(entry, {
      recordWitness: true,
      redactWitness: () => {
        throw new Error('redactor down');
      },
    });
    expect(span.attributes[ATTR_ROUTING_WITNESS_TEXT]).toBeUndefined();
    expect(decoded?.witnessKeyword).toBe('money back');
  });

  it('decider: provider, model and pick of the out-of-band tier-3 decider', () => {
    const { decoded } = recordAndDecode(
      { by: 'decider', from: 'billing', to: 'shipping' },
      { decider: { provider: 'openai', model: 'small-router', picked: 'shipping' } },
    );
    expect(decoded).toEqual({
      by: 'decider',
      from: 'billing',
      to: 'shipping',
      decider: { provider: 'openai', model: 'small-router', picked: 'shipping' },
    });
  });

  it('menu: offered and stayOffered', () => {
    const { decoded } = recordAndDecode({
      by: 'menu',
      from: 'billing',
      offered: ['refunds', 'returns'],
      stayOffered: true,
    });
    expect(decoded).toEqual({
      by: 'menu',
      from: 'billing',
      offered: ['refunds', 'returns'],
      stayOffered: true,
    });
  });

  it('offered ids are recorded as a copy, each as a string (user code may hand over other values)', () => {
    const strings = ['refunds', 'returns'];
    const recorded = encodeTurnRoute({ by: 'menu', offered: strings })[ATTR_ROUTING_OFFERED];
    expect(recorded).toStrictEqual(['refunds', 'returns']);
    expect(recorded).not.toBe(strings);
    const mixed = ['refunds', 7, null] as unknown as string[];
    const converted = encodeTurnRoute({ by: 'menu', offered: mixed })[ATTR_ROUTING_OFFERED];
    expect(converted).toStrictEqual(['refunds', '7', 'null']);
    const none = [7, null] as unknown as string[];
    expect(encodeTurnRoute({ by: 'menu', offered: none })[ATTR_ROUTING_OFFERED]).toStrictEqual(['7', 'null']);
  });

  it('none with a dropped resume', () => {
    const { decoded } = recordAndDecode(
      { by: 'none' },
      {
        droppedResume: { id: 'checkout', reason: 'skill no longer visible' },
        context: { conversationId: 'c-9' },
      },
    );
    expect(decoded).toEqual({
      by: 'none',
      droppedResume: { id: 'checkout', reason: 'skill no longer visible' },
    });
    expect(sdk.spans()[0]!.attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe('c-9');
  });

  it('on the caller’s span: attributes added, the span left open', () => {
    const host = sdk.provider.getTracer('host').startSpan('invoke_agent');
    const spanContext = recordTurnRoute({ by: 'continuity', from: 'billing', to: 'billing' }, { span: host });
    expect(spanContext?.spanId).toBe(host.spanContext().spanId);
    expect(sdk.spans()).toHaveLength(0);
    host.end();
    const [span] = sdk.spans();
    expect(span!.name).toBe('invoke_agent');
    expect(decodeTurnAttributes(toAttributeMap(span!.attributes))).toEqual({
      by: 'continuity',
      from: 'billing',
      to: 'billing',
    });
  });

  it('a caller span that no longer records is left alone', () => {
    const host = sdk.provider.getTracer('host').startSpan('invoke_agent');
    host.end();
    expect(recordTurnRoute(entry, { span: host })).toBeUndefined();
    expect(sdk.spans()[0]!.attributes).toEqual({});
  });

  it('never throws: a broken provider, a broken route, no provider', () => {
    const broken: TracerProvider = {
      getTracer: () => {
        throw new Error('provider');
      },
    };
    expect(recordTurnRoute(entry, { tracerProvider: broken })).toBeUndefined();
    expect(recordTurnRoute(null as unknown as TurnRoute, { tracerProvider: sdk.provider })).toBeUndefined();
    expect(recordTurnRoute(entry)).toBeUndefined();
    expect(sdk.spans()).toHaveLength(0);
  });
});
