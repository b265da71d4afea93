/**
 * decompressStream — zstd frame headers are read before the decoder allocates what they declare, so a lying
 * header is a reported problem, not a multi-gigabyte allocation.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MAX_ZSTD_WINDOW,
  decompressZstdFrame,
  readZstdFrameHeader,
} from '../../src/trace/decompressStream.js';
import { createReadStats } from '../../src/trace/readStats.js';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import type { TraceRecord } from '../../src/trace/types.js';
import { frameRecords, recordScenario, toOtlpJson, withTempDir, zstdCompress } from './traceScenario.js';

const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
/** A single-segment frame header declaring 2^40 bytes of content (8-byte content size field). */
const LYING_CONTENT = Buffer.from([...MAGIC, 0xe0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0]);
/** A frame header asking for a 2^41-byte window. */
const LYING_WINDOW = Buffer.from([...MAGIC, 0x00, 0xf8, 1, 0, 0]);

async function readFile(
  file: string,
): Promise<{ records: TraceRecord[]; stats: ReturnType<typeof createReadStats> }> {
  const stats = createReadStats();
  const records: TraceRecord[] = [];
  for await (const r of readTraceInputs([file], stats)) records.push(r);
  return { records, stats };
}

describe('zstd frame headers', () => {
  it('the zstd tool writes the content size of a file, and a window within the limit', async () => {
    await withTempDir(async (dir) => {
      for (const size of [10, 300, 70_000, 3_000_000]) {
        const file = join(dir, `f${size}`);
        writeFileSync(file, Buffer.alloc(size, 0x61));
        execFileSync('zstd', ['-q', '-f', file, '-o', `${file}.zst`]);
        const frame = readFileSync(`${file}.zst`);
        const header = readZstdFrameHeader(frame)!;
        expect(header.contentBytes).toBe(size);
        expect(header.windowBytes).toBeLessThanOrEqual(MAX_ZSTD_WINDOW);
        expect(decompressZstdFrame(frame, 64 * 1024 * 1024).length).toBe(size);
      }
    });
  });

  it('a one-shot frame declaring more than the record limit is refused before decoding', () => {
    expect(() => decompressZstdFrame(LYING_CONTENT, 1024)).toThrow(/declares 1099511627776 bytes/);
    expect(() => decompressZstdFrame(Buffer.from(MAGIC), 1024)).toThrow(/cut short/);
  });

  it('in a legacy framed file, the lying record is reported and the others read', async () => {
    const scenario = await recordScenario();
    await withTempDir(async (dir) => {
      const good = zstdCompress(Buffer.from(toOtlpJson(scenario.spans)));
      const file = join(dir, 'legacy.zst');
      writeFileSync(file, frameRecords([LYING_CONTENT, good]));
      const { records, stats } = await readFile(file);
      expect(records).toHaveLength(7);
      expect(stats.problems).toEqual([expect.objectContaining({ line: 1, kind: 'bad-line' })]);
      expect(stats.problems[0]!.reason).toMatch(/not a valid zstd frame: zstd frame declares/);
    });
  });

  it('a zstd stream asking for a window beyond the limit stops with a report, not an allocation', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'huge-window.zst');
      writeFileSync(file, LYING_WINDOW);
      const { records, stats } = await readFile(file);
      expect(records).toEqual([]);
      expect(stats.problems).toEqual([expect.objectContaining({ line: 1, kind: 'bad-line' })]);
      expect(stats.problems[0]!.reason).toMatch(/window, above the 134217728 limit/);
    });
  });
});
