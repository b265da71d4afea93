/**
 * io — what the CLI core touches of the outside world, injected so tests run it in-process.
 *
 * `runCli` writes only through `stdout`/`stderr`, decides on colour and progress from `isTTY` and `env`, and
 * reads the input `-` from `stdin`; `bin.ts` wires these to the process. Types only.
 */

/** Something text can be written to. */
export interface CliWriter {
  write(chunk: string): unknown;
}

/** The streams and environment of one CLI run. */
export interface CliIo {
  readonly stdout: CliWriter;
  readonly stderr: CliWriter;
  /** stdout is a terminal (colour allowed unless NO_COLOR). */
  readonly isTTY: boolean;
  /** stderr is a terminal (progress line allowed); defaults to `isTTY`. */
  readonly stderrIsTTY?: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Read for the input `-`. */
  readonly stdin?: NodeJS.ReadableStream;
}
