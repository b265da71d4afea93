/**
 * strategyStatus.test — the silent zeros: every setup that gives no routing span is told once through diag and
 * named by `strategy.status()`, with a real SDK provider.
 *
 * Events reach the strategy as agentfootprint 9.62 delivers them (src/strategies/attach.ts of its source): the
 * observability tier's filter first (`'minimal'` passes only `agentfootprint.error.*` and `.agent.*`, `'standard'`
 * all but `stream.token`), then the strategy's own `relevantEventTypes`; `composeObservability` passes every event
 * to its children unfiltered. A turn is the framework's sequence of event types (events/registry.ts).
 */
import { diag, trace } from '@opentelemetry/api';
import { AlwaysOffSampler, BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FLUSH_TIMEOUT_MS, routescopeObservability } from '../../src/instrument/routescopeObservability.js';
import type { RoutescopeObservability } from '../../src/instrument/routescopeObservability.js';
import { TURNS_BEFORE_NO_ROUTING_WARNING } from '../../src/instrument/strategyStatus.js';
import { SPAN_ROUTING_TIER2, SPAN_ROUTING_TURN } from '../../src/semconv/semconv.js';
import { createMemorySdk, type MemorySdk } from '../helpers/otelSdk.js';
import { keepDiagLines, turnRoutedEvent } from '../helpers/turnRoutedEvents.js';

type Tier = 'minimal' | 'standard' | 'composed';

const TIER_PASSES: Record<Tier, (type: string) => boolean> = {
  minimal: (t) => t.startsWith('agentfootprint.error.') || t.startsWith('agentfootprint.agent.'),
  standard: (t) => !t.startsWith('agentfootprint.stream.token'),
  composed: () => true,
};

/** Deliver events to the strategy the way the framework's dispatcher does for `tier`. */
function attach(strategy: RoutescopeObservability, tier: Tier): (event: { type: string }) => void {
  const relevant = tier === 'composed' ? null : new Set(strategy.relevantEventTypes);
  return (event) => {
    if (!TIER_PASSES[tier](event.type)) return;
    if (relevant !== null && !relevant.has(event.type)) return;
    strategy.exportEvent(event);
  };
}

let turnClock = Date.UTC(2026, 11, 6, 12);

/** One agent turn's events, with a `turn_routed` when the graph runs the routing cascade. */
function turnEvents(routed: boolean): { type: string; payload: unknown; meta: unknown }[] {
  const meta = { runId: `run-${turnClock}`, sessionId: 'sess-1', wallClockMs: turnClock++ };
  const ev = (type: string, payload: unknown = {}) => ({ type: `agentfootprint.${type}`, payload, meta });
  return [
    ev('agent.turn_start'),
    ...(routed ? [turnRoutedEvent({}, meta)] : []),
    ev('skill.activated'),
    ev('context.injected'),
    ev('agent.iteration_start'),
    ev('stream.llm_start'),
    ev('stream.token'),
    ev('stream.token'),
    ev('stream.llm_end'),
    ev('agent.iteration_end'),
    ev('agent.turn_end'),
  ];
}

function runTurns(deliver: (e: { type: string }) => void, turns: number, routed: boolean): void {
  for (let i = 0; i < turns; i++) for (const e of turnEvents(routed)) deliver(e);
}

let sdk: MemorySdk;
let warnings: string[];
beforeEach(() => {
  sdk = createMemorySdk();
  warnings = [];
  keepDiagLines(warnings);
});
afterEach(async () => {
  diag.disable();
  trace.disable();
  await sdk.shutdown();
});

const routingSpans = (): number =>
  sdk.spans().filter((s) => s.name === SPAN_ROUTING_TIER2 || s.name === SPAN_ROUTING_TURN).length;

describe('events arrive but never a turn_routed', () => {
  it("the 'minimal' tier: only agent.* events reach the strategy; told once, after the third finished turn", () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    const deliver = attach(strategy, 'minimal');
    runTurns(deliver, TURNS_BEFORE_NO_ROUTING_WARNING - 1, true);
    expect(strategy.status().reason?.code).toBe('no-turn-routed-yet');
    expect(warnings).toEqual([]);

    runTurns(deliver, 10, true);
    expect(routingSpans()).toBe(0);
    const status = strategy.status();
    expect(status).toMatchObject({
      turnsReceived: 0,
      spansRecorded: 0,
      turnsEnded: TURNS_BEFORE_NO_ROUTING_WARNING + 9,
      reason: { code: 'minimal-tier' },
    });
    // Of the strategy's three types only turn_end passes the tier: turn_routed and llm_start are dropped.
    expect(status.eventsReceived).toBe(TURNS_BEFORE_NO_ROUTING_WARNING + 9);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("'minimal'");
    expect(warnings[0]).toContain("tier: 'standard'");
    expect(status.reason?.message).toBe(warnings[0]!.replace(/^routescope /, ''));
  });

  it('the standard tier, a graph without the routing cascade: the LLM calls arrive, so the graph is named', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    runTurns(attach(strategy, 'standard'), 12, false);
    expect(strategy.status()).toMatchObject({
      turnsReceived: 0,
      eventsReceived: 12 * 2, // turn_end and llm_start
      reason: { code: 'no-routing-cascade' },
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('does not run the routing cascade');
    expect(warnings[0]).toContain('classify');
  });

  it('through composeObservability (every event, unfiltered) the same graph is named the same way', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    runTurns(attach(strategy, 'composed'), 4, false);
    expect(strategy.status().reason?.code).toBe('no-routing-cascade');
    expect(strategy.status().eventsReceived).toBe(4 * 10);
    expect(warnings).toHaveLength(1);
  });

  it('a cold start with no turn_routed, then routed turns: recorded, nothing to tell', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    const deliver = attach(strategy, 'standard');
    runTurns(deliver, 1, false);
    runTurns(deliver, 5, true);
    expect(strategy.status()).toMatchObject({ turnsReceived: 5, spansRecorded: 10, reason: null });
    expect(routingSpans()).toBe(10);
    expect(warnings).toEqual([]);
  });

  it('turnsEnded counts every finished turn, before and after the first turn_routed, at every tier', () => {
    for (const tier of ['minimal', 'standard', 'composed'] as const) {
      const strategy = routescopeObservability({ tracerProvider: sdk.provider });
      const deliver = attach(strategy, tier);
      runTurns(deliver, 2, false);
      runTurns(deliver, 7, true);
      runTurns(deliver, 3, false);
      expect(strategy.status().turnsEnded, tier).toBe(12);
    }
  });
});

