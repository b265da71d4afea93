// serve's window as slices of accumulators: the view merged from the slices is, at every moment, the view of
// the window's records replayed through fresh analyses — through evictions by count and by bytes, cut strings,
// and a partly evicted oldest slice. One rule per `it`, and the law over generated traffic.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../src/record/types.js';
import { buildWindowView, replayWindowView } from '../../src/serve/serveReport.js';
import { createServeRuntime, type ServeRuntime } from '../../src/serve/serveRuntime.js';
import { MAX_SLICE_DECISIONS, SLICES, sliceLimits } from '../../src/serve/slices/windowSlices.js';
import { recordArbitrary } from '../analyze/mixedRecords.js';
import { generateWorkload } from '../analyze/replayRecords.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

function runtimeOf(config: {
  maxDecisions: number;
  maxWindowBytes?: number;
  maxString?: number;
  policy?: 'auto' | 'contract';
}): ServeRuntime {
  return createServeRuntime({ endpoint: 'http://127.0.0.1:4318', ...config });
}

async function expectViewsEqual(runtime: ServeRuntime): Promise<void> {
  const merged = buildWindowView(runtime.state);
  const replayed = await replayWindowView(runtime.state);
  expect(merged.view).toEqual(replayed.view);
  expect(merged.index).toEqual(replayed.index);
}

/** Unique span ids, so the window holds every record given (the builder's duplicate filter is not involved). */
function numbered(records: readonly TraceRecord[], from = 0): TraceRecord[] {
  return records.map((r, i) => ({ ...r, spanId: (from + i).toString(16).padStart(16, '0') }));
}

describe('windowSlices', () => {
  it('law: after every batch, the merged view equals the replay of the window (evictions, cuts, policies)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(recordArbitrary, { maxLength: 40 }), { minLength: 1, maxLength: 6 }),
        fc.record({
          maxDecisions: fc.integer({ min: 1, max: 200 }),
          maxWindowBytes: fc.constantFrom(undefined, 4_000, 20_000),
          maxString: fc.constantFrom(undefined, 64),
          policy: fc.constantFrom<'auto' | 'contract'>('auto', 'contract'),
        }),
        async (batches, raw) => {
          const config = Object.fromEntries(
            Object.entries(raw).filter(([, v]) => v !== undefined),
          ) as typeof raw;
          const runtime = runtimeOf(config as { maxDecisions: number });
          let n = 0;
          for (const batch of batches) {
            runtime.take(numbered(batch, n));
            n += batch.length;
            await expectViewsEqual(runtime);
          }
        },
      ),
      { numRuns: propertyRuns(60) },
    );
  });

  it('a window that evicted part of its oldest slice still counts exactly what it holds', async () => {
    const runtime = runtimeOf({ maxDecisions: 640 });
    // 10 decisions a slice; 645 decisions evict 5 of the oldest slice's 10.
    runtime.take(generateWorkload(645, 3));
    expect(runtime.window.evicted.decisions).toBe(5);
    expect(runtime.state.slices.size).toBe(65);
    const merged = buildWindowView(runtime.state);
    expect(merged.view.summary.decisions).toBe(640);
    expect(merged.index.decisions).toBe(640);
    await expectViewsEqual(runtime);
  });

  it('the lists index, made when first read, holds what the view counted, not what came after it', () => {
    const runtime = runtimeOf({ maxDecisions: 1000 });
    runtime.take(numbered(generateWorkload(300, 4)));
    const view = buildWindowView(runtime.state);
    runtime.take(numbered(generateWorkload(50, 6), 300));
    expect(view.index.decisions).toBe(300);
    expect(view.view.summary.decisions).toBe(300);
    expect(buildWindowView(runtime.state).index.decisions).toBe(350);
  });

  it('slices whose records were all evicted are dropped, so their number stays bounded', () => {
    const runtime = runtimeOf({ maxDecisions: 64 });
    for (let i = 0; i < 20; i++) runtime.take(generateWorkload(100, i));
    // One decision a slice: a slice for each of the window's 64, none for what was evicted.
    expect(runtime.state.slices.size).toBe(SLICES);
    expect(buildWindowView(runtime.state).view.summary.decisions).toBe(64);
  });

  it('a slice holds a share of each of the window limits, at most MAX_SLICE_DECISIONS decisions', () => {
    expect(sliceLimits({ maxDecisions: 100_000, otherPerDecision: 2, maxBytes: 64 * 1024 * 1024 })).toEqual({
      decisions: 1563,
      others: 3126,
      bytes: 1024 * 1024,
    });
    expect(sliceLimits({ maxDecisions: 10_000_000, otherPerDecision: 2, maxBytes: 1 << 20 }).decisions).toBe(
      MAX_SLICE_DECISIONS,
    );
    expect(sliceLimits({ maxDecisions: 1, otherPerDecision: 0, maxBytes: 1 })).toEqual({
      decisions: 1,
      others: 1,
      bytes: 1,
    });
  });

  it('a record whose strings the window cut is analysed as the window holds it', async () => {
    const runtime = runtimeOf({ maxDecisions: 10, maxString: 64 });
    const [d] = generateWorkload(1, 5);
    runtime.take([
      {
        ...d!,
        router: 'a-router-name-longer-than-sixty-four-characters-which-the-window-cuts-to-its-limit-of-64',
      },
    ]);
    const merged = buildWindowView(runtime.state);
    const held = [...runtime.window.records()][0]!;
    expect(held.router).not.toBe(
      'a-router-name-longer-than-sixty-four-characters-which-the-window-cuts-to-its-limit-of-64',
    );
    expect(merged.view.summary.byRouter.rows.map((r) => r.name)).toEqual([held.router]);
    await expectViewsEqual(runtime);
  });
});
