/**
 * splitLines, readLengthFramed, peekStream — byte streams cut into lines and records the same way whatever
 * the chunk boundaries, with bounded buffering.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mkdtemp, open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peekStream } from '../../../src/trace/bytes/peekStream.js';
import { FILE_CHUNK_BYTES, readFileChunks } from '../../../src/trace/bytes/readFileChunks.js';
import { readLengthFramed, type FramedItem } from '../../../src/trace/formats/readLengthFramed.js';
import { splitLines } from '../../../src/trace/bytes/splitLines.js';
import { propertyRuns } from '../../helpers/propertyRuns.js';

/** `data` cut at the given offsets, as an async byte stream. */
async function* chunked(data: Buffer, cuts: number[]): AsyncGenerator<Buffer> {
  const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
  let at = 0;
  for (const p of points) {
    if (p > at) yield data.subarray(at, p);
    at = Math.max(at, p);
  }
  if (at < data.length) yield data.subarray(at);
}

/**
 * The same chunks as `chunked`, but BORROWED, as readFileChunks hands them out: each is a view of one reused
 * buffer, scribbled over as soon as the next chunk is asked for, so a reader that keeps a chunk sees garbage.
 */
async function* borrowed(data: Buffer, cuts: number[]): AsyncGenerator<Buffer> {
  const buffer = Buffer.alloc(data.length + 1);
  for await (const chunk of chunked(data, cuts)) {
    chunk.copy(buffer);
    yield buffer.subarray(0, chunk.length);
    buffer.fill(0xee);
  }
}

async function collect<T, U = T>(it: AsyncIterable<T>, copy?: (x: T) => U): Promise<U[]> {
  const out: U[] = [];
  for await (const x of it) out.push(copy === undefined ? (x as unknown as U) : copy(x));
  return out;
}

const lineBytes = fc.oneof(
  fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a.filter((b) => b !== 0x0a))),
  // Whitespace-only lines, longer than the bound too: blank however long, and counted in runs.
  fc.array(fc.constantFrom(0x20, 0x09, 0x0d), { maxLength: 50 }).map((a) => Buffer.from(a)),
);

/** A line, null for an over-long one, or 'blank' for a whitespace-only one. */
type Line = Buffer | null | 'blank';

function isWhitespace(line: Buffer): boolean {
  return line.every((b) => b === 0x20 || b === 0x09 || b === 0x0d);
}

/** What splitLines yields, copied, a run of k blank lines as k 'blank's. */
async function collectLines(it: AsyncIterable<Buffer | null | number>): Promise<Line[]> {
  const out: Line[] = [];
  for await (const x of it) {
    if (typeof x === 'number') {
      expect(x).toBeGreaterThan(0);
      for (let i = 0; i < x; i++) out.push('blank');
    } else out.push(x === null ? null : Buffer.from(x));
  }
  return out;
}

