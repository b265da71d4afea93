/**
 * loadJsonTape — the JSON tape module (assembly/jsonTape.ts, built to dist/wasm/jsonTape.wasm) of this thread,
 * and a value's tape read through it.
 *
 * A value's bytes are copied into the module's memory, tokenized there in one pass, and read back as a
 * TapeCursor over the same bytes as text. The module's memory is fixed at load (a window of VALUE_BYTES and
 * a tape of as many tokens as a value that long can hold); a longer value, a value the tokenizer declines, or
 * a runtime where the module cannot run gives undefined, and the caller parses the value with JSON.parse.
 * Each thread that reads (a `--jobs` worker, serve) loads its own instance on first use. Loading reads one
 * file; reading does no I/O.
 */
import { join } from 'node:path';
import { findBuiltFile, loadWasmModule, SIMD_PROBE, type LoadedWasm } from '../wasm/loadWasmModule.js';
import { KNOWN_NAMES_BYTES, KNOWN_SLOTS, writeKnownNames } from './knownNames.js';
import { TapeCursor } from './tapeCursor.js';

/** The compiled module's file, as `npm run build` writes it under dist/. */
export const TAPE_FILE = join('wasm', 'jsonTape.wasm');

/** The layout of `tokenize` this file speaks (assembly/jsonTape.ts' `abi()`). */
const TAPE_ABI = 2;

/** The longest value read through the module (a routing span is a few KB; longer ones are parsed). */
export const VALUE_BYTES = 256 * 1024;
/** Tokens a value of VALUE_BYTES can hold: every token but the last is followed by at least one byte. */
const TAPE_TOKENS = VALUE_BYTES / 2 + 1;
const VALUE_AT = 0;
const TAPE_AT = VALUE_BYTES;
/** The known names' table (knownNames), then their bytes. */
const KNOWN_AT = TAPE_AT + TAPE_TOKENS * 12;
const NAMES_AT = KNOWN_AT + KNOWN_SLOTS * 16;
const NAMES_BYTES = 16 * 1024;
const MEMORY_BYTES = NAMES_AT + NAMES_BYTES;

type Tokenize = (from: number, to: number, tape: number, capacity: number, known: number) => number;

/** Reads one value's tape; undefined when the value is not read so (the caller parses it). */
export type ReadTape = (body: Buffer, start: number, end: number) => TapeCursor | undefined;

/** This thread's tape reader, or why the module cannot run here. */
export type JsonTape =
  { readonly kind: 'tape'; readonly readTape: ReadTape } | Extract<LoadedWasm, { kind: 'unavailable' }>;

let loaded: JsonTape | undefined;

/** This thread's tape reader, or why it cannot run here. */
export function loadJsonTape(): JsonTape {
  loaded ??= loadTapeFrom(findBuiltFile(TAPE_FILE, import.meta.url));
  return loaded;
}

/** The tape reader compiled at `file` (undefined: not built), or why it cannot run here. */
export function loadTapeFrom(file: string | undefined): JsonTape {
  const module = loadWasmModule(
    {
      file: TAPE_FILE,
      role: 'JSON tape',
      abi: TAPE_ABI,
      functions: ['tokenize'],
      memoryBytes: MEMORY_BYTES,
      probe: SIMD_PROBE,
    },
    file,
  );
  if (module.kind === 'unavailable') return module;
  const tokenize = module.exports.tokenize as Tokenize;
  const memory = Buffer.from(module.memory.buffer);
  const tape = new Int32Array(module.memory.buffer, TAPE_AT, TAPE_TOKENS * 3);
  if (KNOWN_NAMES_BYTES > NAMES_BYTES)
    throw new Error(`the known names outgrew their ${NAMES_BYTES} bytes in the tape module's memory`);
  writeKnownNames(memory, KNOWN_AT, NAMES_AT);
  return {
    kind: 'tape',
    readTape(body, start, end) {
      const length = end - start;
      if (length > VALUE_BYTES) return undefined;
      body.copy(memory, VALUE_AT, start, end);
      const count = tokenize(VALUE_AT, VALUE_AT + length, TAPE_AT, TAPE_TOKENS, KNOWN_AT);
      if (count < 0) return undefined;
      // Every byte a cursor reads is ASCII (the tokenizer declines any other in a string; JSON's own are ASCII).
      return new TapeCursor(
        tape,
        count,
        memory.toString('latin1', VALUE_AT, VALUE_AT + length),
        memory,
        VALUE_AT,
      );
    },
  };
}
