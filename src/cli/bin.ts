#!/usr/bin/env node
/**
 * bin — the `routescope` executable: wire the process to runCli and set the exit code (never process.exit,
 * so pending output is flushed). A closed pipe (`routescope … | head`) ends output quietly.
 */
import { runCli } from './main.js';

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
