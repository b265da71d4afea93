// Argument mistakes get hints: the nearest flag for an unknown one, the id and the path swapped, an id given as
// an input, serve refusing --format (it prints no report), and --help listing a command's own flags first.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editDistance, nearestFlag, unknownFlags } from '../../src/cli/argumentHints.js';
import { cli } from './runCliHarness.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
let dir: string;
let file: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'routescope-hints-'));
  file = join(dir, 'traces.jsonl');
  writeFileSync(file, '');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the nearest flag', () => {
  it('counts a swap of two neighbours as one edit', () => {
    expect(editDistance('fomrat', 'format')).toBe(1);
    expect(editDistance('fial-on', 'fail-on')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('names a flag one or two edits away, or the only one a long enough start begins', () => {
    const known = ['format', 'fail-on', 'jobs', 'jobs-min-mib', 'weakest', 'top'];
    expect(nearestFlag('--fial-on', known)).toBe('fail-on');
    expect(nearestFlag('jbos', known)).toBe('jobs');
    expect(nearestFlag('weak', known)).toBe('weakest');
    // Too far from everything, or too short to guess: no guess.
    expect(nearestFlag('zzz', known)).toBeUndefined();
    expect(nearestFlag('x', known)).toBeUndefined();
  });

  it('reads the flags out of yargs’ message, leaving out the camel-cased twins', () => {
    expect(unknownFlags('Unknown arguments: fial-on, fialOn', ['analyze', '--fial-on', 'x'])).toEqual({
      flags: ['fial-on'],
      words: [],
    });
    expect(unknownFlags('Unknown argument: extra', ['serve', 'extra'])).toEqual({
      flags: [],
      words: ['extra'],
    });
    expect(unknownFlags('Not enough arguments', [])).toBeUndefined();
  });
});

describe('the CLI says what was meant', () => {
  it('an unknown flag suggests the nearest one of that command', async () => {
    const r = await cli(['analyze', file, '--fial-on', 'floorless']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown option --fial-on: did you mean --fail-on?');
    const serve = await cli(['serve', '--max-decision', '5']);
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain('unknown option --max-decision: did you mean --max-decisions?');
  });

  it('explain with the path where the id goes says: did you swap them?', async () => {
    const r = await cli(['explain', file, TRACE]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`is a file or folder here and '${TRACE}' is not: did you swap them?`);
    expect(r.stderr).toContain(`npx routescope explain ${TRACE} ${file}`);
  });

  it('a trace id given as an input is named as one, with the command that takes it', async () => {
    const r = await cli(['analyze', TRACE]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`'${TRACE}' is no file or folder here; it reads like a trace or span id`);
    expect(r.stderr).toContain(`npx routescope explain ${TRACE} <inputs..>`);
  });

  it('serve takes no --format, and its help does not offer it', async () => {
    const r = await cli(['serve', '--format', 'json', '--port', '0', '--ui-port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('serve prints no report, so it takes no --format');
    const help = await cli(['serve', '--help']);
    expect(help.stdout).not.toContain('--format');
  });

  it('--help lists the command’s own flags first, what every command takes last', async () => {
    const help = (await cli(['analyze', '--help'])).stdout;
    const at = (s: string): number => help.indexOf(s);
    expect(at('Positionals:')).toBeLessThan(at('Options:'));
    expect(at('--fail-on')).toBeLessThan(at('--format'));
    expect(at('--format')).toBeLessThan(at('Trace stores:'));
    expect(at('Trace stores:')).toBeLessThan(at('      --tempo '));
    expect(at('Options:')).toBeLessThan(at('Reading:'));
    expect(at('Reading:')).toBeLessThan(at('--jobs '));
  });
});
