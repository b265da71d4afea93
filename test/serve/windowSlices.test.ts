// serve's window as slices of accumulators: the view merged from the slices is, at every moment, the view of
// the window's records replayed through fresh analyses — through evictions by count and by bytes, cut strings,
// and a partly evicted oldest slice. One rule per `it`, and the law over generated traffic.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../src/record/types.js';
import { buildWindowView, replayWindowView } from '../../src/serve/serveReport.js';
import { createServeRuntime, type ServeRuntime } from '../../src/serve/serveRuntime.js';
import type { Slicer } from '../../src/serve/sliceWork.js';
import {
  MAX_SLICE_DECISIONS,
  SLICES,
  sliceLimits,
  type SliceWatchOptions,
} from '../../src/serve/slices/windowSlices.js';
import { recordArbitrary } from '../analyze/mixedRecords.js';
import { generateWorkload } from '../analyze/replayRecords.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

function runtimeOf(config: {
  maxDecisions: number;
  maxWindowBytes?: number;
  maxString?: number;
  policy?: 'auto' | 'contract';
  sliceWatch?: SliceWatchOptions;
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

  describe('analyses only while watched', () => {
    /** A clock the test moves, and a runtime on it that stops analysing 1,000 ms after a view. */
    function watchedRuntime(maxDecisions: number): { runtime: ServeRuntime; clock: { ms: number } } {
      const clock = { ms: 0 };
      const runtime = runtimeOf({ maxDecisions, sliceWatch: { idleMs: 1000, now: () => clock.ms } });
      return { runtime, clock };
    }

    /** A slicer that pauses every `every` steps and, in the pause, runs `during` (arrivals meanwhile). */
    function pausingSlicer(every: number, during: () => void): Slicer & { pauses: number } {
      let steps = 0;
      const slicer = {
        pauses: 0,
        pause() {
          if (++steps % every !== 0) return undefined;
          slicer.pauses++;
          return Promise.resolve().then(during);
        },
      };
      return slicer;
    }

    it('a slice opened long after the last view holds no analyses, and lets the others go', () => {
      const { runtime, clock } = watchedRuntime(640); // 10 decisions a slice
      runtime.take(numbered(generateWorkload(100, 1)));
      buildWindowView(runtime.state);
      runtime.take(numbered(generateWorkload(30, 2), 100));
      expect(runtime.state.slices.analysed).toBe(runtime.state.slices.size);
      clock.ms = 1001;
      runtime.take(numbered(generateWorkload(30, 3), 130));
      expect(runtime.state.slices.analysed).toBe(0);
      expect(runtime.state.slices.size).toBe(16);
    });

    it('the first view after a while replays what was not analysed, then arrivals are added again', async () => {
      const { runtime, clock } = watchedRuntime(640);
      clock.ms = 5000;
      runtime.take(numbered(generateWorkload(200, 4)));
      expect(runtime.state.slices.analysed).toBe(0);
      await expectViewsEqual(runtime);
      expect(runtime.state.slices.analysed).toBe(runtime.state.slices.size);
      runtime.take(numbered(generateWorkload(25, 5), 200));
      expect(runtime.state.slices.analysed).toBe(runtime.state.slices.size);
      await expectViewsEqual(runtime);
    });

    it('catching up gives the event loop back, and what arrives meanwhile is counted', async () => {
      const { runtime, clock } = watchedRuntime(6400); // 100 decisions a slice
      clock.ms = 5000;
      runtime.take(numbered(generateWorkload(250, 6)));
      let n = 250;
      // Arrivals in every pause land in the open slice while it is being replayed.
      const slicer = pausingSlicer(7, () => {
        runtime.take(numbered(generateWorkload(1, n), n));
        n += 1;
      });
      await runtime.state.slices.catchUp(runtime.window, slicer);
      expect(slicer.pauses).toBeGreaterThan(30);
      expect(runtime.state.slices.analysed).toBe(runtime.state.slices.size);
      await expectViewsEqual(runtime);
    });

    it('a slice evicted from while it is replayed is not kept half counted', async () => {
      const { runtime, clock } = watchedRuntime(300); // 5 decisions a slice
      clock.ms = 5000;
      runtime.take(numbered(generateWorkload(250, 7)));
      let n = 250;
      const slicer = pausingSlicer(2, () => {
        runtime.take(numbered(generateWorkload(40, n), n));
        n += 40;
      });
      await runtime.state.slices.catchUp(runtime.window, slicer);
      expect(runtime.window.evicted.decisions).toBeGreaterThan(0);
      await expectViewsEqual(runtime);
    });

    it('law: views, idle spells and catch-ups with arrivals in their pauses, in any order, view exactly the window', async () => {
      const step = fc.oneof(
        fc.record({
          kind: fc.constant('take' as const),
          records: fc.array(recordArbitrary, { maxLength: 30 }),
        }),
        fc.record({ kind: fc.constant('idle' as const) }),
        fc.record({ kind: fc.constant('view' as const) }),
        fc.record({
          kind: fc.constant('catchUp' as const),
          every: fc.integer({ min: 1, max: 9 }),
          during: fc.array(recordArbitrary, { maxLength: 4 }),
        }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(step, { minLength: 1, maxLength: 12 }),
          fc.integer({ min: 1, max: 120 }),
          async (steps, maxDecisions) => {
            const { runtime, clock } = watchedRuntime(maxDecisions);
            let n = 0;
            const take = (records: readonly TraceRecord[]): void => {
              runtime.take(numbered(records, n));
              n += records.length;
            };
            for (const s of steps) {
              if (s.kind === 'take') take(s.records);
              else if (s.kind === 'idle') clock.ms += 1001;
              else if (s.kind === 'view') await expectViewsEqual(runtime);
              else
                await runtime.state.slices.catchUp(
                  runtime.window,
                  pausingSlicer(s.every, () => take(s.during)),
                );
            }
            await expectViewsEqual(runtime);
          },
        ),
        { numRuns: propertyRuns(60) },
      );
    });
  });
});
