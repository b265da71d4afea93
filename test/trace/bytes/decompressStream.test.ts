/**
 * decompressStream — zstd frame headers are read before the decoder allocates what they declare, so a lying
 * header is a reported problem, not a multi-gigabyte allocation; and a stream that compresses ten-thousand-fold
 * is decoded a bounded piece at a time.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MAX_ZSTD_WINDOW,
  decompressZstdFrame,
  readZstdFrameHeader,
  unzstdStream,
} from '../../../src/trace/bytes/decompressStream.js';
import { createReadStats } from '../../../src/trace/readStats.js';
import { readTraceInputs } from '../../../src/trace/readTraceInputs.js';
import type { TraceRecord } from '../../../src/record/types.js';
import { frameRecords, recordScenario, toOtlpJson, withTempDir, zstdCompress } from '../traceScenario.js';

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

describe('zstd streams that compress very well', () => {
  it('512 MiB held in 49 KB, handed over as one chunk, is decoded without holding its output', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'repetitive.zst');
      const line = 'a routing line that repeats {"resourceSpans":[{"scopeSpans":[]}]} 0123456789\n';
      const total = 512 * 1024 * 1024;
      execFileSync('bash', ['-c', `yes '${line.trimEnd()}' | head -c ${total} | zstd -1 -q -o '${file}'`]);
      const compressed = readFileSync(file);
      expect(compressed.length).toBeLessThan(total / 1000);
      async function* oneChunk(): AsyncGenerator<Buffer> {
        yield compressed;
      }
      const baseline = process.memoryUsage().arrayBuffers;
      let peak = 0;
      let bytes = 0;
      let lastLine = '';
      let firstBytes = '';
      for await (const piece of unzstdStream(oneChunk())) {
        if (firstBytes.length < line.length) firstBytes += piece.subarray(0, line.length).toString();
        bytes += piece.length;
        lastLine = piece.subarray(piece.length - line.length).toString();
        peak = Math.max(peak, process.memoryUsage().arrayBuffers - baseline);
      }
      console.log(
        `512 MiB from ${compressed.length} bytes: external memory peak ${(peak / 2 ** 20).toFixed(1)} MiB`,
      );
      expect(bytes).toBe(total);
      expect(firstBytes.startsWith(line)).toBe(true);
      // The last line is cut where head -c stopped; what is there is the line's own text.
      expect(line.repeat(2)).toContain(lastLine);
      // All at once this is 512 MiB; a piece at a time it stays far below.
      expect(peak).toBeLessThan(128 * 1024 * 1024);
    });
  });
});
