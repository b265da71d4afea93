#!/usr/bin/env node
/**
 * bin — the `routescope` executable: wire the process to runCli and set the exit code (never process.exit,
 * so pending output is flushed). A closed pipe (`routescope … | head`) ends output quietly.
 *
 * Stack traces are printed with --verbose only, and then they name the TypeScript lines through the bundle's
 * source maps. Node reads the maps of modules loaded after they are turned on, so the CLI is imported after.
 */
if (process.argv.includes('--verbose')) process.setSourceMapsEnabled(true);

const { runCli } = await import('./main.js');

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  isTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
  env: process.env,
  stdin: process.stdin,
});
