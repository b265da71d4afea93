/**
 * serveCli — the built `routescope` executable serving in a child process (`serve`, or `demo --serve`), as a user
 * starts it. Both of its output streams are read as they arrive, so a child that says a lot never stalls on a
 * full pipe; `listening` resolves once it printed where it listens (its ports are whatever the arguments ask
 * for: tests pass 0 for each), and rejects if it exits before.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** Where the child said it listens. */
export interface ServeAddresses {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT is set to. */
  readonly endpoint: string;
  readonly metrics: string;
  readonly page: string;
}

/** A started child, its output so far, and when it listens. */
export interface ServeCli {
  readonly child: ChildProcess;
  readonly listening: Promise<ServeAddresses>;
  stdout(): string;
  stderr(): string;
}

/** Run `node bin args…` and watch its output for the addresses it prints. */
export function spawnServeCli(bin: string, args: readonly string[], node = process.execPath): ServeCli {
  const child = spawn(node, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const listening = new Promise<ServeAddresses>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const endpoint = /OTEL_EXPORTER_OTLP_ENDPOINT=(\S+)\)/.exec(out)?.[1];
      const metrics = /metrics\s+(\S+\/metrics)/.exec(out)?.[1];
      const page = /live page\s+(\S+)/.exec(out)?.[1];
      if (endpoint !== undefined && metrics !== undefined && page !== undefined)
        resolve({ endpoint, metrics, page });
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before listening: ${out}${err}`)));
  });
  return { child, listening, stdout: () => out, stderr: () => err };
}
