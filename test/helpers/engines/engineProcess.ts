/**
 * engineProcess — one engine (a Collector, Jaeger, Alertmanager) running as a child process for a test: its
 * output kept (the tail, for failure messages), readiness awaited by polling a URL with a deadline, and a stop
 * that sends TERM, then KILL when it lingers, and removes the process's temp folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

/** Start `binary args` with `env` added; `dir` is its temp folder (made with engineDir). */
export function startEngine(
  name: string,
  binary: string,
  args: readonly string[],
  dir: string,
  env: Record<string, string> = {},
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
    async waitFor(what, check, ms = 30_000) {
      const deadline = Date.now() + ms;
      let last = 'not yet';
      while (Date.now() < deadline) {
        if (exited())
          throw new Error(
            `${name} exited (${child.exitCode}) while waiting for ${what}:\n${output.slice(-4_000)}`,
          );
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
        `gave up after ${ms / 1000}s waiting for ${what} (last: ${last}); ${name} said:\n${output.slice(-4_000)}`,
      );
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
