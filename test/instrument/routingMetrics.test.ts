/**
 * routingMetrics: with a meter provider the tier-2 wrapper counts every decision by router, scorer, verdict,
 * near-tie and floor-declared, and records the runner-up gap into the documented buckets — the same facts as
 * the spans, read here through the real @opentelemetry/sdk-metrics MeterProvider and an in-memory reader.
 * Meters and instruments that throw never reach the host nor change a verdict; without a meter provider no
 * meter is asked for anything.
 */
import { diag, DiagLogLevel, metrics as metricsApi } from '@opentelemetry/api';
import type {
  Counter,
  Histogram,
  Meter,
  MeterProvider as ApiMeterProvider,
  TracerProvider,
} from '@opentelemetry/api';
import { AlwaysOffSampler } from '@opentelemetry/sdk-trace-base';
import {
  DataPointType,
  type DataPoint,
  type Histogram as HistogramValue,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import {
  DEFAULT_GAP_HISTOGRAM_BOUNDARIES,
  METRIC_ATTRIBUTE_UNSET,
  METRIC_ROUTING_DECISIONS,
  METRIC_ROUTING_DECISIONS_UNIT,
  METRIC_ROUTING_GAP,
  METRIC_ROUTING_GAP_UNIT,
  ROUTING_METRIC_ATTRIBUTE_KEYS,
} from '../../src/semconv/metricNames.js';
import { INSTRUMENTATION_SCOPE_NAME } from '../../src/instrument/safeExecute.js';
import {
  ATTR_ROUTING_FLOOR_DECLARED,
  ATTR_ROUTING_NEAR_TIE,
  ATTR_ROUTING_ROUTER,
  ATTR_ROUTING_SCORER_NAME,
  ATTR_ROUTING_VERDICT,
} from '../../src/semconv/semconv.js';
import type { InstrumentationConfig, Tier2Call } from '../../src/instrument/types.js';
import { decideTier2 } from '../../src/policy/routingPolicy.js';
import type { DecideTier2, IntentScore, RoutingPolicy, Tier2Verdict } from '../../src/policy/types.js';
import { createMemoryMeter, shutdownMemoryMeters } from '../helpers/memoryMeter.js';
import { createMemorySdk } from '../helpers/otelSdk.js';
import { tier2CallArb } from './tier2Call.arbitrary.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

afterEach(shutdownMemoryMeters);

const s = (id: string, score: number): IntentScore => ({ id, score });
const policy = (floor?: number): RoutingPolicy =>
  floor === undefined ? { nearTieMargin: 0.15, menuSize: 3 } : { nearTieMargin: 0.15, menuSize: 3, floor };

/** The label tuple of a decision, derived here from the call and verdict (not from the module under test). */
function expectedLabels(router: string, scorer: string, call: Tier2Call, verdict: Tier2Verdict): string {
  const nearTie = !verdict.decisive && verdict.runnerUp !== undefined;
  const floorDeclared = (call.policy.floor ?? call.scorer?.floor) !== undefined;
  return [router, scorer, verdict.kind, String(nearTie), String(floorDeclared)].join('|');
}

/** A data point's attributes as the same tuple, in ROUTING_METRIC_ATTRIBUTE_KEYS order. */
function labelsOf(point: DataPoint<unknown>): string {
  expect(Object.keys(point.attributes).sort()).toEqual([...ROUTING_METRIC_ATTRIBUTE_KEYS].sort());
  return ROUTING_METRIC_ATTRIBUTE_KEYS.map((k) => String(point.attributes[k])).join('|');
}

/** Counter values by label tuple. */
function countsByLabels(metric: MetricData | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  if (metric === undefined) return counts;
  expect(metric.dataPointType).toBe(DataPointType.SUM);
  for (const point of metric.dataPoints as DataPoint<number>[]) counts.set(labelsOf(point), point.value);
  return counts;
}

function tally(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

/** Histogram points summed over every label tuple. */
function histogramTotals(metric: MetricData | undefined): { count: number; sum: number; counts: number[] } {
  const totals = { count: 0, sum: 0, counts: [] as number[] };
  if (metric === undefined) return totals;
  expect(metric.dataPointType).toBe(DataPointType.HISTOGRAM);
  for (const point of metric.dataPoints as DataPoint<HistogramValue>[]) {
    expect(point.value.buckets.boundaries).toEqual([...DEFAULT_GAP_HISTOGRAM_BOUNDARIES]);
    totals.count += point.value.count;
    totals.sum += point.value.sum ?? 0;
    point.value.buckets.counts.forEach((c, i) => (totals.counts[i] = (totals.counts[i] ?? 0) + c));
  }
  return totals;
}

/** A known mix: each kind of verdict, floors declared and not. */
const MIX: readonly Tier2Call[] = [
  {
    scores: [s('billing', 2), s('refunds', 0.2)],
    incumbentId: 'refunds',
    policy: policy(),
    scorer: { floor: 0 },
  },
  { scores: [s('billing', 0.5), s('refunds', 0.45)], incumbentId: 'refunds', policy: policy() },
  { scores: [s('a', 0.5), s('b', 0.48), s('c', 0.47)], incumbentId: undefined, policy: policy(-1) },
  { scores: [s('a', 0), s('b', -0.5)], incumbentId: 'a', policy: policy(0) },
  { scores: [s('a', 1)], incumbentId: undefined, policy: policy() },
  { scores: [s('a', 0.5), s('b', 0.48), s('c', 0.47)], incumbentId: undefined, policy: policy(-1) },
];

function route(wrapped: DecideTier2, calls: readonly Tier2Call[]): Tier2Verdict[] {
  return calls.map((c) => wrapped(c.scores, c.incumbentId, c.policy, c.scorer));
}

describe('the decisions counter', () => {
  it('counts every decision by router, scorer, verdict, near_tie and floor_declared', async () => {
    const meter = createMemoryMeter();
    const wrapped = instrumentDecideTier2(decideTier2, {
      meterProvider: meter.provider,
      routerName: 'support',
      scorerName: 'embedding',
    });
    const verdicts = route(wrapped, MIX);
    expect(new Set(verdicts.map((v) => v.kind))).toEqual(new Set(['move', 'stay', 'menu', 'unmatched']));

    const got = await meter.collect();
    const expected = tally(MIX.map((c, i) => expectedLabels('support', 'embedding', c, verdicts[i]!)));
    expect(countsByLabels(got.get(METRIC_ROUTING_DECISIONS))).toEqual(expected);
    expect(got.get(METRIC_ROUTING_DECISIONS)?.descriptor.unit).toBe(METRIC_ROUTING_DECISIONS_UNIT);
  });

  it('the counter carries the same facts as the span, call by call', async () => {
    const sdk = createMemorySdk();
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(tier2CallArb(6), { maxLength: 12 }), async (calls) => {
          sdk.reset();
          const meter = createMemoryMeter();
          const wrapped = instrumentDecideTier2(decideTier2, {
            tracerProvider: sdk.provider,
            meterProvider: meter.provider,
            routerName: 'r',
            scorerName: (call) => (call.scorer?.categorical === true ? 'categorical' : undefined),
          });
          route(wrapped, calls);
          const fromSpans = tally(
            sdk
              .spans()
              .map((span) =>
                [
                  span.attributes[ATTR_ROUTING_ROUTER] ?? METRIC_ATTRIBUTE_UNSET,
                  span.attributes[ATTR_ROUTING_SCORER_NAME] ?? METRIC_ATTRIBUTE_UNSET,
                  span.attributes[ATTR_ROUTING_VERDICT],
                  span.attributes[ATTR_ROUTING_NEAR_TIE],
                  span.attributes[ATTR_ROUTING_FLOOR_DECLARED],
                ].join('|'),
              ),
          );
          expect(sdk.spans()).toHaveLength(calls.length);
          expect(countsByLabels((await meter.collect()).get(METRIC_ROUTING_DECISIONS))).toEqual(fromSpans);
          await meter.provider.shutdown();
        }),
        { numRuns: propertyRuns(60) },
      );
    } finally {
      await sdk.shutdown();
    }
  });

  it('an unset router or scorer is recorded as METRIC_ATTRIBUTE_UNSET (a wrong type or empty name too)', async () => {
    const meter = createMemoryMeter();
    const call = MIX[0]!;
    const configs: InstrumentationConfig[] = [
      {},
      { routerName: '', scorerName: () => 42 as unknown as string },
      {
        scorerName: () => {
          throw new Error('scorer name');
        },
      },
    ];
    for (const config of configs) {
      const wrapped = instrumentDecideTier2(decideTier2, { ...config, meterProvider: meter.provider });
      route(wrapped, [call]);
    }
    const counts = countsByLabels((await meter.collect()).get(METRIC_ROUTING_DECISIONS));
    expect([...counts.keys()].map((k) => k.split('|').slice(0, 2))).toEqual([
      [METRIC_ATTRIBUTE_UNSET, METRIC_ATTRIBUTE_UNSET],
    ]);
    expect([...counts.values()]).toEqual([configs.length]);
  });

  it('counts even when the span is not recording, and with no tracer provider at all', async () => {
    const sampledOut = createMemorySdk({ sampler: new AlwaysOffSampler() });
    const meter = createMemoryMeter();
    try {
      const off = instrumentDecideTier2(decideTier2, {
        tracerProvider: sampledOut.provider,
        meterProvider: meter.provider,
      });
      const global = instrumentDecideTier2(decideTier2, { meterProvider: meter.provider });
      const verdicts = [...route(off, MIX), ...route(global, MIX)];
      expect(sampledOut.spans()).toEqual([]);
      const counts = countsByLabels((await meter.collect()).get(METRIC_ROUTING_DECISIONS));
      const expected = tally(
        [...MIX, ...MIX].map((c, i) => expectedLabels('unknown', 'unknown', c, verdicts[i]!)),
      );
      expect(counts).toEqual(expected);
    } finally {
      await sampledOut.shutdown();
    }
  });

  it('a call that throws is rethrown unchanged and counted by no metric', async () => {
    const meter = createMemoryMeter();
    const boom = new Error('decide');
    const sdk = createMemorySdk();
    try {
      for (const tracerProvider of [sdk.provider, undefined]) {
        const wrapped = instrumentDecideTier2(
          () => {
            throw boom;
          },
          { tracerProvider, meterProvider: meter.provider },
        );
        expect(() => wrapped([s('a', 1)], undefined, policy())).toThrow(boom);
      }
      const got = await meter.collect();
      expect(countsByLabels(got.get(METRIC_ROUTING_DECISIONS)).size).toBe(0);
      expect(histogramTotals(got.get(METRIC_ROUTING_GAP)).count).toBe(0);
    } finally {
      await sdk.shutdown();
    }
  });
});

