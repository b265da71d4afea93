/**
 * resolveConfig — the one way an analysis fills its options: its defaults, overridden by each option given.
 *
 * An option given as `undefined` (a flag the CLI left out, an optional field passed along) keeps its default;
 * a plain `{ ...DEFAULT, ...partial }` would let it replace the default with `undefined`. Neither argument is
 * changed. Pure.
 */

/** `defaults` with every option of `partial` that is not `undefined` put over it. */
export function resolveConfig<T extends object>(defaults: T, partial: Partial<T> = {}): T {
  const resolved = { ...defaults };
  for (const key of Object.keys(partial) as (keyof T)[]) {
    const value = partial[key];
    if (value !== undefined) resolved[key] = value as T[keyof T];
  }
  return resolved;
}
