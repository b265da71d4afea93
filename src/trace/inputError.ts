/**
 * inputError — the one error a reader throws: the input as a whole cannot be read.
 *
 * A bad line is never an error (it is counted and reported); a missing file, an unreadable folder or a
 * format nothing recognizes is, and the CLI turns it into exit code 2 with this message, which always says
 * what was wrong, where, and what to do.
 */

/** An input that cannot be read at all; `message` names the input and what to do. */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    message: string,
    /** The input as the user named it. */
    readonly input: string,
  ) {
    super(message);
  }
}