describe('the gap histogram', () => {
  it('records each runner-up gap into the documented buckets, upper bounds inclusive', async () => {
    const meter = createMemoryMeter();
    const wrapped = instrumentDecideTier2(decideTier2, { meterProvider: meter.provider });
    // Score differences chosen so the gaps land on, under and over the bounds, the margin 0.15 included.
    const diffs = [0, 0.01, 0.1, 2 * Math.atanh(0.15), 0.3, 0.31, 0.6, 1, 2, 5, 40];
    const calls = diffs.map((d) => ({ scores: [s('a', d), s('b', 0)], incumbentId: 'a', policy: policy() }));
    const verdicts = route(wrapped, calls);
    const gaps = verdicts.map((v) => v.runnerUp!.gap);

    const bounds = DEFAULT_GAP_HISTOGRAM_BOUNDARIES;
    const expectedCounts = new Array<number>(bounds.length + 1).fill(0);
    for (const g of gaps) {
      const i = bounds.findIndex((b) => g <= b);
      expectedCounts[i === -1 ? bounds.length : i]!++;
    }
    const totals = histogramTotals((await meter.collect()).get(METRIC_ROUTING_GAP));
    expect(totals.counts).toEqual(expectedCounts);
    expect(totals.count).toBe(gaps.length);
    expect(totals.sum).toBeCloseTo(
      gaps.reduce((a, b) => a + b, 0),
      12,
    );
  });

  it('records a gap only when a runner-up exists; count and sum follow the verdicts', async () => {
    const sdk = createMemorySdk();
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(tier2CallArb(6), { maxLength: 12 }), async (calls) => {
          const meter = createMemoryMeter();
          const wrapped = instrumentDecideTier2(decideTier2, {
            tracerProvider: sdk.provider,
            meterProvider: meter.provider,
          });
          // A negative gap (duplicate ids judged by their last score) is left to the span: histograms take none.
          const gaps = route(wrapped, calls).flatMap((v) =>
            v.runnerUp === undefined || v.runnerUp.gap < 0 ? [] : [v.runnerUp.gap],
          );
          const got = await meter.collect();
          const totals = histogramTotals(got.get(METRIC_ROUTING_GAP));
          expect(totals.count).toBe(gaps.length);
          expect(totals.sum).toBeCloseTo(
            gaps.reduce((a, b) => a + b, 0),
            9,
          );
          expect(got.get(METRIC_ROUTING_GAP)?.descriptor.unit ?? METRIC_ROUTING_GAP_UNIT).toBe(
            METRIC_ROUTING_GAP_UNIT,
          );
          await meter.provider.shutdown();
          sdk.reset();
        }),
        { numRuns: propertyRuns(60) },
      );
    } finally {
      await sdk.shutdown();
    }
  });
});

