/**
 * routingSeries — the Prometheus series `serve` exposes on /metrics, counted from every decision received.
 *
 * The same series the instrumentation's direct metrics reach Prometheus as (`agentfootprint_routing_decisions_total`
 * and the `agentfootprint_routing_gap` histogram, names and labels from semconv/metricNames.ts, buckets
 * DEFAULT_GAP_HISTOGRAM_BOUNDARIES), so the shipped direct alert rules and dashboard work against `serve` with a
 * scrape config alone. Counters are cumulative over everything received, never over the window: a
 * Prometheus counter must not go down when a decision is evicted. `service_name` is added from the span's
 * resource. Label sets are capped (`maxSeries`); a decision of a further set is counted in
 * `routescope_serve_series_overflow_total` instead, never lost without a trace, and a label value longer than
 * MAX_LABEL_VALUE is cut (cutString). Pure. No I/O.
 */
import {
  DEFAULT_GAP_HISTOGRAM_BOUNDARIES,
  METRIC_ATTRIBUTE_UNSET,
  PROM_LABEL_FLOOR_DECLARED,
  PROM_LABEL_NEAR_TIE,
  PROM_LABEL_ROUTER,
  PROM_LABEL_SCORER,
  PROM_LABEL_VERDICT,
  PROM_ROUTING_DECISIONS_TOTAL,
  PROM_ROUTING_GAP_BUCKET,
  PROM_ROUTING_GAP_COUNT,
  PROM_ROUTING_GAP_SUM,
} from '../semconv/metricNames.js';
import type { DecisionRecord } from '../record/types.js';
import { cutString } from '../trace/bytes/cutString.js';

/** Label sets kept before further ones overflow. */
export const MAX_ROUTING_SERIES = 10_000;

/** The longest label value kept whole: 10,000 sets of four such values stay a few MiB whatever is sent. */
export const MAX_LABEL_VALUE = 128;

/** Serve's own series, beside the routing ones. */
export const PROM_SERVE_SERIES_OVERFLOW_TOTAL = 'routescope_serve_series_overflow_total';

interface Series {
  readonly labels: string;
  decisions: number;
  gapCount: number;
  gapSum: number;
  readonly buckets: number[];
}

/** The routing series. */
export interface RoutingSeries {
  /** Count one decision. */
  add(d: DecisionRecord): void;
  /** The series in the Prometheus text exposition format (0.0.4), HELP and TYPE lines included. */
  render(): string;
  /** Distinct label sets counted. */
  readonly seriesCount: number;
  /** Decisions not counted in a series because `maxSeries` was reached. */
  readonly overflow: number;
}

/** Escape a label value: backslash, double quote and newline. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** A number as the exposition format writes it. */
export function formatSampleValue(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  return String(x);
}

/** Create the series (empty). */
export function createRoutingSeries(maxSeries: number = MAX_ROUTING_SERIES): RoutingSeries {
  const series = new Map<string, Series>();
  let overflow = 0;
  // The exposition is made again only after a decision was counted: 10,000 sets are 200,000 lines, and
  // Prometheus (or anyone) may scrape far more often than decisions arrive.
  let changes = 0;
  let rendered: { changes: number; text: string } | undefined;
  const bounds = DEFAULT_GAP_HISTOGRAM_BOUNDARIES;

  const labelsOf = (d: DecisionRecord): string =>
    [
      [PROM_LABEL_ROUTER, nonEmpty(d.router)],
      [PROM_LABEL_SCORER, nonEmpty(d.scorer)],
      [PROM_LABEL_VERDICT, d.verdict],
      [PROM_LABEL_NEAR_TIE, String(d.nearTie)],
      [PROM_LABEL_FLOOR_DECLARED, String(d.floorDeclared)],
      ['service_name', nonEmpty(d.service)],
    ]
      .map(([k, v]) => `${k}="${escapeLabelValue(v!)}"`)
      .join(',');

  return {
    add(d) {
      changes++;
      // Found by the label values, each after its length (so no two sets share a key, whatever they hold);
      // the escaped label text is made once, for a new set.
      const router = nonEmpty(d.router);
      const scorer = nonEmpty(d.scorer);
      const service = nonEmpty(d.service);
      const key = `${router.length}:${router}${scorer.length}:${scorer}${service.length}:${service}${d.verdict.length}:${d.verdict}${d.nearTie ? 1 : 0}${d.floorDeclared ? 1 : 0}`;
      let s = series.get(key);
      if (s === undefined) {
        if (series.size >= maxSeries) {
          overflow++;
          return;
        }
        s = { labels: labelsOf(d), decisions: 0, gapCount: 0, gapSum: 0, buckets: bounds.map(() => 0) };
        series.set(key, s);
      }
      s.decisions++;
      const gap = d.runnerUp?.gap;
      if (gap !== undefined && Number.isFinite(gap)) {
        s.gapCount++;
        s.gapSum += gap;
        for (let i = 0; i < bounds.length; i++) if (gap <= bounds[i]!) s.buckets[i]!++;
      }
    },
    render() {
      if (rendered?.changes === changes) return rendered.text;
      const out: string[] = [
        `# HELP ${PROM_ROUTING_DECISIONS_TOTAL} Tier-2 routing decisions received by routescope serve.`,
        `# TYPE ${PROM_ROUTING_DECISIONS_TOTAL} counter`,
      ];
      for (const s of series.values())
        out.push(`${PROM_ROUTING_DECISIONS_TOTAL}{${s.labels}} ${s.decisions}`);
      const gapName = PROM_ROUTING_GAP_BUCKET.replace(/_bucket$/, '');
      out.push(
        `# HELP ${gapName} The pairwise runner-up gap of each decision with a runner-up.`,
        `# TYPE ${gapName} histogram`,
      );
      for (const s of series.values()) {
        if (s.gapCount === 0) continue;
        bounds.forEach((b, i) =>
          out.push(`${PROM_ROUTING_GAP_BUCKET}{${s.labels},le="${formatSampleValue(b)}"} ${s.buckets[i]}`),
        );
        out.push(`${PROM_ROUTING_GAP_BUCKET}{${s.labels},le="+Inf"} ${s.gapCount}`);
        out.push(`${PROM_ROUTING_GAP_SUM}{${s.labels}} ${formatSampleValue(s.gapSum)}`);
        out.push(`${PROM_ROUTING_GAP_COUNT}{${s.labels}} ${s.gapCount}`);
      }
      out.push(
        `# HELP ${PROM_SERVE_SERIES_OVERFLOW_TOTAL} Decisions not counted in a routing series: the label sets were capped at ${maxSeries}.`,
        `# TYPE ${PROM_SERVE_SERIES_OVERFLOW_TOTAL} counter`,
        `${PROM_SERVE_SERIES_OVERFLOW_TOTAL} ${overflow}`,
      );
      rendered = { changes, text: `${out.join('\n')}\n` };
      return rendered.text;
    },
    get seriesCount() {
      return series.size;
    },
    get overflow() {
      return overflow;
    },
  };
}

/** A label value: the unset marker for none, and never longer than MAX_LABEL_VALUE (cut, the cut marked). */
function nonEmpty(value: string | undefined): string {
  return value === undefined || value === '' ? METRIC_ATTRIBUTE_UNSET : cutString(value, MAX_LABEL_VALUE);
}
