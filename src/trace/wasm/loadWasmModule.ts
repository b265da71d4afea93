/**
 * loadWasmModule — one of routescope's own WebAssembly modules, found where `npm run build` put it and
 * instantiated, or the reason it cannot run here.
 *
 * The readers' modules (the SIMD needle scanner, the JSON tape) are optional: a runtime without WebAssembly,
 * a checkout that was never built, or a module of another build reads with the JavaScript code instead, and
 * says why (stats.scan). Each module exports `abi()`, the layout its caller must speak, and a fixed `memory`
 * grown once at load: the callers keep views of it. Reads one file; no other I/O.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The part of the WebAssembly API used here (this project's TypeScript libraries do not declare it). */
interface WebAssemblyApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
}

/** A module's memory. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** A loaded module, or why it is not. */
export type LoadedWasm =
  | { readonly kind: 'loaded'; readonly exports: Record<string, unknown>; readonly memory: WasmMemory }
  | { readonly kind: 'unavailable'; readonly reason: string };

/** What a caller asks of its module. */
export interface WasmModuleSpec {
  /** The file under dist/, e.g. `wasm/needleScan.wasm`; also how the reasons name it. */
  readonly file: string;
  /** What it is, for the reasons ("scanner"). */
  readonly role: string;
  /** The layout the caller speaks (`abi()`). */
  readonly abi: number;
  /** The functions it must export besides `abi`. */
  readonly functions: readonly string[];
  /** The bytes its memory must hold. */
  readonly memoryBytes: number;
  /** A module a runtime must validate first (a feature probe such as SIMD), and what it says when it cannot. */
  readonly probe?: { readonly bytes: Uint8Array; readonly missing: string };
}

const PAGE = 65536;

/**
 * The probe of WebAssembly SIMD, for modules that use v128: a function of one `v128` result (`i8x16.popcnt` of
 * a splat); a runtime that validates it has SIMD.
 */
export const SIMD_PROBE = Object.freeze({
  bytes: new Uint8Array([
    0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98,
    11,
  ]),
  missing: "this runtime's WebAssembly has no SIMD (v128)",
});

/** The runtime's WebAssembly, when it has one. */
function webAssembly(): WebAssemblyApi | undefined {
  return (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
}

/** Where `npm run build` put `file`: the first dist/ (or the package's own folder) above `from` that holds it. */
export function findBuiltFile(file: string, from: string): string | undefined {
  let dir = dirname(fileURLToPath(from));
  for (let up = 0; up < 8; up++) {
    for (const candidate of [join(dir, file), join(dir, 'dist', file)])
      if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

/** The module compiled at `path` (undefined: not built) for `spec`, or why it cannot run here. */
export function loadWasmModule(spec: WasmModuleSpec, path: string | undefined): LoadedWasm {
  const wasm = webAssembly();
  const unavailable = (reason: string): LoadedWasm => ({ kind: 'unavailable', reason });
  if (wasm === undefined) return unavailable('this runtime has no WebAssembly');
  if (spec.probe !== undefined && !wasm.validate(spec.probe.bytes)) return unavailable(spec.probe.missing);
  if (path === undefined) return unavailable(`${spec.file} is not built (npm run build compiles it)`);
  let exports: Record<string, unknown>;
  try {
    const bytes = readFileSync(path);
    if (!wasm.validate(bytes))
      return unavailable(`${spec.file} is not a WebAssembly module this runtime accepts`);
    exports = new wasm.Instance(new wasm.Module(bytes), {}).exports;
  } catch (error) {
    return unavailable(`${spec.file} did not load: ${(error as Error).message}`);
  }
  const named = [...spec.functions, 'abi'];
  if (named.some((name) => typeof exports[name] !== 'function') || exports.memory === undefined)
    return unavailable(`${spec.file} is not routescope's ${spec.role} (no ${named.join(', ')} or memory)`);
  const abi = (exports.abi as () => number)();
  if (abi !== spec.abi)
    return unavailable(
      `${spec.file} is from another build (layout ${abi}, this code reads ${spec.abi}): npm run build`,
    );
  const memory = exports.memory as WasmMemory;
  const missing = Math.ceil(spec.memoryBytes / PAGE) - memory.buffer.byteLength / PAGE;
  try {
    if (missing > 0) memory.grow(missing);
  } catch (error) {
    return unavailable(
      `${spec.file}'s memory cannot grow to ${spec.memoryBytes} bytes: ${(error as Error).message}`,
    );
  }
  return { kind: 'loaded', exports, memory };
}
