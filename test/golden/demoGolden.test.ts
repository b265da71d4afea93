// demoGolden — the `--format json` contract of every analyzer command, pinned on the demo's traces.
//
// The demo's file is reproducible (seeded ids, batches cut by size), so each command's JSON on it is too,
// apart from what must vary: span times and the temp folder the file sits in. Those are normalized; every
// other byte is compared with the committed golden file. UPDATE_GOLDEN=1 rewrites the golden files, and is
// refused where CI is set: a run that rewrites what it compares with would pass whatever the output.
// Compared after normalization and a prettier layout, so a change reads as a small diff in review.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemoAgent } from '../../src/demo/runDemoAgent.js';
import { cli } from '../cli/runCliHarness.js';

const GOLDEN_DIR = dirname(fileURLToPath(import.meta.url));
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const IN_CI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';
/** The conversation `explain` is pinned on: a cold menu that missed, then a near-tie stay that kept the miss. */
const EXPLAIN_CONVERSATION = 'web-011';
/** Keys whose values are wall-clock times. */
const TIME_KEY = /(^time|Ms$|UnixMs$|UnixNano$|^(first|last|start|end)(Time)?$)/;

let dir: string;
let file: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'routescope-golden-'));
  file = join(dir, 'traces.jsonl');
  await runDemoAgent({ path: file });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Replace times with 0 and the temp path with a placeholder, everywhere in the document. */
function normalizeReport(value: unknown, tempDir: string, key = ''): unknown {
  if (typeof value === 'number' && TIME_KEY.test(key)) return 0;
  if (typeof value === 'string') {
    const path = value.split(tempDir).join('<demo-dir>');
    return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(path) ? '<time>' : path;
  }
  if (Array.isArray(value)) return value.map((v) => normalizeReport(v, tempDir));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = normalizeReport(v, tempDir, k);
    return out;
  }
  return value;
}

async function checkGolden(name: string, argv: readonly string[]): Promise<void> {
  if (UPDATE && IN_CI) {
    throw new Error(
      'UPDATE_GOLDEN=1 is refused where CI is set: it would rewrite the golden files instead of checking them. ' +
        'Update them on your machine (UPDATE_GOLDEN=1 npx vitest run test/golden) and commit the diff.',
    );
  }
  const run = await cli([...argv, '--format', 'json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const path = join(GOLDEN_DIR, `${name}.json`);
  // Laid out as the repository's prettier would, so `prettier --check .` passes on the golden files.
  const options = (await prettier.resolveConfig(path)) ?? {};
  const actual = await prettier.format(JSON.stringify(normalizeReport(JSON.parse(run.stdout), dir)), {
    ...options,
    parser: 'json',
  });
  if (UPDATE) {
    writeFileSync(path, actual);
    return;
  }
  let expected: string;
  try {
    expected = readFileSync(path, 'utf8');
  } catch {
    throw new Error(
      `no golden file ${name}.json: run UPDATE_GOLDEN=1 npx vitest run test/golden to create it`,
    );
  }
  expect(actual).toBe(expected);
}

describe('golden --format json on the demo traces', () => {
  it('analyze', async () => {
    await checkGolden('analyze', ['analyze', file]);
  });
  it('hotspots', async () => {
    await checkGolden('hotspots', ['hotspots', file]);
  });
  it('floorless', async () => {
    await checkGolden('floorless', ['floorless', file]);
  });
  it(`explain ${EXPLAIN_CONVERSATION}`, async () => {
    await checkGolden('explain', ['explain', EXPLAIN_CONVERSATION, file]);
  });
});

describe('normalizeReport', () => {
  it('zeroes times, hides the temp folder, keeps everything else', () => {
    const doc = {
      timeUnixMs: 17,
      timeRange: { firstMs: 1, lastMs: 2 },
      source: { file: '/tmp/x/traces.jsonl', line: 3 },
      at: '2026-12-02T11:41:15.085Z',
      gap: 0.5,
      nested: [{ timeUnixMs: 4, score: 0.25 }],
    };
    expect(normalizeReport(doc, '/tmp/x')).toEqual({
      timeUnixMs: 0,
      timeRange: { firstMs: 0, lastMs: 0 },
      source: { file: '<demo-dir>/traces.jsonl', line: 3 },
      at: '<time>',
      gap: 0.5,
      nested: [{ timeUnixMs: 0, score: 0.25 }],
    });
  });
});
