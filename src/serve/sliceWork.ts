/**
 * sliceWork — long work in slices, so that no page, conversion or replay holds serve's event loop for long.
 *
 * serve is one thread: while it replays a 100,000-decision window for a page, the receiver answers nothing. A
 * slicer tells long loops when they have run for `sliceMs` (checked every few steps, as reading the clock costs
 * too); the loop then awaits `pause()`, which gives the event loop back (setImmediate: pending I/O first) and
 * starts the next slice. No I/O.
 */

/** The longest a slice of long work holds the event loop before it lets other work run. */
export const SLICE_MS = 20;

/** Tells a long loop when to let other work run. */
export interface Slicer {
  /** A promise to await when the slice has run its time; undefined while it has not. */
  pause(): Promise<void> | undefined;
}

/** A slicer of `sliceMs` slices, the first starting now, that reads the clock every `every` steps. */
export function createSlicer(sliceMs: number = SLICE_MS, every = 64): Slicer {
  let started = performance.now();
  let steps = 0;
  return {
    pause() {
      if (++steps % every !== 0) return undefined;
      if (performance.now() - started < sliceMs) return undefined;
      return new Promise<void>((resolve) =>
        setImmediate(() => {
          started = performance.now();
          resolve();
        }),
      );
    },
  };
}

/** A slicer that never pauses (work done at once: tests, the CLI). */
export const NEVER_PAUSE: Slicer = Object.freeze({ pause: () => undefined });
