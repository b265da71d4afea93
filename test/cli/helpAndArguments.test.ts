// What a new user meets first: every --help laid out to be read and copied, one message for any unknown
// command, the id forgotten before a folder, rates given as percentages, and a --where that names nothing.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/main.js';
import { tidyHelp } from '../../src/cli/helpText.js';
import { makeTempDir, writeTraceFile, type WrittenTraceFile } from '../helpers/traceFiles.js';
import { cli, cliJson } from './runCliHarness.js';

const s = (id: string, score: number) => ({ id, score });
const NAMES = COMMANDS.map((c) => c.command.split(' ')[0]!);
let tmp: { dir: string; cleanup: () => void };
let file: WrittenTraceFile;

beforeAll(async () => {
  tmp = makeTempDir();
  file = await writeTraceFile(join(tmp.dir, 'traces.jsonl'), [
    { scores: [s('billing', 1), s('refunds', 0.97)], trace: 'a', conversationId: 'conv-a' },
    { scores: [s('billing', 1), s('refunds', 0.2)], incumbent: 'refunds', trace: 'a' },
    { scores: [s('billing', 0.1), s('refunds', 0.05)], scorer: { floor: 0.3 }, scorerName: 'keyword' },
    { scores: [s('shipping', 3), s('billing', 0.5)], trace: 'b' },
  ]);
});
afterAll(() => tmp.cleanup());

async function help(command?: string): Promise<string> {
  const r = await cli(command === undefined ? ['--help'] : [command, '--help']);
  expect(r.code).toBe(0);
  return r.stdout;
}

describe('--help', () => {
  for (const name of [undefined, ...NAMES]) {
    it(`${name ?? '(top level)'}: no tag runs into its description, no template, inputs needed`, async () => {
      const text = await help(name);
      expect(text).not.toMatch(/\S\[(string|number|boolean|array|required|default:|choices:)/);
      // `${NAME}` is --header's own syntax (an environment variable in a value); any other `${` is a template
      // left unfilled.
      expect(text.replaceAll('${NAME}', '')).not.toContain('${');
      expect(text).not.toContain('[default: []]');
      expect(text).not.toContain('[inputs..]');
    });
  }

  for (const name of NAMES) {
    it(`${name}: each example is a comment line over a whole command that runs as written`, async () => {
      const text = await help(name);
      const section = text.split('\nExamples:\n')[1];
      expect(section, 'an Examples section').toBeDefined();
      const lines = section!.split('\n').filter((l) => l.trim() !== '');
      expect(lines.length).toBeGreaterThanOrEqual(2);
      lines.forEach((line, i) => {
        if (i % 2 === 0) expect(line).toMatch(/^ {2}# \S/);
        else expect(line).toMatch(new RegExp(`^ {2}npx routescope ${name}( |$)`));
      });
    });
  }

  it('tidyHelp moves tags that ran into a description to a right-aligned line of their own', () => {
    const line =
      '      --weakest       percent of weakest decisions the suggested floor catches[number] [default: 10]';
    expect(tidyHelp(line, 100).split('\n')).toEqual([
      '      --weakest       percent of weakest decisions the suggested floor catches',
      `${' '.repeat(100 - '[number] [default: 10]'.length)}[number] [default: 10]`,
    ]);
    const spaced = '      --top           hot spots listed          [number] [default: 10]';
    expect(tidyHelp(spaced, 100)).toBe(spaced);
  });
});

describe('unknown commands', () => {
  it('a near miss and a stranger get the same message, naming the commands', async () => {
    const near = await cli(['analyse', file.path]);
    const far = await cli(['frobnicate', file.path]);
    const list = `The commands are ${NAMES.join(', ')}.`;
    expect(near.code).toBe(2);
    expect(far.code).toBe(2);
    expect(near.stderr).toContain(`routescope: unknown command 'analyse'. Did you mean analyze? ${list}`);
    expect(far.stderr).toContain(`routescope: unknown command 'frobnicate'. ${list}`);
    expect(far.stderr).not.toContain('Unknown argument');
    expect(far.stderr).toContain("Run 'npx routescope --help' for usage.");
  });
});

describe('explain', () => {
  it('with the id forgotten, says the folder was taken as the id', async () => {
    const r = await cli(['explain', tmp.dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`'${tmp.dir}' was taken as the id to explain, and no input is named`);
    expect(r.stderr).toContain(`npx routescope explain <trace-or-conversation-id> ${tmp.dir}`);
  });

  it('a file given as the id, with inputs, is pointed out when nothing matches', async () => {
    const r = await cli(['explain', file.path, file.path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('that is a file or folder here: give the id first');
  });

  it('takes a unique prefix of a trace id, as reports that cut ids show them', async () => {
    const whole = await cliJson(['explain', 'conv-a', file.path]);
    const traceId = (whole.json.traceIds as string[])[0]!;
    const byPrefix = await cliJson(['explain', traceId.slice(0, 9), file.path]);
    expect(byPrefix.code).toBe(0);
    expect(byPrefix.json.traceIds).toEqual([traceId]);
    expect(byPrefix.json.matchedBy).toEqual(['trace']);
    expect(byPrefix.json.decisions).toBe(2);
  });
});

describe('rates and margins', () => {
  it('tune takes --target-menu-rate 10% as 0.1', async () => {
    const percent = await cliJson(['tune', file.path, '--target-menu-rate', '10%']);
    const share = await cliJson(['tune', file.path, '--target-menu-rate', '0.1']);
    expect(percent.code).toBe(0);
    expect(percent.json.targets).toEqual({ menuRate: 0.1 });
    expect(percent.json.recommendation).toEqual(share.json.recommendation);
  });

  it('replay takes --margin 25% as 0.25', async () => {
    const r = await cliJson(['replay', file.path, '--margin', '25%']);
    expect(r.code).toBe(0);
    expect((r.json.thresholds as { nearTieMargin: number }).nearTieMargin).toBe(0.25);
  });

  it('a step of 0 is refused in words a person reads', async () => {
    const r = await cli(['tune', file.path, '--step', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--step must be greater than 0 and at most 1');
    expect(r.stderr).not.toContain('e-324');
  });

  it('a rate that is not one says what it got', async () => {
    const r = await cli(['tune', file.path, '--target-near-tie-rate', 'lots']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--target-near-tie-rate must be from 0 to 1, as a number or a percentage');
    expect(r.stderr).toContain('got lots');
  });
});

describe('--where', () => {
  it('a name the input does not have exits 2 and lists the names it has', async () => {
    for (const command of ['replay', 'tune']) {
      const r = await cli([command, file.path, '--where', 'router=nope', '--where', 'scorer=keyword']);
      expect(r.code, command).toBe(2);
      expect(r.stdout, command).not.toBe('');
      expect(r.stderr).toContain('--where router=nope matched no decision; the routers in the input are');
      expect(r.stderr).not.toContain('scorer=keyword');
    }
  });

  it('names that exist select quietly', async () => {
    const r = await cli(['replay', file.path, '--where', 'scorer=keyword']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});
