/**
 * numberOptions — the checks of number options: a number or a whole number within a range, and a share given
 * as `0.1` or `10%`, each a usage error that says what to type instead. Checked before any input is read.
 */
import type { CliArgs } from './cliCommand.js';
import { escapeControlChars } from '../report/escapeControlChars.js';
import { UsageError } from './usageError.js';

/** A number option within [min, max]; a usage error otherwise. */
export function readNumber(
  args: CliArgs,
  key: string,
  flag: string,
  min: number,
  max: number,
): number | undefined {
  const v = args[key];
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  if (!(n >= min && n <= max)) {
    throw new UsageError(
      `${flag} must be a number from ${min} to ${max}, got ${escapeControlChars(String(v))}`,
    );
  }
  return n;
}

/**
 * A rate, share or margin within [min, max], given as a number (`0.1`) or a percentage (`10%`), as `--fail-on`
 * reads them; `above` makes `min` itself refused (a sweep step of 0). A usage error otherwise.
 */
export function readShare(
  args: CliArgs,
  key: string,
  flag: string,
  range: { readonly min?: number; readonly max?: number; readonly above?: boolean } = {},
): number | undefined {
  const v = args[key];
  if (v === undefined) return undefined;
  const min = range.min ?? 0;
  const max = range.max ?? 1;
  const n = parseShare(v);
  if (!((range.above === true ? n > min : n >= min) && n <= max)) {
    const bounds = range.above === true ? `greater than ${min} and at most ${max}` : `from ${min} to ${max}`;
    throw new UsageError(
      `${flag} must be ${bounds}, as a number or a percentage (0.1 or 10%), got ${escapeControlChars(String(v))}`,
    );
  }
  return n;
}

/** `0.1` or `10%` as 0.1; NaN for anything else. */
export function parseShare(v: unknown): number {
  if (typeof v === 'number') return v;
  const text = String(v).trim();
  const percent = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*%$/.exec(text);
  if (percent !== null) return Number(percent[1]) / 100;
  return text === '' ? NaN : Number(text);
}

/** A whole number option within [min, max]; a usage error otherwise. */
export function readInteger(
  args: CliArgs,
  key: string,
  flag: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  const v = args[key];
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(
      `${flag} must be a whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}, got ${escapeControlChars(String(v))}`,
    );
  }
  return n;
}
