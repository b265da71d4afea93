/**
 * readWorker — the worker thread of `--jobs N`: reads the units the main thread posts and answers with what
 * it found (readInputUnit). Messages: in `{ id, unit }`; out `{ id, result }` or `{ id, error }`.
 */
import { parentPort } from 'node:worker_threads';
import { readInputUnit, type ReadUnit } from './readTraceInputs.js';

parentPort?.on('message', (message: { id: number; unit: ReadUnit }) => {
  readInputUnit(message.unit).then(
    (result) => parentPort?.postMessage({ id: message.id, result }),
    (error: unknown) =>
      parentPort?.postMessage({
        id: message.id,
        error: error instanceof Error ? error.message : String(error),
      }),
  );
});
