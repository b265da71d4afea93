/**
 * readWorker — the worker thread of `--jobs N`: reads the units the main thread posts and answers with what
 * it found (readInputUnit). Messages in: `{ id, unit }`, and `{ recycle }` — a unit's packed bytes handed
 * back, kept to be written over by a later unit. Out: `{ id, result }` (the packed bytes moved, not copied)
 * or `{ id, error }`.
 */
import { parentPort } from 'node:worker_threads';
import { readInputUnit, type ReadUnit } from './readInputUnit.js';

/** Buffers handed back; a few at most (more come when this thread runs fewer units than the others). */
const spare: ArrayBuffer[] = [];
const MAX_SPARE = 2;

parentPort?.on('message', (message: { id: number; unit: ReadUnit } | { recycle: ArrayBuffer }) => {
  if ('recycle' in message) {
    if (spare.length < MAX_SPARE) spare.push(message.recycle);
    return;
  }
  const reuse = spare.pop();
  readInputUnit(message.unit, reuse === undefined ? undefined : Buffer.from(reuse)).then(
    (result) => parentPort?.postMessage({ id: message.id, result }, [result.packed.buffer as ArrayBuffer]),
    (error: unknown) =>
      parentPort?.postMessage({
        id: message.id,
        error: error instanceof Error ? error.message : String(error),
      }),
  );
});