describe('turn_routed events arrive and nothing records them', () => {
  it('no SDK registered anywhere: one warning for many turns; the status says no-sdk', () => {
    const strategy = routescopeObservability();
    runTurns(attach(strategy, 'standard'), 20, true);
    expect(routingSpans()).toBe(0);
    expect(strategy.status()).toMatchObject({
      turnsReceived: 20,
      turnsWithoutSdk: 20,
      sdkFound: false,
      spansRecorded: 0,
      reason: { code: 'no-sdk' },
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('no SDK is registered yet');
  });

  it('an SDK registered after some turns: recorded from then on, the reason gone', () => {
    const strategy = routescopeObservability();
    const deliver = attach(strategy, 'standard');
    runTurns(deliver, 2, true);
    expect(strategy.status().reason?.code).toBe('no-sdk');
    trace.setGlobalTracerProvider(sdk.provider);
    runTurns(deliver, 3, true);
    expect(strategy.status()).toMatchObject({ turnsWithoutSdk: 2, spansRecorded: 6, reason: null });
  });

  it('an SDK whose sampler records nothing: named by the status, not warned about (sampling is a choice)', () => {
    const off = createMemorySdk({ sampler: new AlwaysOffSampler() });
    const strategy = routescopeObservability({ tracerProvider: off.provider });
    runTurns(attach(strategy, 'standard'), 3, true);
    expect(strategy.status()).toMatchObject({
      turnsReceived: 3,
      sdkFound: true,
      spansRecorded: 0,
      reason: { code: 'not-sampled' },
    });
    expect(warnings).toEqual([]);
    return off.shutdown();
  });

  it('nothing received at all', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    expect(strategy.status()).toMatchObject({ eventsReceived: 0, reason: { code: 'no-events' } });
  });

  it('a snapshot: a status read before more turns does not change', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    const before = strategy.status();
    runTurns(attach(strategy, 'standard'), 2, true);
    expect(before.turnsReceived).toBe(0);
    expect(strategy.status().turnsReceived).toBe(2);
  });
});

describe('an event the strategy cannot even read', () => {
  it('a getter that throws on type, or a revoked Proxy: nothing thrown into the host, one swallowed warning each', () => {
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    const throwing = Object.defineProperty({}, 'type', {
      get: () => {
        throw new Error('type');
      },
    });
    const { proxy, revoke } = Proxy.revocable({ type: 'agentfootprint.skill.turn_routed' }, {});
    revoke();
    expect(() => strategy.exportEvent(throwing)).not.toThrow();
    expect(() => strategy.exportEvent(proxy)).not.toThrow();
    expect(warnings).toHaveLength(2);
    expect(strategy.status()).toMatchObject({ eventsReceived: 0, turnsReceived: 0 });
  });
});

describe('re-entrance and a flush that never ends (issue 31, item 7)', () => {
  it('an attributesHook that calls exportEvent again: the nested call is dropped, counted, told once', () => {
    let strategy: RoutescopeObservability | undefined = undefined;
    let depth = 0;
    strategy = routescopeObservability({
      tracerProvider: sdk.provider,
      attributesHook: () => {
        depth++;
        if (depth < 15) strategy!.exportEvent(turnRoutedEvent());
      },
    });
    strategy.exportEvent(turnRoutedEvent());
    expect(routingSpans()).toBe(2);
    expect(strategy.status()).toMatchObject({ turnsReceived: 1, spansRecorded: 2, reentrantDropped: 2 });
    expect(warnings.filter((w) => w.includes('called from inside exportEvent'))).toHaveLength(1);
    // Not stuck: the next event from outside is recorded as usual.
    strategy.exportEvent(turnRoutedEvent());
    expect(routingSpans()).toBe(4);
  });

  it('a provider whose forceFlush never settles: flush() resolves after flushTimeoutMs with one warning', async () => {
    const stuck = new BasicTracerProvider({
      spanProcessors: [
        {
          onStart: () => {},
          onEnd: () => {},
          forceFlush: () => new Promise<void>(() => {}),
          shutdown: () => Promise.resolve(),
        },
      ],
    });
    const strategy = routescopeObservability({ tracerProvider: stuck, flushTimeoutMs: 50 });
    strategy.exportEvent(turnRoutedEvent());
    await strategy.flush();
    expect(warnings.filter((w) => w.includes('did not finish within 50 ms'))).toHaveLength(1);
  });

  it(`flushTimeoutMs defaults to ${FLUSH_TIMEOUT_MS} ms, and a flush that settles in time warns nothing`, async () => {
    expect(FLUSH_TIMEOUT_MS).toBe(10_000);
    const strategy = routescopeObservability({ tracerProvider: sdk.provider });
    strategy.exportEvent(turnRoutedEvent());
    await strategy.flush();
    expect(warnings).toEqual([]);
  });
});
