/**
 * chartTimeline — the chart digest's decisions per time bucket, at most a fixed number of buckets.
 *
 * Buckets widen along a ladder of round widths (1 s … 4 weeks) whenever there would be more than the cap,
 * merging exactly because every width is a multiple of the one before; so the width a timeline ends at is the
 * narrowest that fits all its decisions, whatever their order, and two timelines merge exactly. Pure.
 */
import type { DecisionRecord } from '../record/types.js';
import type { TimeBucket } from './chartDigest.js';
import { createVerdictCounts, type VerdictCounts } from './verdictCounts.js';

/** Bucket widths, each a multiple of the previous one (ms). */
const LADDER_MS = [
  1e3, 5e3, 15e3, 60e3, 300e3, 900e3, 3600e3, 10800e3, 21600e3, 43200e3, 86400e3, 604800e3, 2419200e3,
];

interface MutableBucket {
  decisions: number;
  nearTies: number;
  verdicts: VerdictCounts;
}

/** Decisions per time bucket; the buckets widen along the ladder so that at most `maxBuckets` are kept. */
export class Timeline {
  private rung = 0;
  /** Bucket index (start time ÷ the rung's width) → counts. */
  private buckets = new Map<number, MutableBucket>();

  constructor(private readonly maxBuckets: number) {}

  /** Count one decision in its bucket; a decision without a finite time is not drawn. */
  add(d: DecisionRecord, tie: boolean): void {
    if (!Number.isFinite(d.timeUnixMs)) return;
    const key = Math.floor(d.timeUnixMs / LADDER_MS[this.rung]!);
    let b = this.buckets.get(key);
    if (b === undefined) {
      b = { decisions: 0, nearTies: 0, verdicts: createVerdictCounts() };
      this.buckets.set(key, b);
    }
    b.decisions++;
    if (tie) b.nearTies++;
    b.verdicts[d.verdict]++;
    // Stryker disable next-line EqualityOperator: equivalent — widen() itself does nothing until there are more than maxBuckets.
    if (this.buckets.size > this.maxBuckets) this.widen();
  }

  /**
   * Add `other`'s buckets: both are brought to the wider of the two widths, then widened until they fit. The
   * width a timeline ends at is the narrowest that fits all its decisions, whatever their order, so this is
   * the timeline of both parts' decisions counted in one.
   */
  merge(other: Timeline): void {
    this.widenTo(other.rung);
    const to = LADDER_MS[this.rung]!;
    const from = LADDER_MS[other.rung]!;
    for (const [k, b] of other.buckets) {
      const key = Math.floor((k * from) / to);
      const m = this.buckets.get(key);
      if (m === undefined) this.buckets.set(key, { ...b, verdicts: { ...b.verdicts } });
      else mergeBucket(m, b);
    }
    this.widen();
  }

  /** The buckets in time order, with the width they ended at. */
  finish(): { readonly bucketMs: number; readonly buckets: readonly TimeBucket[] } {
    const width = LADDER_MS[this.rung]!;
    const buckets = [...this.buckets]
      .sort((x, y) => x[0] - y[0])
      .map(([k, b]) => ({
        startMs: k * width,
        decisions: b.decisions,
        nearTies: b.nearTies,
        verdicts: { ...b.verdicts },
      }));
    return { bucketMs: width, buckets };
  }

  /** Step up the ladder until the buckets fit, merging those that fall into one wider bucket. */
  private widen(): void {
    while (this.buckets.size > this.maxBuckets && this.rung < LADDER_MS.length - 1) this.stepUp();
  }

  /** Step up the ladder to rung `rung` at least. */
  private widenTo(rung: number): void {
    while (this.rung < rung) this.stepUp();
  }

  /** One rung up: the buckets that fall into one wider bucket merged. */
  private stepUp(): void {
    const from = LADDER_MS[this.rung]!;
    this.rung++;
    const to = LADDER_MS[this.rung]!;
    const merged = new Map<number, MutableBucket>();
    for (const [k, b] of this.buckets) {
      const key = Math.floor((k * from) / to);
      const m = merged.get(key);
      if (m === undefined) merged.set(key, b);
      else mergeBucket(m, b);
    }
    this.buckets = merged;
  }
}

/** Add the counts of `b` to `into`. */
function mergeBucket(into: MutableBucket, b: MutableBucket): void {
  into.decisions += b.decisions;
  into.nearTies += b.nearTies;
  for (const v of Object.keys(b.verdicts) as (keyof VerdictCounts)[]) into.verdicts[v] += b.verdicts[v];
}
