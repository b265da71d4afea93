/**
 * usageError — a command line that cannot be run as given; the CLI prints the message and exits 2.
 *
 * The message says what was wrong and what to do; no stack trace is printed for it.
 */

/** A bad command line: wrong option value, unknown gate, missing argument. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
