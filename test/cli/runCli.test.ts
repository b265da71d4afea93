// runCli in-process: every command on files written from real SDK spans, exit codes, gates, formats, colour,
// stdin, links, and the messages a user sees when something is wrong.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, writeTraceFile, type WrittenTraceFile } from '../helpers/traceFiles.js';
import { cli, cliJson } from './runCliHarness.js';

const s = (id: string, score: number) => ({ id, score });
let tmp: { dir: string; cleanup: () => void };
let file: WrittenTraceFile;
let clean: WrittenTraceFile;

beforeAll(async () => {
  tmp = makeTempDir();
  file = await writeTraceFile(
    join(tmp.dir, 'traces.jsonl'),
    [
      { scores: [s('billing', 1), s('refunds', 0.97)], trace: 'a', conversationId: 'conv-a' },
      {
        scores: [s('billing', 1), s('refunds', 0.2)],
        incumbent: 'refunds',
        trace: 'a',
        conversationId: 'conv-a',
        misroute: { expected: 'refunds', reason: 'user asked again' },
      },
      { scores: [s('billing', 0.1), s('refunds', 0.05)], scorer: { floor: 0.3 }, scorerName: 'keyword' },
      { scores: [s('shipping', 3), s('billing', 0.5)] },
    ],
    { extraLines: ['{"truncated'] },
  );
  clean = await writeTraceFile(join(tmp.dir, 'clean.jsonl'), [
    { scores: [s('billing', 3), s('refunds', 0.2)], scorer: { floor: 0 }, scorerName: 'keyword' },
    { scores: [s('billing', 0.1)], scorer: { floor: 0.3 }, scorerName: 'keyword' },
  ]);
});
afterAll(() => tmp.cleanup());

