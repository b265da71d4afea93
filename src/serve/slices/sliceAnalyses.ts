/**
 * sliceAnalyses — every analysis the live page shows, as one set of accumulators: the overview and its audit,
 * the hot spots, the floorless scorers, the chart digest, the record counts and the lists' index.
 *
 * A slice of serve's window keeps one set, fed each record as it arrives; a render merges the slices' sets, in
 * the order of their records, into a fresh set and finishes it. Each analysis's `merge` is exact (its laws are
 * in test/analyze), so the view of merged slices is the view of one pass over the window's records. Pure.
 */
import type { PolicyChoice } from '../../analyze/policyAudit.js';
import { createChartDigest, type ChartDigestAnalysis } from '../../analyze/chartDigest.js';
import { createFloorlessAnalysis, type FloorlessAnalysis } from '../../analyze/findFloorlessScorers.js';
import { createHotspotAnalysis, type HotspotAnalysis } from '../../analyze/findNearTieHotspots.js';
import {
  countRecordKind,
  createRecordKindCounts,
  mergeRecordKindCounts,
  type RecordKindCounts,
} from '../../analyze/recordKindCounts.js';
import { createSummaryAnalysis, type SummaryAnalysis } from '../../analyze/summarizeDecisions.js';
import type { TraceRecord } from '../../record/types.js';
import type { AnalyzeView } from '../../report/presentAnalyze.js';
import type { InputSummary } from '../../report/presentInput.js';
import { IndexPart } from '../browse/indexPart.js';
import { mergeIndexParts, type WindowIndex } from '../browse/windowIndex.js';

/** One set of the live page's accumulators. */
export interface SliceAnalyses {
  readonly summary: SummaryAnalysis;
  readonly hotspots: HotspotAnalysis;
  readonly floorless: FloorlessAnalysis;
  readonly digest: ChartDigestAnalysis;
  readonly kinds: RecordKindCounts;
  /** The lists' index of the records added here (merged ones are not copied: see mergeSlices). */
  readonly index: IndexPart;
  add(record: TraceRecord): void;
}

/** A fresh set; `policy` is serve's `--policy`. */
export function createSliceAnalyses(policy: PolicyChoice): SliceAnalyses {
  const index = new IndexPart();
  const summary = createSummaryAnalysis({ policy }, index.observe);
  const hotspots = createHotspotAnalysis({});
  const floorless = createFloorlessAnalysis({});
  const digest = createChartDigest();
  const kinds = createRecordKindCounts();
  return {
    summary,
    hotspots,
    floorless,
    digest,
    kinds,
    index,
    add(record) {
      summary.add(record);
      index.add(record);
      hotspots.add(record);
      floorless.add(record);
      digest.add(record);
      countRecordKind(kinds, record);
    },
  };
}

/** What the merged sets make: the analyses finished, the records counted, and the lists' index. */
export interface MergedView {
  readonly view: Omit<AnalyzeView, 'input'>;
  readonly records: InputSummary['records'];
  /**
   * The lists' index of the same records, made when first read (the overview page never reads it; a list or a
   * search does), of the parts as they were when the view was made.
   */
  readonly index: WindowIndex;
}

/** The sets of `slices` (oldest first), merged into a fresh one and finished. The slices are left as they were. */
export function mergeSlices(slices: readonly SliceAnalyses[], policy: PolicyChoice): MergedView {
  const total = createSliceAnalyses(policy);
  for (const s of slices) {
    total.summary.merge(s.summary);
    total.hotspots.merge(s.hotspots);
    total.floorless.merge(s.floorless);
    total.digest.merge(s.digest);
    mergeRecordKindCounts(total.kinds, s.kinds);
  }
  const summary = total.summary.finish();
  const parts = slices.map((s) => s.index.snapshot());
  let index: WindowIndex | undefined;
  return {
    view: {
      summary,
      hotspots: total.hotspots.finish(),
      floorless: total.floorless.finish(),
      gates: [],
      digest: total.digest.finish(),
    },
    records: { ...total.kinds },
    // The parts are merged once, judged by the merged audit (settled by the finish above).
    get index() {
      return (index ??= mergeIndexParts(parts, total.summary));
    },
  };
}
