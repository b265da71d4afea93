/**
 * demoClock — the simulated time of a demo run: the conversations spread over the day before the run.
 *
 * The report's charts over time need a day to show, not one instant, and two runs must write the same file
 * apart from the day they start at: each conversation starts in a slot of its own at a fixed scatter, and
 * the turns inside it move the clock on by what they take. No I/O.
 */

/** A day, in milliseconds. */
export const DAY_MS = 86_400_000;

/** The simulated time of the run: `now()` reads it, `advance(ms)` moves it on and gives the new time. */
export interface DemoClock {
  now(): number;
  advance(ms: number): number;
  /** Jump to conversation `k`'s start: the day cut in equal slots, one each, started at a fixed point. */
  startConversation(k: number): void;
}

/** A clock over the day from `dayStartMs`, with `count` conversations spread across it. */
export function createDemoClock(dayStartMs: number, count: number): DemoClock {
  const slot = DAY_MS / Math.max(1, count);
  // Conversations are listed router by router; a stride through the slots mixes the routers over the day.
  const stride = [29, 31, 37, 41, 43].find((p) => count % p !== 0) ?? 1;
  let t = dayStartMs;
  return {
    now: () => t,
    advance(ms) {
      t += ms;
      return t;
    },
    startConversation(k) {
      // A fixed scatter within each slot (no two runs differ): conversations do not start on the hour.
      const at = (k * stride) % Math.max(1, count);
      t = Math.round(dayStartMs + at * slot + (((k * 7919) % 1000) / 1000) * slot * 0.6);
    },
  };
}
