/**
 * requireBuild — fail, with what to do, when a test needs the build and it is not there.
 *
 * Tests of the shipped files used to skip themselves without a build, so a broken bundle could pass a run that
 * had not built it. They now fail instead; `npm run test:all` (and so CI) builds before it tests.
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';

/** Throws unless every path exists, naming the missing ones and `npm run build`. */
export function requireBuild(...paths: readonly string[]): void {
  const missing = paths.filter((p) => !existsSync(p));
  if (missing.length === 0) return;
  const names = missing.map((p) => relative(process.cwd(), p)).join(', ');
  throw new Error(`${names} not built: run \`npm run build\` first (npm run test:all does)`);
}
