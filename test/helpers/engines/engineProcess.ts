/**
 * engineProcess — one engine (a Collector, Jaeger, Alertmanager) running as a child process for a test: its
 * output kept (the tail, for failure messages), readiness awaited by polling a URL with a deadline, and a stop
 * that sends TERM, then KILL when it lingers, and removes the process's temp folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pollUntil } from '../pollUntil.js';

/** A running engine. */
export interface EngineProcess {
  /** Its temp folder (configs, storage); removed by stop. */
  readonly dir: string;
  /** The last 40,000 characters it printed. */
  log(): string;
  /** Whether it has exited. */
  exited(): boolean;
  /** Poll `check` every 200 ms until it gives a value, at most `ms`; fails saying what and with the log's tail. */
  waitFor<T>(what: string, check: () => Promise<T | undefined>, ms?: number): Promise<T>;
  /** TERM, then KILL after 10 s; resolves once it has exited. */
  stop(): Promise<void>;
}

/** A temp folder for an engine, named after it. */
export function engineDir(name: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `routescope-${name}-`));
}

/**
 * Start `binary args` with `env` added; `dir` is its temp folder (made with engineDir). `describe` adds what a
 * failed wait should say besides the engine's output (Prometheus' target list, say).
 */
export function startEngine(
  name: string,
  binary: string,
  args: readonly string[],
  dir: string,
  env: Record<string, string> = {},
  describe?: () => Promise<string>,
): EngineProcess {
  let output = '';
  const child: ChildProcess = spawn(binary, args, {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-40_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('error', (err) => void (output += `\nspawn error: ${err.message}`));
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    dir,
    log: () => output,
    exited,
    waitFor(what, check, ms = 30_000) {
      return pollUntil(what, check, ms, {
        gone: () => (exited() ? `${name} exited (${child.exitCode})` : undefined),
        context: async () =>
          `${describe === undefined ? '' : `${await describe()}\n`}${name} said:\n${output.slice(-4_000)}`,
      });
    },
    async stop() {
      try {
        if (!exited()) {
          const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await gone;
          clearTimeout(timer);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** GET `url`; the body as text when the status is 2xx, else undefined (for waitFor). */
export async function getOk(url: string): Promise<string | undefined> {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  const text = await response.text();
  return response.ok ? text : undefined;
}
