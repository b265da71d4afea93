/**
 * The wrapper made before the app registers its SDK, with one copy of `@opentelemetry/api`: what
 * docs/instrumentation.md says it does. The wrapper holds the global provider as it was when it wrapped, the API's
 * proxy, which hands each call to the SDK once one registers: calls before registration record nothing, calls after
 * record their span. (Two copies of the API are test/instrument/secondApiCopy.test.ts.)
 */
import { trace } from '@opentelemetry/api';
import { afterEach, expect, it } from 'vitest';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { decideTier2, resolveRoutingPolicy } from '../../src/policy/routingPolicy.js';
import { SPAN_ROUTING_TIER2 } from '../../src/semconv/semconv.js';
import { createMemorySdk } from '../helpers/otelSdk.js';

afterEach(() => trace.disable());

it('a wrapper made before the SDK registers records every call after it, and none before', async () => {
  const decide = instrumentDecideTier2(decideTier2, { routerName: 'desk' });
  const scores = [
    { id: 'billing', score: 0.9 },
    { id: 'refunds', score: 0.2 },
  ];
  const before = decide(scores, undefined, resolveRoutingPolicy(), { floor: 0 });
  const sdk = createMemorySdk();
  expect(trace.setGlobalTracerProvider(sdk.provider)).toBe(true);
  const after = decide(scores, undefined, resolveRoutingPolicy(), { floor: 0 });
  expect(after).toEqual(before);
  decide(scores, 'refunds', resolveRoutingPolicy(), { floor: 0 });
  expect(sdk.spans().map((s) => s.name)).toEqual([SPAN_ROUTING_TIER2, SPAN_ROUTING_TIER2]);
  await sdk.shutdown();
});