describe('splitLines', () => {
  it('law: any chunking yields exactly the lines; over-long ones as null, whitespace-only ones counted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineBytes, { maxLength: 12 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.integer({ min: 1, max: 40 }),
        async (lines, trailingNewline, cuts, max) => {
          const data = Buffer.concat(
            lines.flatMap((l, i) => (i < lines.length - 1 || trailingNewline ? [l, Buffer.from('\n')] : [l])),
          );
          const got = await collectLines(splitLines(chunked(data, cuts), max));
          const want = lines
            .filter((l, i) => !(i === lines.length - 1 && !trailingNewline && l.length === 0))
            .map((l): Line => (isWhitespace(l) ? 'blank' : l.length > max ? null : l));
          expect(got).toEqual(want);
        },
      ),
    );
  });

  it('law: borrowed chunks (one reused buffer) yield the same lines as owned ones', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineBytes, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (lines, cuts) => {
          const data = Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));
          const got = await collectLines(splitLines(borrowed(data, cuts), 64));
          expect(got).toEqual(await collectLines(splitLines(chunked(data, cuts), 64)));
        },
      ),
    );
  });

  it('lines far longer than a chunk, growing and reusing the assembly buffer, come out whole', async () => {
    const sizes = [70_000, 150_000, 10, 300_000, 5, 140_000];
    const lines = sizes.map((n, k) =>
      Buffer.from(Array.from({ length: n }, (_, i) => 32 + ((i * 7 + k) % 90))),
    );
    const data = Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));
    const cuts = Array.from({ length: Math.ceil(data.length / 4096) }, (_, i) => i * 4096);
    const got = await collectLines(splitLines(borrowed(data, cuts), 1_000_000));
    // Compared line by line with equals(): a failing toEqual on 300 KB buffers takes minutes to print.
    expect(got.map((b) => b?.length)).toEqual(sizes);
    expect(got.every((b, i) => Buffer.isBuffer(b) && b.equals(lines[i]!))).toBe(true);
  });

  it('an over-long line is dropped as it streams, not buffered', async () => {
    async function* endless(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 1000; i++) yield Buffer.alloc(1024, 0x61);
      yield Buffer.from('\nok\n');
    }
    expect((await collectLines(splitLines(endless(), 4096))).map((b) => b?.toString() ?? null)).toEqual([
      null,
      'ok',
    ]);
  });

  it('a run of blank lines is one count, not a line each: 750,000 of them (newlines, CRLF, spaces, tabs) in 3 chunks', async () => {
    const blank = Buffer.from('\n \r\n\t\n'.repeat(250_000));
    async function* source(): AsyncGenerator<Buffer> {
      yield Buffer.from('{"a":1}\n');
      yield blank.subarray(0, 500_001);
      yield Buffer.concat([blank.subarray(500_001), Buffer.from('{"b":2}\n\n')]);
    }
    const got: Array<string | number | null> = [];
    for await (const x of splitLines(source(), 4096))
      got.push(typeof x === 'number' || x === null ? x : x.toString());
    // Three yields for the million blank lines (the chunk boundary splits the run), not a million.
    expect(got[0]).toBe('{"a":1}');
    expect(got.at(-2)).toBe('{"b":2}');
    expect(got.at(-1)).toBe(1);
    const counts = got.slice(1, -2);
    expect(counts.every((x) => typeof x === 'number')).toBe(true);
    expect(counts.length).toBeLessThanOrEqual(3);
    expect((counts as number[]).reduce((a, b) => a + b, 0)).toBe(750_000);
  });
});

describe('readLengthFramed', () => {
  function frame(records: Buffer[]): Buffer {
    return Buffer.concat(
      records.flatMap((r) => {
        const h = Buffer.alloc(4);
        h.writeUInt32BE(r.length);
        return [h, r];
      }),
    );
  }
  const copyItem = (i: FramedItem): FramedItem =>
    i.kind === 'record' ? { kind: 'record', bytes: Buffer.from(i.bytes) } : i;

  it('law: any chunking yields exactly the records', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.uint8Array({ maxLength: 30 }).map((a) => Buffer.from(a)),
          { maxLength: 8 },
        ),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (records, cuts) => {
          const got = await collect(readLengthFramed(chunked(frame(records), cuts), 1024), copyItem);
          expect(got).toEqual(records.map((bytes) => ({ kind: 'record', bytes })));
        },
      ),
    );
  });

  it('law: a cut anywhere inside the last record ends with one broken item, the earlier records intact', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.uint8Array({ minLength: 1, maxLength: 30 }).map((a) => Buffer.from(a)),
          { minLength: 1, maxLength: 6 },
        ),
        fc.nat(),
        async (records, cutAt) => {
          const whole = frame(records);
          const lastStart = whole.length - records.at(-1)!.length - 4;
          const cut = lastStart + 1 + (cutAt % (whole.length - lastStart - 1));
          const got = await collect(readLengthFramed(chunked(whole.subarray(0, cut), []), 1024), copyItem);
          expect(got.slice(0, -1)).toEqual(records.slice(0, -1).map((bytes) => ({ kind: 'record', bytes })));
          expect(got.at(-1)).toMatchObject({ kind: 'broken', reason: expect.stringMatching(/truncated/) });
        },
      ),
    );
  });

  it('a length above the bound stops reading (corrupt framing)', async () => {
    const bad = Buffer.from([0, 0, 0, 2, 0x61, 0x62, 0, 1, 0, 0, 0x63]);
    const got = await collect(readLengthFramed(chunked(bad, []), 100), copyItem);
    expect(got).toEqual([
      { kind: 'record', bytes: Buffer.from('ab') },
      { kind: 'broken', reason: expect.stringMatching(/65536 bytes, more than the 100/) },
    ]);
  });
});

