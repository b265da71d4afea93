// replay, tune and flapping through runCli on the demo traces: the JSON contract (documented fields, the
// audit, `before` equal to analyze), the laws at the command line, tune's target within one sweep step, usage
// errors, and every format.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemoAgent } from '../../src/demo/runDemoAgent.js';
import { cli, cliJson } from './runCliHarness.js';

let dir: string;
let demo: string;
const doc = readFileSync(new URL('../../docs/json-output.md', import.meta.url), 'utf8');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'routescope-whatif-'));
  demo = join(dir, 'demo.jsonl');
  await runDemoAgent({ path: demo });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Side = { decisions: number; verdicts: Record<string, number>; nearTies: number; nearTieRate: number };

describe('routescope replay', () => {
  it('under the recorded thresholds reproduces every verdict, and `before` means what analyze means', async () => {
    const { code, json } = await cliJson(['replay', demo]);
    expect(code).toBe(0);
    const analyze = (await cliJson(['analyze', demo])).json;
    const before = json.before as Side;
    expect(before).toMatchObject({
      decisions: analyze.decisions,
      verdicts: analyze.verdicts,
      nearTies: analyze.nearTies,
      nearTieRate: analyze.nearTieRate,
    });
    expect(json.after).toEqual(json.before);
    expect(json.flipped).toBe(0);
    expect(json.consistency).toMatchObject({ audited: analyze.decisions, inconsistent: 0 });
    const flips = json.flips as Record<string, Record<string, number>>;
    for (const k of ['move', 'stay', 'menu', 'unmatched']) expect(flips[k]![k]).toBe(before.verdicts[k]);
    expect(json.thresholds).toEqual({ nearTieMargin: 'recorded', menuSize: 'recorded', floor: 'recorded' });
  });

  it('--margin 0 leaves no near-tie; --margin 1 makes more of them', async () => {
    const zero = (await cliJson(['replay', demo, '--margin', '0'])).json;
    expect((zero.after as Side).nearTies).toBe(0);
    const one = (await cliJson(['replay', demo, '--margin', '1'])).json;
    expect((one.after as Side).nearTies).toBeGreaterThan((one.before as Side).nearTies);
  });

  it('--floor on the floorless embedding scorer makes unmatched reachable there; --no-floor takes it away', async () => {
    const floor = (await cliJson(['replay', demo, '--floor', '0.3'])).json;
    expect(floor.unmatchedNowReachable).toContainEqual({ router: 'support-desk', scorer: 'embedding' });
    expect((floor.after as Side).verdicts.unmatched).toBeGreaterThan(
      (floor.before as Side).verdicts.unmatched!,
    );
    const none = (await cliJson(['replay', demo, '--no-floor'])).json;
    expect(none.thresholds).toMatchObject({ floor: null });
    expect((none.after as Side).verdicts.unmatched).toBeLessThanOrEqual(
      (none.before as Side).verdicts.unmatched!,
    );
  });

  it('--where selects, --list lists', async () => {
    const all = (await cliJson(['replay', demo])).json;
    const one = (
      await cliJson(['replay', demo, '--where', 'router=support-desk', '--margin', '0.3', '--list', '5'])
    ).json;
    const n = (one.before as Side).decisions;
    expect(n).toBeGreaterThan(0);
    expect(n + (one.excluded as number)).toBe((all.before as Side).decisions);
    expect(one.list).toHaveLength(Math.min(5, one.flipped as number));
    for (const f of one.list as { router: string; from: string; to: string }[]) {
      expect(f.router).toBe('support-desk');
      expect(f.from).not.toBe(f.to);
    }
  });

  it('every top-level field is documented', async () => {
    const { json } = await cliJson(['replay', demo, '--margin', '0.2', '--list']);
    for (const key of Object.keys(json)) expect(doc, `replay: ${key}`).toContain(`\`${key}\``);
  });

  it('bad options are usage errors that say what to type', async () => {
    const where = await cli(['replay', demo, '--where', 'model=x']);
    expect(where.code).toBe(2);
    expect(where.stderr).toMatch(/router, scorer, service/);
    const margin = await cli(['replay', demo, '--margin', '2']);
    expect(margin.code).toBe(2);
    expect(margin.stderr).toMatch(/--margin must be from 0 to 1, as a number or a percentage/);
    const list = await cli(['replay', demo, '--list', 'many']);
    expect(list.code).toBe(2);
  });
});

