// The progress line: stderr only, only on a terminal, only past LARGE_INPUT_BYTES, cleared at the end.
import { describe, expect, it } from 'vitest';
import { LARGE_INPUT_BYTES, createProgressLine } from '../../src/cli/progressLine.js';
import type { CliIo } from '../../src/cli/io.js';

function io(stderrIsTTY: boolean): { io: CliIo; err: () => string; out: () => string } {
  let err = '';
  let out = '';
  return {
    io: {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: (s: string) => (err += s) },
      isTTY: stderrIsTTY,
      stderrIsTTY,
      env: {},
    },
    err: () => err,
    out: () => out,
  };
}

const MiB = 1024 * 1024;

describe('progressLine', () => {
  it('stays silent below the large-input size', () => {
    const t = io(true);
    const p = createProgressLine(t.io);
    p.update({ file: 'a.jsonl', bytesRead: LARGE_INPUT_BYTES - 1, totalBytes: LARGE_INPUT_BYTES });
    p.done();
    expect(t.err()).toBe('');
  });

  it('shows one overwriting line past it on a terminal, and clears it when done', () => {
    const t = io(true);
    const p = createProgressLine(t.io);
    for (let mb = 1; mb <= 40; mb++)
      p.update({ file: 'big.jsonl', bytesRead: mb * MiB, totalBytes: 40 * MiB });
    expect(t.err()).toContain('\r\u001b[Kreading big.jsonl: 16.0 MiB of 40.0 MiB (40%)');
    expect(t.err()).not.toContain('\n');
    p.done();
    expect(t.err().endsWith('\r\u001b[K')).toBe(true);
    expect(t.out()).toBe('');
  });

  it('counts bytes across files', () => {
    const t = io(true);
    const p = createProgressLine(t.io);
    p.update({ file: 'one', bytesRead: 10 * MiB });
    p.update({ file: 'two', bytesRead: 10 * MiB });
    expect(t.err()).toContain('20.0 MiB in all');
  });

  it('never writes when stderr is not a terminal', () => {
    const t = io(false);
    const p = createProgressLine(t.io);
    p.update({ file: 'big', bytesRead: 100 * MiB });
    p.done();
    expect(t.err()).toBe('');
  });

  it('escapes the file name', () => {
    const t = io(true);
    const p = createProgressLine(t.io);
    p.update({ file: 'x\u001b[2Jy', bytesRead: 20 * MiB });
    expect(t.err()).toContain('x\\x1b[2Jy');
  });
});