/** A meter provider whose meter is built from the given parts; the rest behave like the API's no-ops. */
function fakeMeterProvider(parts: {
  getMeter?: () => Meter;
  counter?: Partial<Counter>;
  histogram?: Partial<Histogram>;
  createCounter?: () => Counter;
}): ApiMeterProvider & { created: { counter: number; histogram: number; meter: number } } {
  const created = { counter: 0, histogram: 0, meter: 0 };
  const noop = metricsApi.getMeterProvider().getMeter('noop');
  const meter: Meter = Object.assign(Object.create(noop) as Meter, {
    createCounter: (...args: Parameters<Meter['createCounter']>) => {
      created.counter++;
      if (parts.createCounter !== undefined) return parts.createCounter();
      return { ...noop.createCounter(...args), ...parts.counter } as Counter;
    },
    createHistogram: (...args: Parameters<Meter['createHistogram']>) => {
      created.histogram++;
      return { ...noop.createHistogram(...args), ...parts.histogram } as Histogram;
    },
  });
  return {
    created,
    getMeter: () => {
      created.meter++;
      return parts.getMeter === undefined ? meter : parts.getMeter();
    },
  };
}

const fail = (what: string) => () => {
  throw new Error(what);
};

const THROWING_METERS: [string, () => ApiMeterProvider][] = [
  ['getMeter throws', () => fakeMeterProvider({ getMeter: fail('getMeter') })],
  ['createCounter throws', () => fakeMeterProvider({ createCounter: fail('createCounter') })],
  ['counter.add throws', () => fakeMeterProvider({ counter: { add: fail('add') } })],
  ['histogram.record throws', () => fakeMeterProvider({ histogram: { record: fail('record') } })],
];

