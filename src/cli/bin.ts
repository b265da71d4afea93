#!/usr/bin/env node
/**
 * bin — the `routescope` executable: wire the process to runCli and set the exit code (never process.exit,
 * so pending output is flushed). A closed pipe (`routescope … | head`) ends output quietly; any other failed or
 * short write to stdout is one line on stderr and exit 2.
 *
 * V8's young generation is kept at its first size (youngGeneration.ts). Stack traces are printed with --verbose
 * only, and then they name the TypeScript lines through the bundle's source maps. Node reads the maps of modules
 * loaded after they are turned on, so the CLI is imported after.
 */
if (process.argv.includes('--verbose')) process.setSourceMapsEnabled(true);

// Before anything is read: the young generation stays at its first size (youngGeneration.ts).
const { setFlagsFromString } = await import('node:v8');
const { youngGenerationFlag } = await import('./youngGeneration.js');
const flag = youngGenerationFlag(process.execArgv, process.env['NODE_OPTIONS']);
if (flag !== undefined) setFlagsFromString(flag);

const { runCli } = await import('./main.js');
const { createCheckedWriter } = await import('./checkedWriter.js');
const { describeWriteFailure } = await import('./outputError.js');

// Every write to stdout is checked (checkedWriter.ts): a report cut short or not written is exit 2, not success.
const stdout = createCheckedWriter(process.stdout, 1);
const code = await runCli(process.argv.slice(2), {
  stdout,
  stderr: process.stderr,
  isTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
  env: process.env,
  stdin: process.stdin,
});
await stdout.settle();
if (stdout.failure === undefined) {
  process.exitCode = code;
} else {
  process.stderr.write(
    `routescope: could not write to standard output: ${describeWriteFailure(stdout.failure)}; the output is incomplete\n`,
  );
  process.exitCode = 2;
}
