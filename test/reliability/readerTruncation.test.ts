/**
 * Readers under truncation at every byte and under bit flips, for small real files in every format.
 *
 * Truncation is what a crash mid-write or a copy cut short leaves. For each sample (readerSamples) and each
 * length from 0 to its size: the read finishes, nothing but a clean InputError is thrown (and that only for a
 * prefix too short to recognize), no record is invented, and the count is exact — for JSON lines and framed
 * records, the decisions of the whole records before the cut and exactly one problem for a cut record; for a
 * whole document, none and one problem; for a compressed stream, at most the decisions whose bytes were
 * complete, and one problem saying where reading stopped. Bit flips (fast-check): the read finishes, nothing
 * but an InputError escapes, and no more decisions come out than went in.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { problemCount, readBytes, type ReadOutcome } from './readerHarness.js';
import { buildSamples, type Sample } from './readerSamples.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

let samples: Sample[];
const fullReads = new Map<string, ReadOutcome>();

beforeAll(async () => {
  samples = await buildSamples();
  for (const s of samples) fullReads.set(s.name, await readBytes(s.bytes));
});

/** Prefixes this short may be refused as an unknown format (fewer bytes than any signature needs). */
const TOO_SHORT_TO_RECOGNIZE = 8;

function expectedForPrefix(s: Sample, length: number): { decisions: number; problems: number } {
  let decisions = 0;
  let complete = 0;
  for (const [i, end] of s.recordEnds.entries()) {
    // A line is whole without its newline too (the final line of a file need not have one).
    if (end > length && !(s.layout === 'lines' && end - 1 === length)) break;
    decisions += s.decisionsPerRecord[i]!;
    complete = Math.min(end, length);
  }
  const rest = s.bytes.subarray(complete, length);
  // A JSON-lines remainder that is only whitespace is an empty line, not a cut record.
  const cut = s.layout === 'lines' ? rest.toString('utf8').trim() !== '' : rest.length > 0;
  return { decisions, problems: cut ? 1 : 0 };
}

describe('every sample reads whole and clean', () => {
  it('the full files: every decision, no problem', () => {
    for (const s of samples) {
      const r = fullReads.get(s.name)!;
      expect(r.inputError, s.name).toBeUndefined();
      expect(problemCount(r.stats), s.name).toBe(0);
      expect(r.decisions, s.name).toHaveLength(s.decisionsPerRecord.reduce((a, b) => a + b, 0));
    }
  });
});

describe('truncation at every byte', () => {
  const names = [
    'OTLP/JSON lines',
    'framed protobuf',
    'framed zstd records',
    'Jaeger v1 document',
    'zstd stream of JSON lines',
    'gzip of JSON lines',
  ];
  for (const name of names) {
    it(`${name}: exact counts at every cut, no crash, no hang, no invented record`, async () => {
      const s = samples.find((x) => x.name === name)!;
      const full = fullReads.get(name)!;
      const fullIds = new Set(full.decisions.map((d) => d.spanId));
      let refused = 0;
      for (let length = 0; length < s.bytes.length; length++) {
        const r = await readBytes(s.bytes.subarray(0, length));
        const what = `${name} cut at ${length} of ${s.bytes.length}`;
        if (r.inputError !== undefined) {
          expect(length, `${what}: ${r.inputError.message}`).toBeLessThan(TOO_SHORT_TO_RECOGNIZE);
          refused++;
          continue;
        }
        for (const d of r.decisions) expect(fullIds.has(d.spanId), what).toBe(true);
        const expected = expectedForPrefix(s, length);
        if (s.layout === 'whole') {
          expect(r.decisions.length, what).toBeLessThanOrEqual(full.decisions.length);
          expect(problemCount(r.stats), what).toBe(length === 0 ? 0 : 1);
        } else {
          expect({ decisions: r.decisions.length, problems: problemCount(r.stats) }, what).toEqual(expected);
          if (expected.problems === 1) {
            const complete = s.recordEnds.filter((e) => e <= length + (s.layout === 'lines' ? 1 : 0)).length;
            // A cut inside the first line cannot be told from an unfinished document, reported as line 0.
            const lines = complete === 0 && s.layout === 'lines' ? [0, 1] : [complete + 1];
            expect(lines, what).toContain(r.stats.problems[0]!.line);
          }
        }
      }
      expect(refused).toBeLessThan(TOO_SHORT_TO_RECOGNIZE);
    });
  }

  it('a compressed stream cut after its first request keeps that request', async () => {
    // Decompressed bytes before the cut are not lost (the zstd and gzip readers flush what they decoded).
    for (const name of ['zstd stream of JSON lines', 'gzip of JSON lines']) {
      const s = samples.find((x) => x.name === name)!;
      const r = await readBytes(s.bytes.subarray(0, s.bytes.length - 1));
      expect(problemCount(r.stats), name).toBe(1);
      expect(r.stats.problems[0]!.reason, name).toMatch(/stopped reading/);
      // The cut loses at most the last request (the first holds one decision).
      expect(r.decisions.length, name).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('bit flips', () => {
  it('any sample with 1–16 flipped bits: finishes, no crash, never more decisions than went in', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 5 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 7 })), { minLength: 1, maxLength: 16 }),
        async (which, flips) => {
          const s = samples[which]!;
          const bytes = Buffer.from(s.bytes);
          for (const [pos, bit] of flips) bytes[pos % bytes.length]! ^= 1 << bit;
          const r = await readBytes(bytes);
          expect(r.decisions.length).toBeLessThanOrEqual(fullReads.get(s.name)!.decisions.length);
          // Either the input was refused as a whole, or every record and problem came with a line number.
          if (r.inputError === undefined)
            for (const p of r.stats.problems) expect(p.line).toBeGreaterThanOrEqual(0);
          else expect(r.inputError.message.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: propertyRuns(600), seed: 2026 },
    );
  });
});