describe('safety', () => {
  it.each(THROWING_METERS)('%s: the very same verdict, spans still recorded, nothing thrown', (_n, make) => {
    const sdk = createMemorySdk();
    const runs = propertyRuns(50);
    let returned: Tier2Verdict | undefined;
    const spy: DecideTier2 = (...args) => (returned = decideTier2(...args));
    try {
      for (const tracerProvider of [sdk.provider, undefined]) {
        const wrapped = instrumentDecideTier2(spy, { tracerProvider, meterProvider: make() });
        fc.assert(
          fc.property(tier2CallArb(), (call) => {
            const verdict = wrapped(call.scores, call.incumbentId, call.policy, call.scorer);
            expect(verdict).toBe(returned);
            expect(verdict).toStrictEqual(
              decideTier2(call.scores, call.incumbentId, call.policy, call.scorer),
            );
          }),
          { numRuns: runs },
        );
      }
      expect(sdk.spans()).toHaveLength(runs);
    } finally {
      void sdk.shutdown();
    }
  });

  it('a throwing counter costs the counter only: the gap is still recorded', async () => {
    const meter = createMemoryMeter();
    const real = meter.provider.getMeter(INSTRUMENTATION_SCOPE_NAME);
    const provider = fakeMeterProvider({
      getMeter: () =>
        Object.assign(Object.create(real) as Meter, {
          createCounter: () => ({ add: fail('add') }) as unknown as Counter,
          createHistogram: real.createHistogram.bind(real),
        }),
    });
    route(instrumentDecideTier2(decideTier2, { meterProvider: provider }), MIX);
    const got = await meter.collect();
    expect(histogramTotals(got.get(METRIC_ROUTING_GAP)).count).toBe(
      MIX.filter((c) => decideTier2(c.scores, c.incumbentId, c.policy, c.scorer).runnerUp).length,
    );
  });

  it('what it swallows goes to the diag logger, never the console', () => {
    const warnings: string[] = [];
    const log = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
    diag.setLogger({ error: log, warn: log, info: log, debug: log, verbose: log }, DiagLogLevel.WARN);
    const consoleSpies = (['log', 'warn', 'error', 'info', 'debug'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation(() => undefined),
    );
    try {
      for (const [, make] of THROWING_METERS) {
        route(instrumentDecideTier2(decideTier2, { meterProvider: make() }), MIX);
      }
      for (const what of ['creating the routing metrics', 'counting the routing decision', 'runner-up gap']) {
        expect(
          warnings.some((w) => w.includes('routescope') && w.includes(what)),
          what,
        ).toBe(true);
      }
      for (const spy of consoleSpies) expect(spy).not.toHaveBeenCalled();
    } finally {
      diag.disable();
      for (const spy of consoleSpies) spy.mockRestore();
    }
  });
});

describe('cost', () => {
  it('instruments are created once per wrapper, not per call', () => {
    const provider = fakeMeterProvider({});
    const wrapped = instrumentDecideTier2(decideTier2, { meterProvider: provider });
    route(wrapped, [...MIX, ...MIX, ...MIX]);
    expect(provider.created).toEqual({ meter: 1, counter: 1, histogram: 1 });
  });

  it('a per-call scorerName function runs once per call when both span and metrics record', () => {
    const sdk = createMemorySdk();
    const meter = createMemoryMeter();
    let calls = 0;
    const wrapped = instrumentDecideTier2(decideTier2, {
      tracerProvider: sdk.provider,
      meterProvider: meter.provider,
      scorerName: () => (calls++, 'x'),
    });
    route(wrapped, MIX);
    expect(calls).toBe(MIX.length);
    void sdk.shutdown();
  });

  it('without a meterProvider no meter is asked for anything, not even the global one', () => {
    const global = fakeMeterProvider({});
    expect(metricsApi.setGlobalMeterProvider(global)).toBe(true);
    try {
      const sampledOut = createMemorySdk({ sampler: new AlwaysOffSampler() });
      route(instrumentDecideTier2(decideTier2, { tracerProvider: sampledOut.provider }), MIX);
      route(instrumentDecideTier2(decideTier2), MIX);
      expect(global.created).toEqual({ meter: 0, counter: 0, histogram: 0 });
      void sampledOut.shutdown();
    } finally {
      metricsApi.disable();
    }
  });
});

describe('metrics without traces', () => {
  it('a tracer provider whose getTracer throws still lets every decision be counted', async () => {
    const meter = createMemoryMeter();
    const throwing: TracerProvider = {
      getTracer: () => {
        throw new Error('getTracer');
      },
    };
    const wrapped = instrumentDecideTier2(decideTier2, {
      tracerProvider: throwing,
      meterProvider: meter.provider,
    });
    expect(wrapped).not.toBe(decideTier2);
    const verdicts = route(wrapped, MIX);
    const counts = countsByLabels((await meter.collect()).get(METRIC_ROUTING_DECISIONS));
    expect(counts).toEqual(tally(MIX.map((c, i) => expectedLabels('unknown', 'unknown', c, verdicts[i]!))));
  });

  it('each instrument says what it measures', async () => {
    const meter = createMemoryMeter();
    instrumentDecideTier2(decideTier2, { meterProvider: meter.provider })(
      [s('a', 0.9), s('b', 0.85)],
      undefined,
      policy(),
    );
    const got = await meter.collect();
    expect(got.get(METRIC_ROUTING_DECISIONS)!.descriptor.description).toMatch(/^Tier-2 routing decisions/);
    expect(got.get(METRIC_ROUTING_GAP)!.descriptor.description).toMatch(/^Pairwise runner-up gap/);
  });

  it('a negative gap (duplicate ids, judged by their last score) is counted but kept out of the histogram', async () => {
    const meter = createMemoryMeter();
    const wrapped = instrumentDecideTier2(decideTier2, { meterProvider: meter.provider });
    const verdict = wrapped([s('a', 1), s('b', 0.9), s('a', 0)], undefined, policy());
    expect(verdict.runnerUp!.gap).toBeLessThan(0);
    const got = await meter.collect();
    expect([...countsByLabels(got.get(METRIC_ROUTING_DECISIONS)).values()]).toStrictEqual([1]);
    expect(histogramTotals(got.get(METRIC_ROUTING_GAP)).count).toBe(0);
  });
});

describe('the gap histogram takes finite gaps only', () => {
  it('a routing function reporting a non-finite or negative gap has the decision counted, the gap left out', async () => {
    const meter = createMemoryMeter();
    for (const gap of [NaN, Infinity, -0.5]) {
      const decide: DecideTier2 = (scores) => ({
        kind: 'stay',
        ranked: scores.map((c) => ({ ...c, relevance: 0.5 })),
        runnerUp: { id: 'b', gap },
        decisive: false,
      });
      instrumentDecideTier2(decide, { meterProvider: meter.provider })([s('a', 1), s('b', 1)], 'a', policy());
    }
    const got = await meter.collect();
    expect([...countsByLabels(got.get(METRIC_ROUTING_DECISIONS)).values()].reduce((a, b) => a + b, 0)).toBe(
      3,
    );
    expect(histogramTotals(got.get(METRIC_ROUTING_GAP))).toMatchObject({ count: 0, sum: 0 });
  });
});
