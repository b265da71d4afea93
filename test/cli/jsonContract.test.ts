// The --format json documents match docs/json-output.md: every documented field, with its type, for every
// command; values that the input decides are checked against what the input holds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, writeTraceFile, type WrittenTraceFile } from '../helpers/traceFiles.js';
import { cliJson } from './runCliHarness.js';

type Shape =
  'number' | 'string' | 'boolean' | 'null' | Shape[] | { readonly [k: string]: Shape } | ['|', ...Shape[]];
const num = 'number' as const;
const str = 'string' as const;
const bool = 'boolean' as const;
const oneOf = (...s: Shape[]): Shape => ['|', ...s];
const arrayOf = (s: Shape): Shape => [s];

function check(value: unknown, shape: Shape, path: string): string[] {
  if (typeof shape === 'string') {
    const ok = shape === 'null' ? value === null : typeof value === shape;
    return ok ? [] : [`${path}: expected ${shape}, got ${JSON.stringify(value)}`];
  }
  if (Array.isArray(shape)) {
    if (shape[0] === '|') {
      const options = shape.slice(1) as Shape[];
      return options.some((o) => check(value, o, path).length === 0)
        ? []
        : [`${path}: matches none of the allowed shapes`];
    }
    if (!Array.isArray(value)) return [`${path}: expected an array`];
    return value.flatMap((v, i) => check(v, shape[0] as Shape, `${path}[${i}]`));
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return [`${path}: expected an object`];
  const obj = value as Record<string, unknown>;
  return Object.entries(shape).flatMap(([k, s]) =>
    k in obj ? check(obj[k], s, `${path}.${k}`) : [`${path}.${k}: missing`],
  );
}

function expectShape(value: unknown, shape: Shape): void {
  expect(check(value, shape, '$')).toEqual([]);
}

const verdicts: Shape = { move: num, stay: num, menu: num, unmatched: num };
const rates: Shape = {
  decisions: num,
  verdicts,
  nearTies: num,
  nearTieRate: num,
  menuRate: num,
  unmatchedRate: num,
};
const breakdown: Shape = { rows: arrayOf({ name: oneOf(str, 'null'), ...(rates as object) }) };
const input: Shape = {
  inputs: arrayOf(str),
  files: num,
  lines: num,
  spans: num,
  routingSpans: num,
  turnSpans: num,
  nonRoutingSpans: num,
  duplicates: num,
  events: num,
  otherEvents: num,
  duplicateEvents: num,
  duplicateAcrossSources: num,
  duplicateTurnsAcrossSources: num,
  records: { decisions: num, turns: num, misroutes: num },
  scan: {
    path: str,
    simdLines: num,
    javascriptLines: num,
    simdUnavailable: oneOf(str, 'null'),
  },
  problems: num,
  filesWithoutTraces: num,
  skippedFiles: arrayOf({ file: str, reason: str }),
  skipped: arrayOf({ file: str, line: num, kind: str, reason: str }),
};
const gates: Shape = arrayOf({ gate: str, failed: bool, actual: num, reason: str });
const hotspot: Shape = {
  router: oneOf(str, 'null'),
  scorer: oneOf(str, 'null'),
  pair: [str],
  meetings: num,
  nearTies: num,
  share: num,
  tieRate: num,
  medianGap: oneOf(num, 'null'),
  verdicts,
  conversations: num,
  conversationsCapped: bool,
  exampleTraceIds: arrayOf(str),
  syntheticTraceIds: arrayOf(str),
};
const distribution: Shape = {
  count: num,
  min: num,
  p10: num,
  p25: num,
  median: num,
  p75: num,
  p90: num,
  max: num,
  exact: bool,
};
const floorlessGroup: Shape = {
  router: oneOf(str, 'null'),
  scorer: oneOf(str, 'null'),
  decisions: num,
  verdicts,
  nearTies: num,
  nearTieRate: num,
  topScores: oneOf(distribution, 'null'),
  nonFiniteTop: num,
  suggestedFloor: oneOf({ percent: num, floor: num, wouldBeUnmatched: num, share: num, exact: bool }, 'null'),
  exampleTraceIds: arrayOf(str),
  syntheticTraceIds: arrayOf(str),
};

const s = (id: string, score: number) => ({ id, score });
let tmp: { dir: string; cleanup: () => void };
let file: WrittenTraceFile;

beforeAll(async () => {
  tmp = makeTempDir();
  file = await writeTraceFile(
    join(tmp.dir, 'traces.jsonl'),
    [
      // Two cold near-ties of billing/refunds (menus), one decisive move, one floorless stay by ambiguity,
      // one keyword decision with a floor that ends unmatched, one that the host recorded wrongly.
      { scores: [s('billing', 1), s('refunds', 0.97)], trace: 't1', conversationId: 'conv-1' },
      { scores: [s('refunds', 1), s('billing', 0.98)], trace: 't1', conversationId: 'conv-1' },
      { scores: [s('billing', 2), s('refunds', 0.5)], trace: 't2', conversationId: 'conv-2' },
      {
        scores: [s('shipping', 1), s('billing', 0.99)],
        incumbent: 'billing',
        trace: 't2',
        conversationId: 'conv-2',
      },
      { scores: [s('billing', 0.1), s('refunds', 0.05)], scorer: { floor: 0.3 }, scorerName: 'keyword' },
      {
        scores: [s('billing', 2), s('refunds', 0.1)],
        override: { 'agentfootprint.routing.verdict': 'stay', 'agentfootprint.routing.to': 'x' },
      },
    ],
    { extraLines: ['{"resourceSpans": [', '\u0000\u0001garbage'] },
  );
});
afterAll(() => tmp.cleanup());

describe('--format json, schemaVersion 1', () => {
  it('analyze has every documented field, with the numbers of the input', async () => {
    const { code, json } = await cliJson(['analyze', file.path]);
    expect(code).toBe(0);
    expectShape(json, {
      schemaVersion: num,
      command: str,
      decisions: num,
      verdicts,
      nearTies: num,
      nearTieRate: num,
      menuRate: num,
      unmatchedRate: num,
      byService: breakdown,
      byRouter: breakdown,
      byScorer: breakdown,
      hotspots: arrayOf(hotspot),
      floorlessDecisions: num,
      floorless: arrayOf(floorlessGroup),
      inconsistent: num,
      replay: { complete: num, partial: num, undecidable: num },
      anomalies: { 'odd-margin': num, 'odd-menu-size': num, 'duplicate-candidates': num, inconsistent: num },
      anomalyExamples: arrayOf({ kind: str, at: { traceId: str, spanId: str, file: str, line: num } }),
      errors: num,
      turns: num,
      misroutes: num,
      timeRange: { firstMs: num, lastMs: num },
      input,
      gates,
    });
    expect(json).toMatchObject({
      schemaVersion: 1,
      command: 'analyze',
      decisions: 6,
      verdicts: { move: 1, stay: 2, menu: 2, unmatched: 1 },
      nearTies: 3,
      nearTieRate: 0.5,
      inconsistent: 1,
      floorlessDecisions: 5,
    });
    const hotspots = json.hotspots as { pair: string[]; nearTies: number; conversations: number }[];
    expect(hotspots[0]).toMatchObject({ pair: ['billing', 'refunds'], nearTies: 2, conversations: 1 });
    expect(hotspots.reduce((t, h) => t + h.nearTies, 0)).toBe(3);
    const inputBlock = json.input as { problems: number; skipped: { file: string; line: number }[] };
    expect(inputBlock.problems).toBe(2);
    expect(inputBlock.skipped.map((p) => p.line)).toEqual([file.lines - 1, file.lines]);
  });

  it('hotspots has every documented field', async () => {
    const { json } = await cliJson(['hotspots', file.path, '--by', 'pair']);
    expectShape(json, {
      schemaVersion: num,
      command: str,
      by: arrayOf(str),
      decisions: num,
      nearTies: num,
      groups: num,
      hotspots: arrayOf({ pair: [str], meetings: num, nearTies: num, share: num, tieRate: num }),
      unpairedNearTies: num,
      droppedNearTies: num,
      input,
      gates,
    });
    expect(json.by).toEqual([]);
  });

  it('floorless has every documented field', async () => {
    const { json } = await cliJson(['floorless', file.path, '--weakest', '50']);
    expectShape(json, {
      schemaVersion: num,
      command: str,
      weakestPercent: num,
      decisions: num,
      floorlessDecisions: num,
      floorless: arrayOf(floorlessGroup),
      droppedDecisions: num,
      input,
      gates,
    });
    expect(json).toMatchObject({ weakestPercent: 50, floorlessDecisions: 5 });
  });

  it('explain has every documented field', async () => {
    const { json } = await cliJson(['explain', 'conv-2', file.path, '--jaeger-url', 'http://jaeger:16686']);
    expectShape(json, {
      schemaVersion: num,
      command: str,
      target: str,
      matchedBy: arrayOf(str),
      traceIds: arrayOf(str),
      syntheticTraceIds: arrayOf(str),
      conversationIds: arrayOf(str),
      decisions: num,
      links: {},
      entries: arrayOf({
        kind: str,
        traceId: str,
        spanId: str,
        timeUnixMs: num,
        verdict: str,
        ranked: arrayOf({ id: str, score: oneOf(num, str), relevance: num }),
        why: str,
        replay: { kind: str },
        counterfactuals: {
          baseline: oneOf({ verdict: str }, 'null'),
          margin: { kind: str },
          floor: arrayOf({ kind: str }),
        },
      }),
      truncated: num,
      input,
    });
    expect(json).toMatchObject({ matchedBy: ['conversation'], decisions: 2 });
  });

  it('the contract document names every top-level field the commands print', async () => {
    const doc = readFileSync(new URL('../../docs/json-output.md', import.meta.url), 'utf8');
    for (const argv of [['analyze'], ['hotspots'], ['floorless'], ['explain', 'conv-1']]) {
      const { json } = await cliJson([...argv, file.path]);
      for (const key of Object.keys(json)) expect(doc, `${argv[0]}: ${key}`).toContain(`\`${key}\``);
    }
  });
});