describe('routescope tune', () => {
  for (const target of [0.05, 0.1, 0.2]) {
    it(`meets --target-menu-rate ${target} on the demo traces within one sweep step`, async () => {
      const t = (await cliJson(['tune', demo, '--target-menu-rate', String(target)])).json;
      const rec = t.recommendation as { margin: number; meets: boolean };
      expect(rec.meets).toBe(true);
      const at = (await cliJson(['replay', demo, '--margin', String(rec.margin)])).json.after as {
        menuRate: number;
      };
      expect(at.menuRate).toBeLessThanOrEqual(target);
      const next = Number((rec.margin + 0.01).toFixed(10));
      if (next <= 0.5) {
        const over = (await cliJson(['replay', demo, '--margin', String(next)])).json.after as {
          menuRate: number;
        };
        expect(over.menuRate).toBeGreaterThan(target);
      }
    });
  }

  it('reports the demo misroutes caught as a menu', async () => {
    const t = (await cliJson(['tune', demo, '--target-near-tie-rate', '0.3'])).json;
    const m = t.misroutes as { known: number; caughtRecommended: number; unjoined: number };
    expect(m.known).toBeGreaterThan(0);
    expect(m.unjoined).toBe(0);
    expect(m.caughtRecommended).toBeGreaterThanOrEqual(0);
    expect(t.floors).toContainEqual(expect.objectContaining({ router: 'support-desk', scorer: 'embedding' }));
    for (const key of Object.keys(t)) expect(doc, `tune: ${key}`).toContain(`\`${key}\``);
  });

  it('says it tunes rates, not accuracy, in text too', async () => {
    const r = await cli(['tune', demo]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/rates, not accuracy/);
    expect(r.stdout).toMatch(/none \(give --target-menu-rate/);
    // The demo's three routers judge with three margins: one sweep over all of them is flagged.
    expect(r.stdout).toMatch(/judged under 3 margins; the sweep applies one margin to all/);
    const one = await cli(['tune', demo, '--where', 'router=support-desk']);
    expect(one.stdout).not.toMatch(/judged under \d+ margins/);
  });

  it('a target outside 0..1 or an empty sweep is a usage error', async () => {
    expect((await cli(['tune', demo, '--target-menu-rate', '5'])).code).toBe(2);
    const sweep = await cli(['tune', demo, '--from', '0.4', '--to', '0.1']);
    expect(sweep.code).toBe(2);
    expect(sweep.stderr).toMatch(/from <= to/);
  });
});

describe('routescope flapping', () => {
  it('finds the demo conversations that flap, with documented fields', async () => {
    const { code, json } = await cliJson(['flapping', demo, '--min-run', '2']);
    expect(code).toBe(0);
    expect(json.conversations).toBeGreaterThan(0);
    expect(json.conversationsKeyedByTrace).toBe(0);
    expect((json.topConversations as unknown[]).length).toBe(
      Math.min(10, json.conversationsFlapping as number),
    );
    for (const key of Object.keys(json)) expect(doc, `flapping: ${key}`).toContain(`\`${key}\``);
  });

  it('a window of 0 is a usage error', async () => {
    expect((await cli(['flapping', demo, '--window', '0'])).code).toBe(2);
  });
});

describe('every format', () => {
  for (const argv of [
    ['replay', '--margin', '0.2', '--list'],
    ['tune', '--target-menu-rate', '0.1'],
    ['flapping'],
  ]) {
    it(`${argv[0]}: text, markdown and html`, async () => {
      const [command, ...rest] = argv as [string, ...string[]];
      const text = await cli([command, demo, ...rest]);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain(`routescope ${command}`);
      const md = await cli([command, demo, ...rest, '--format', 'markdown']);
      expect(md.stdout).toMatch(/^# routescope/m);
      expect(md.stdout).toMatch(/\|.*\|/);
      const html = await cli([command, demo, ...rest, '--format', 'html']);
      expect(html.stdout).toMatch(/^<!doctype html>/);
      expect(html.stdout).toContain('<svg class="chart"');
      expect(html.stdout).not.toMatch(/<script/i);
    });
  }
});

describe('replay --floor parsing', () => {
  it('--no-floor is no floor (not floor 0), a negative floor is a floor, a bare --floor is an error', async () => {
    expect((await cliJson(['replay', demo, '--no-floor'])).json.thresholds).toMatchObject({ floor: null });
    expect((await cliJson(['replay', demo, '--floor', '-0.25'])).json.thresholds).toMatchObject({
      floor: -0.25,
    });
    const bare = await cli(['replay', demo, '--floor']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/--floor must be a finite number/);
  });
});
