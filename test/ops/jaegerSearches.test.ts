/**
 * dashboards/jaeger/README.md: the tag searches match the spans the instrumentation really writes, under the
 * matching rule of Jaeger v2's memory store, and the Monitor tab is told to pick the span kind those spans have.
 *
 * The rule, from Jaeger 2.10 (internal/storage/v2/memory/tenant.go, validSpan and findKeyValInTrace): a search
 * names an operation (the span name) and tags; every tag must match on ONE span, looked up in the span's, its
 * scope's and its resource's attributes and in its events' attributes, comparing the values as text. Event names
 * are never looked at. The spans come from the real SDK through the instrumentation.
 */
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { readRepoText } from './opsQueries.js';
import { createMemorySdk } from '../helpers/otelSdk.js';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { markMisrouted } from '../../src/instrument/markMisrouted.js';
import { CORRELATION_ATTRIBUTE_KEYS, ROUTING_ATTRIBUTE_KEYS } from '../../src/semconv/semconv.js';
import { decideTier2 } from '../../src/policy/routingPolicy.js';

const README = readRepoText('dashboards/jaeger/README.md');

interface Search {
  readonly what: string;
  readonly operation: string | undefined;
  readonly tags: ReadonlyArray<readonly [string, string]>;
}

/** The rows of the Search table. */
function searches(): Search[] {
  const section = README.slice(README.indexOf('## Searches'), README.indexOf('## Monitor tab'));
  return section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| To find') && !l.startsWith('| ---'))
    .map((line) => {
      const [what = '', op = '', tags = ''] = line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      const code = (c: string) => /^`(.*)`$/.exec(c)?.[1];
      const tagText = code(tags) ?? '';
      return {
        what,
        operation: code(op),
        tags: tagText === '' ? [] : tagText.split(' ').map((t) => t.split('=') as [string, string]),
      };
    });
}

const text = (v: unknown) => (Array.isArray(v) ? JSON.stringify(v) : String(v));
const has = (attrs: Record<string, unknown>, key: string, value: string) =>
  key in attrs && text(attrs[key]) === value;

/** Jaeger v2 memory store: does this span satisfy the search? */
function matches(span: ReadableSpan, search: Search): boolean {
  if (search.operation !== undefined && search.operation !== span.name) return false;
  return search.tags.every(
    ([key, value]) =>
      has(span.attributes, key, value) ||
      has(span.resource.attributes, key, value) ||
      span.events.some((e) => has(e.attributes ?? {}, key, value)),
  );
}

const sdk = createMemorySdk();
afterAll(() => sdk.shutdown());

/** A near-tie decision of router `support`, a live routing span marked misrouted, and a feedback span. */
function recordSpans(): ReadableSpan[] {
  sdk.reset();
  const decide = instrumentDecideTier2(decideTier2, { tracerProvider: sdk.provider, routerName: 'support' });
  decide(
    [
      { id: 'billing', score: 0.5 },
      { id: 'refunds', score: 0.45 },
    ],
    'refunds',
    {
      nearTieMargin: 0.15,
      menuSize: 3,
    },
  );
  const live = sdk.provider.getTracer('agent').startSpan('agentfootprint.routing.tier2');
  markMisrouted(live, { expected: 'billing', source: 'user-feedback' });
  live.end();
  markMisrouted(
    { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' },
    { expected: 'billing', source: 'user-feedback' },
    { tracerProvider: sdk.provider },
  );
  return sdk.spans();
}

describe('dashboards/jaeger/README.md', () => {
  const rows = searches();

  it('every tag key is an attribute the instrumentation writes (never `event`: v2 does not search event names)', () => {
    expect(rows.length).toBeGreaterThan(5);
    const keys = new Set<string>([...ROUTING_ATTRIBUTE_KEYS, ...CORRELATION_ATTRIBUTE_KEYS]);
    for (const row of rows) for (const [key] of row.tags) expect(keys, row.what).toContain(key);
  });

  it('the misroute searches find the marks, on a live routing span and on a feedback span', () => {
    const spans = recordSpans();
    const marked = spans.filter((s) => s.events.length > 0);
    expect(marked.map((s) => s.name).sort()).toEqual([
      'agentfootprint.routing.feedback',
      'agentfootprint.routing.tier2',
    ]);
    const misrouteRows = rows.filter((r) => /misroute/i.test(r.what));
    expect(misrouteRows.length).toBeGreaterThanOrEqual(3);
    for (const row of misrouteRows) {
      expect(marked.filter((s) => matches(s, row)).length, `${row.what}: finds no mark`).toBeGreaterThan(0);
    }
    // The old search, by event name, finds nothing under the same rule.
    const byEventName = {
      what: 'old',
      operation: undefined,
      tags: [['event', 'agentfootprint.routing.misrouted']],
    } as const;
    expect(spans.filter((s) => matches(s, byEventName))).toEqual([]);
  });

  it('the near-tie searches find a real near-tie decision', () => {
    const spans = recordSpans();
    for (const row of rows.filter((r) => r.what.startsWith('Near-ties'))) {
      expect(
        spans.some((s) => matches(s, row)),
        row.what,
      ).toBe(true);
    }
  });

  it('the Monitor tab section names the span kind the routing spans have (INTERNAL), not the default Server', () => {
    const kinds = new Set(recordSpans().map((s) => s.kind));
    expect([...kinds]).toEqual([SpanKind.INTERNAL]);
    const monitor = README.slice(README.indexOf('## Monitor tab'));
    expect(monitor).toContain('span kind `Internal`');
    expect(monitor).toContain('SPAN_KIND_INTERNAL');
  });
});
