// rolldown.config.js — the `routescope` executable as shipped: the compiled CLI (dist/cli/bin.js) and the
// --jobs worker bundled into dist/bin/, one chunk per lazily loaded part. Node resolves and compiles ~110
// small ES modules on every start otherwise; bundled, the CLI starts ~60 ms sooner (docs/performance.md).
// string-width is replaced by our measureTerminalWidth (src/cli/stringWidthShim.ts). Doc comments are left out and
// non-ASCII characters escaped: V8 then reads each file as a one-byte string, and has less to scan (about
// 10 ms of start). Run by `npm run build`, after tsc.
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('./dist/', import.meta.url));

/**
 * tsc's own source maps, read with the compiled files, so the bundle's maps lead back to src/*.ts: stack
 * traces under --verbose name the TypeScript line (bin.ts turns source maps on for that flag only).
 */
const tscSourceMaps = {
  name: 'tsc-source-maps',
  load(id) {
    if (!id.startsWith(dist) || !id.endsWith('.js') || !existsSync(`${id}.map`)) return null;
    return { code: readFileSync(id, 'utf8'), map: readFileSync(`${id}.map`, 'utf8') };
  },
};

/**
 * The executable keeps its run bit. cleanDir empties dist/bin before each build and the file is written anew
 * with the default mode (0644): without this, `npx routescope` in a clone fails with "Permission denied" after
 * any second build (npm sets the bit only when it installs a package).
 */
const executable = {
  name: 'executable',
  writeBundle(options) {
    chmodSync(join(options.dir ?? 'dist/bin', 'routescope.js'), 0o755);
  },
};

export default {
  input: { routescope: 'dist/cli/bin.js', readWorker: 'dist/trace/parallel/readWorker.js' },
  platform: 'node',
  plugins: [tscSourceMaps, executable],
  logLevel: 'warn',
  resolve: {
    alias: { 'string-width': fileURLToPath(new URL('./dist/cli/stringWidthShim.js', import.meta.url)) },
  },
  // Every chunk next to the entry: the --jobs worker is found as ./readWorker.js beside the code that starts
  // it, and the version as ../../package.json.
  output: {
    dir: 'dist/bin',
    format: 'esm',
    chunkFileNames: '[name]-[hash].js',
    cleanDir: true,
    sourcemap: true,
    // Positions only: the package ships no sources to show, and they would double the bundle's size.
    sourcemapExcludeSources: true,
    charset: 'ascii',
    comments: { legal: true, annotation: false, jsdoc: false },
  },
};