describe('peekStream', () => {
  it('law: the head is the first bytes and the replay is the whole input, from owned or borrowed chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.integer({ min: 1, max: 100 }),
        fc.boolean(),
        async (raw, cuts, n, borrowedChunks) => {
          const data = Buffer.from(raw);
          const source = borrowedChunks ? borrowed(data, cuts) : chunked(data, cuts);
          const { head, ended, stream } = await peekStream(source, n);
          const replayed = Buffer.concat(await collect(stream, (b) => Buffer.from(b)));
          expect(replayed).toEqual(data);
          // Checked after the whole replay: the head must not share a reused buffer.
          expect(head.subarray(0, n)).toEqual(data.subarray(0, n));
          if (ended) expect(head).toEqual(data);
        },
      ),
      { numRuns: propertyRuns(200) },
    );
  });
});

/** `data` written to a file of a temporary folder, opened for reading while `use` runs; all removed after. */
async function withOpenFile(data: Buffer, use: (handle: FileHandle) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'routescope-chunks-'));
  try {
    const path = join(dir, 'bytes.bin');
    await writeFile(path, data);
    const handle = await open(path, 'r');
    try {
      await use(handle);
    } finally {
      await handle.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('readFileChunks', () => {
  it('law: the chunks are the bytes of [start, end) in order, whatever the chunk size', async () => {
    const data = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 131 + 7) % 256));
    await withOpenFile(data, async (handle) => {
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: 5200 }),
          fc.option(fc.nat({ max: 5200 }), { nil: undefined }),
          fc.integer({ min: 1, max: 700 }),
          async (start, end, size) => {
            const got = Buffer.concat(
              await collect(readFileChunks(handle, start, end, size), (b) => Buffer.from(b)),
            );
            expect(got).toEqual(data.subarray(start, end === undefined ? undefined : Math.max(start, end)));
          },
        ),
        { numRuns: propertyRuns(200) },
      );
    });
  });

  it('a file larger than a chunk is read whole, in chunks of at most FILE_CHUNK_BYTES, each borrowed', async () => {
    const data = Buffer.from(Array.from({ length: FILE_CHUNK_BYTES * 3 + 17 }, (_, i) => (i * 31 + 5) % 251));
    await withOpenFile(data, async (handle) => {
      const sizes: number[] = [];
      const views = new Set<ArrayBufferLike>();
      const got = Buffer.concat(
        await collect(readFileChunks(handle, 0), (b) => {
          sizes.push(b.length);
          views.add(b.buffer);
          return Buffer.from(b);
        }),
      );
      expect(got.equals(data)).toBe(true);
      expect(sizes).toEqual([FILE_CHUNK_BYTES, FILE_CHUNK_BYTES, FILE_CHUNK_BYTES, 17]);
      // One reused buffer: the memory read into does not grow with the file.
      expect(views.size).toBe(1);
    });
  });

  it('what cannot seek (start null) is read from where the handle is, in order, to its end', async () => {
    const data = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7 + 1) % 256));
    await withOpenFile(data, async (handle) => {
      await handle.read(Buffer.alloc(100), 0, 100, null);
      const got = Buffer.concat(
        await collect(readFileChunks(handle, null, Infinity, 256), (b) => Buffer.from(b)),
      );
      expect(got.equals(data.subarray(100))).toBe(true);
    });
  });
});
