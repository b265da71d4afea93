/**
 * pollUntil — poll `check` every 200 ms until it gives a value, for at most `ms`; a check that throws counts as
 * "not yet" and its message is kept. Fails saying what it waited for, the last answer, and `context()` (a
 * process's output, a target list): never a bare timeout.
 */
export async function pollUntil<T>(
  what: string,
  check: () => Promise<T | undefined>,
  ms: number,
  watch: { readonly gone?: () => string | undefined; readonly context: () => string | Promise<string> },
): Promise<T> {
  const deadline = Date.now() + ms;
  let last = 'not yet';
  while (Date.now() < deadline) {
    const gone = watch.gone?.();
    if (gone !== undefined) throw new Error(`${gone} while waiting for ${what}:\n${await watch.context()}`);
    try {
      const value = await check();
      if (value !== undefined) return value;
      last = 'not yet';
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(
    `gave up after ${ms / 1000}s waiting for ${what} (last: ${last}); ${await watch.context()}`,
  );
}
