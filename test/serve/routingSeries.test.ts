/**
 * routingSeries — /metrics' routing counters: one series per distinct label set, counting every decision of
 * it, whatever the router, scorer and service names hold (separators, quotes, NUL, newlines, empty, unset);
 * checked against a model that groups decisions by the label text Prometheus would read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRoutingSeries, escapeLabelValue } from '../../src/serve/routingSeries.js';
import {
  METRIC_ATTRIBUTE_UNSET,
  PROM_LABEL_FLOOR_DECLARED,
  PROM_LABEL_NEAR_TIE,
  PROM_LABEL_ROUTER,
  PROM_LABEL_SCORER,
  PROM_LABEL_VERDICT,
  PROM_ROUTING_DECISIONS_TOTAL,
} from '../../src/semconv/metricNames.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { decision, s } from '../analyze/decisionBuilder.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

const base = decision({ scores: [s('a', 0.9), s('b', 0.2)] });

/** The label text of a decision's set, built here the long way (the names the series use, in their order). */
function labelText(d: DecisionRecord): string {
  const value = (v: string | undefined) =>
    escapeLabelValue(v === undefined || v === '' ? METRIC_ATTRIBUTE_UNSET : v);
  return [
    `${PROM_LABEL_ROUTER}="${value(d.router)}"`,
    `${PROM_LABEL_SCORER}="${value(d.scorer)}"`,
    `${PROM_LABEL_VERDICT}="${value(d.verdict)}"`,
    `${PROM_LABEL_NEAR_TIE}="${d.nearTie}"`,
    `${PROM_LABEL_FLOOR_DECLARED}="${d.floorDeclared}"`,
    `service_name="${value(d.service)}"`,
  ].join(',');
}

/** decisions_total's samples as label text → count. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${PROM_ROUTING_DECISIONS_TOTAL}{`)) continue;
    const close = line.lastIndexOf('} ');
    const labels = line.slice(PROM_ROUTING_DECISIONS_TOTAL.length + 1, close);
    expect(found.has(labels), `one series per label set: ${labels}`).toBe(false);
    found.set(labels, Number(line.slice(close + 2)));
  }
  return found;
}

const name = fc.option(
  fc.constantFrom('', 'a', 'b', 'a:', '1:a', '1:', ':', '\u0000', 'a\u0000b', 'a"b', 'a\\', '\n', 'x'),
  {
    nil: undefined,
  },
);

describe('routingSeries', () => {
  it('law: one series per distinct label text, counting exactly its decisions (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            router: name,
            scorer: name,
            service: name,
            verdict: fc.constantFrom('move', 'stay', 'menu', 'unmatched'),
            nearTie: fc.boolean(),
            floorDeclared: fc.boolean(),
          }),
          { maxLength: 60 },
        ),
        (fields) => {
          const series = createRoutingSeries();
          const model = new Map<string, number>();
          for (const f of fields) {
            const d = { ...base, ...f } as DecisionRecord;
            series.add(d);
            const key = labelText(d);
            model.set(key, (model.get(key) ?? 0) + 1);
            // Scraped between decisions too: a render kept from before is never served after a change.
            if (d.nearTie) expect(samples(series.render())).toEqual(model);
          }
          expect(samples(series.render())).toEqual(model);
          expect(series.seriesCount).toBe(model.size);
        },
      ),
      { numRuns: propertyRuns(200) },
    );
  });

  it('keeps apart names that a plain join would merge, and merges unset with empty', () => {
    const series = createRoutingSeries();
    series.add({ ...base, router: 'a:', scorer: 'b' });
    series.add({ ...base, router: 'a', scorer: ':b' });
    series.add({ ...base, router: 'a\u0000', scorer: 'b' });
    series.add({ ...base, router: 'a', scorer: '\u0000b' });
    series.add({ ...base, service: '' });
    series.add({ ...base, service: undefined });
    expect(series.seriesCount).toBe(5);
    const counts = [...samples(series.render()).values()].sort();
    expect(counts).toEqual([1, 1, 1, 1, 2]);
  });

  it('a label value longer than 128 characters is cut and marked; two that share their start stay two series', () => {
    const series = createRoutingSeries();
    series.add({ ...base, router: `${'r'.repeat(5000)}1` });
    series.add({ ...base, router: `${'r'.repeat(5000)}2` });
    expect(series.seriesCount).toBe(2);
    const routers = [...series.render().matchAll(/router="([^"]*)"/g)].map((m) => m[1]!);
    for (const r of routers) {
      expect(r.length).toBeLessThanOrEqual(128);
      expect(r).toMatch(/… \[cut from 5001 characters, #[0-9a-f]{8}\]$/);
    }
    expect(new Set(routers).size).toBe(2);
  });

  it('counts a further label set as overflow once the cap is reached, never as a series', () => {
    const series = createRoutingSeries(2);
    for (const router of ['r1', 'r2', 'r3', 'r3', 'r1']) series.add({ ...base, router });
    expect(series.seriesCount).toBe(2);
    expect(series.overflow).toBe(2);
    expect([...samples(series.render()).values()].sort()).toEqual([1, 2]);
  });
});