describe('runCli: commands', () => {
  it('analyze prints the overview and exits 0', async () => {
    const r = await cli(['analyze', file.path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('routescope analyze — 4 routing decisions');
    expect(r.stdout).toMatch(/near-ties\s+1 · rate 25\.0%/);
    expect(r.stdout).toContain('billing ↔ refunds');
    expect(r.stderr).toBe('');
  });

  it('hotspots honours --top, --min-count and --by', async () => {
    const none = await cliJson(['hotspots', file.path, '--min-count', '2']);
    expect(none.json.hotspots).toEqual([]);
    const byService = await cliJson(['hotspots', file.path, '--by', 'service']);
    expect(byService.json.hotspots).toEqual([
      expect.objectContaining({ service: 'support-desk', nearTies: 1 }),
    ]);
    const top0 = await cliJson(['hotspots', file.path, '--top', '0']);
    expect(top0.json.hotspots).toEqual([]);
  });

  it('floorless reports the scorer without a floor and the suggested floor', async () => {
    const r = await cliJson(['floorless', file.path, '--weakest', '50']);
    expect(r.json.floorless).toEqual([
      expect.objectContaining({
        scorer: 'embedding',
        decisions: 3,
        suggestedFloor: expect.objectContaining({ floor: 1 }),
      }),
    ]);
  });

  it('explain by trace id shows every decision in order, the counterfactual, the misroute mark', async () => {
    const traceId = file.traceIds.get('a')!;
    const r = await cli(['explain', traceId, file.path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('2 routing decisions');
    expect(r.stdout.indexOf('menu [billing, refunds]')).toBeLessThan(r.stdout.indexOf('move → billing'));
    expect(r.stdout).toContain('lowering the margin to the gap');
    expect(r.stdout).toContain('misroute mark: expected refunds, reason user asked again');
  });

  it('explain by conversation id, with Jaeger and Grafana links', async () => {
    const traceId = file.traceIds.get('a')!;
    const r = await cliJson([
      'explain',
      'conv-a',
      file.path,
      '--jaeger-url',
      'http://jaeger:16686/',
      '--grafana-url',
      'https://grafana.example/',
      '--grafana-datasource',
      'tempo-prod',
    ]);
    const links = (r.json.links as Record<string, { jaeger: string; grafana: string }>)[traceId]!;
    expect(links.jaeger).toBe(`http://jaeger:16686/trace/${traceId}`);
    const url = new URL(links.grafana);
    expect(url.origin + url.pathname).toBe('https://grafana.example/explore');
    const panes = JSON.parse(url.searchParams.get('panes')!) as {
      rs: {
        datasource: string;
        queries: { query: string; queryType: string; datasource: { type: string } }[];
      };
    };
    expect(panes.rs.datasource).toBe('tempo-prod');
    expect(panes.rs.queries[0]).toMatchObject({
      query: traceId,
      queryType: 'traceql',
      datasource: { type: 'tempo' },
    });
  });

  it('explain of an id that matches nothing says so and exits 2', async () => {
    const r = await cli(['explain', 'no-such-conversation', file.path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no routing record has trace id or conversation id 'no-such-conversation'");
  });

  it('reads stdin for the input -', async () => {
    const piped = await cli(['analyze', '-', '--format', 'json'], {
      stdinText: readFileSync(clean.path, 'utf8'),
    });
    expect(piped.code).toBe(0);
    expect((JSON.parse(piped.stdout) as { decisions: number }).decisions).toBe(2);
  });

  it('an input without routing spans is a valid empty report that says what to do', async () => {
    const plain = await writeTraceFile(join(tmp.dir, 'plain.jsonl'), [], { plainSpans: 3 });
    const r = await cli(['analyze', plain.path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No tier-2 routing spans in the input');
    // The strategy (what an agentfootprint app runs) is named before the wrapper.
    const hint = r.stdout.slice(r.stdout.indexOf('No tier-2 routing spans'));
    expect(hint.indexOf('routescopeObservability()')).toBeGreaterThan(-1);
    expect(hint.indexOf('routescopeObservability()')).toBeLessThan(hint.indexOf('instrumentDecideTier2'));
    const json = await cliJson(['analyze', plain.path]);
    expect(json.json).toMatchObject({
      decisions: 0,
      nearTieRate: 0,
      input: { spans: 3, nonRoutingSpans: 3, problems: 0 },
    });
    expect((await cli(['analyze', plain.path, '--fail-on', 'decisions<1'])).code).toBe(1);
  });

  it('reads a folder (every file inside)', async () => {
    const folder = makeTempDir();
    try {
      await writeTraceFile(join(folder.dir, 'a.jsonl'), [{ scores: [s('a', 1)] }]);
      await writeTraceFile(join(folder.dir, 'b.jsonl'), [{ scores: [s('a', 1)] }, { scores: [s('b', 1)] }]);
      const r = await cliJson(['analyze', folder.dir]);
      expect(r.json.decisions).toBe(3);
      expect(r.json.input).toMatchObject({ files: 2 });
    } finally {
      folder.cleanup();
    }
  });

  it('--help and --version exit 0 with text on stdout', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('routescope analyze <inputs..>');
    const commandHelp = await cli(['explain', '--help']);
    expect(commandHelp.stdout).toContain('--jaeger-url');
    const version = await cli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(
      (
        JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
          version: string;
        }
      ).version,
    );
  });
});

describe('runCli: gates', () => {
  it('a failed gate exits 1 with one line per failed gate on stderr; the report is still printed', async () => {
    const r = await cli([
      'analyze',
      file.path,
      '--fail-on',
      'near-tie-rate>0.2',
      '--fail-on',
      'floorless',
      '--fail-on',
      'menu-rate>0.9',
    ]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      'routescope: gate failed: near-tie-rate>0.2: near-tie-rate is 0.25 over 4 decisions',
    );
    expect(lines[1]).toMatch(/^routescope: gate failed: floorless: 3 of 4 decisions/);
    expect(r.stdout).toContain('Gates');
  });

  it('passing gates exit 0', async () => {
    const r = await cli([
      'analyze',
      clean.path,
      '--fail-on',
      'near-tie-rate>0.2',
      '--fail-on',
      'floorless',
      '--fail-on',
      'inconsistent',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('--fail-on inconsistent fails on a verdict the policy does not reproduce', async () => {
    const bad = await writeTraceFile(join(tmp.dir, 'skewed.jsonl'), [
      {
        scores: [s('a', 2), s('b', 0)],
        scorer: { floor: 0 },
        override: { 'agentfootprint.routing.verdict': 'menu', 'agentfootprint.routing.offered': ['a', 'b'] },
      },
    ]);
    const r = await cli(['analyze', bad.path, '--fail-on', 'inconsistent']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('inconsistent: 1 recorded verdicts');
  });

  it('gates work on hotspots and floorless too', async () => {
    expect((await cli(['hotspots', file.path, '--fail-on', 'decisions<10'])).code).toBe(1);
    expect((await cli(['floorless', clean.path, '--fail-on', 'floorless'])).code).toBe(0);
  });
});

describe('runCli: usage and input errors exit 2 with a message', () => {
  it('unknown command, with a suggestion', async () => {
    const r = await cli(['analyse', file.path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'analyse'. Did you mean analyze?");
    expect(r.stderr).toContain("Run 'npx routescope --help' for usage.");
  });

  it('an option without its value', async () => {
    const r = await cli(['analyze', file.path, '--top']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('top');
  });

  it('no command', async () => {
    const r = await cli([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Name a command');
  });

  it('missing inputs', async () => {
    expect((await cli(['analyze'])).code).toBe(2);
  });

  it('a file that does not exist names the file', async () => {
    const missing = join(tmp.dir, 'nope.jsonl');
    const r = await cli(['analyze', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(missing);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a file in no known format', async () => {
    const text = join(tmp.dir, 'notes.txt');
    writeFileSync(text, 'hello, these are not traces\n');
    const r = await cli(['analyze', text]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('notes.txt');
    writeFileSync(text, '');
  });

  it('a bad --fail-on says what to type', async () => {
    const r = await cli(['analyze', file.path, '--fail-on', 'tie-rate>0.2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown metric 'tie-rate'");
    expect(r.stderr).toContain('near-tie-rate');
    expect(r.stdout).toBe('');
  });

  it('an unknown option, a bad --format, a non-number --top, a --weakest out of range', async () => {
    for (const argv of [
      ['analyze', file.path, '--bogus'],
      ['analyze', file.path, '--format', 'yaml'],
      ['hotspots', file.path, '--top', 'many'],
      ['floorless', file.path, '--weakest', '150'],
      ['hotspots', file.path, '--by', 'colour'],
      ['explain', 'x', file.path, '--jaeger-url', 'not a url'],
    ]) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr, argv.join(' ')).toMatch(/^routescope: /);
    }
  });

  it('stack traces only with --verbose', async () => {
    const missing = join(tmp.dir, 'gone.jsonl');
    const quiet = await cli(['analyze', missing]);
    const verbose = await cli(['analyze', missing, '--verbose']);
    expect(quiet.stderr).not.toContain('    at ');
    expect(verbose.stderr).toContain('    at ');
  });
});

describe('runCli: formats and terminals', () => {
  it('bad lines are reported in every format with file:line', async () => {
    const line = `${file.path}:${file.lines}`;
    expect((await cli(['analyze', file.path])).stdout).toContain(line);
    expect((await cli(['analyze', file.path, '--format', 'markdown'])).stdout).toContain('1 skipped');
    const json = await cliJson(['analyze', file.path]);
    expect(json.json.input).toMatchObject({ problems: 1, skipped: [{ file: file.path, line: file.lines }] });
  });

  it('the format never changes the analysis: text, Markdown and JSON report the same numbers', async () => {
    const json = await cliJson(['hotspots', file.path]);
    const text = await cli(['hotspots', file.path]);
    const md = await cli(['hotspots', file.path, '--format', 'markdown']);
    const h = (json.json.hotspots as { nearTies: number; meetings: number }[])[0]!;
    expect(text.stdout).toMatch(new RegExp(` ${h.meetings} +50\\.0% `));
    expect(md.stdout).toContain(`| ${h.nearTies} |`);
  });

  it('colour only on a TTY, and never with NO_COLOR', async () => {
    const tty = await cli(['analyze', file.path], { isTTY: true });
    expect(tty.stdout).toContain('\u001b[');
    const noColor = await cli(['analyze', file.path], { isTTY: true, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toContain('\u001b');
    const pipe = await cli(['analyze', file.path], { isTTY: false });
    expect(pipe.stdout).not.toContain('\u001b');
    const json = await cli(['analyze', file.path, '--format', 'json'], { isTTY: true });
    expect(json.stdout).not.toContain('\u001b');
  });

  it('no progress line for a small input, even on a terminal', async () => {
    const r = await cli(['analyze', file.path], { isTTY: true, stderrIsTTY: true });
    expect(r.stderr).toBe('');
  });
});
