/**
 * propertyRuns — how many runs a property test makes: its usual count times FC_RUNS_MULTIPLIER.
 *
 * Each law runs its usual count in CI. A counterexample that turns up once in twenty runs of the suite shows up
 * at once with `FC_RUNS_MULTIPLIER=20 npx vitest run`; fast-check prints the seed and path of the failure,
 * and the counterexample is then kept as a named test. Laws without a count of their own get fast-check's
 * default (100) times the multiplier from test/setup/propertyRuns.ts.
 */

/** The multiplier from FC_RUNS_MULTIPLIER (a whole number from 1); 1 when unset. */
export function readRunsMultiplier(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.FC_RUNS_MULTIPLIER;
  if (text === undefined || text === '') return 1;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    throw new Error(`FC_RUNS_MULTIPLIER must be a whole number from 1, got '${text}'`);
  }
  return n;
}

/** `usual` runs, times FC_RUNS_MULTIPLIER. */
export function propertyRuns(usual: number): number {
  return usual * readRunsMultiplier();
}
