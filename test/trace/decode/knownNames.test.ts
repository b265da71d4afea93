// The known names on the tape: every known name, as a key or as a string, carries its number; any other bytes
// (a known name with one byte changed, cut, lengthened, or any string at all) carry none, or the number of the
// known name they are. The tape module compares bytes, the hash only finds a slot: these hold it to that.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD, KNOWN_NAMES, KNOWN_SLOTS, nameHash } from '../../../src/trace/decode/knownNames.js';
import { loadJsonTape } from '../../../src/trace/decode/loadJsonTape.js';
import { propertyRuns } from '../../helpers/propertyRuns.js';

/** The number the tape gives `name` as a key (and the string it reads for it as a value). */
function numbersOf(name: string): { asKey: number } {
  const reader = loadJsonTape();
  if (reader.kind !== 'tape') throw new Error(`the tape module cannot run here: ${reader.reason}`);
  const body = Buffer.from(JSON.stringify({ [name]: name }));
  const c = reader.readTape(body, 0, body.length);
  if (c === undefined) throw new Error(`the tape declined ${JSON.stringify(name)}`);
  expect(c.openObject()).toBe(true);
  const asKey = c.readKeyNumber();
  expect(c.readName()).toBe(name);
  return { asKey };
}

const expected = (s: string): number => KNOWN_NAMES.indexOf(s) + 1;

describe('knownNames', () => {
  it('every known name carries its number, as a key and as a string', () => {
    expect(KNOWN_NAMES.length).toBeGreaterThan(50);
    expect(KNOWN_NAMES.length).toBeLessThan(KNOWN_SLOTS / 4);
    for (const name of KNOWN_NAMES) expect(numbersOf(name).asKey, name).toBe(expected(name));
    expect(numbersOf('stringValue').asKey).toBe(FIELD.stringValue);
    expect(numbersOf('agentfootprint.routing.verdict').asKey).toBeGreaterThan(FIELD.timeUnixNano);
  });

  it('a known name read as a string is the one string kept for it', () => {
    const reader = loadJsonTape();
    if (reader.kind !== 'tape') throw new Error('the tape module cannot run here');
    const body = Buffer.from('["agentfootprint.routing.verdict","agentfootprint.routing.verdictx"]');
    const c = reader.readTape(body, 0, body.length)!;
    expect(c.openArray()).toBe(true);
    expect(c.readName()).toBe(KNOWN_NAMES[expected('agentfootprint.routing.verdict') - 1]);
    expect(c.nextItem()).toBe(true);
    expect(c.readName()).toBe('agentfootprint.routing.verdictx');
  });

  it('law: any other bytes carry no number (near misses of every name: a byte changed, cut, added)', () => {
    const nearMiss = fc
      .record({
        name: fc.constantFrom(...KNOWN_NAMES),
        at: fc.nat(),
        byte: fc.integer({ min: 0x20, max: 0x7e }),
        how: fc.constantFrom('change', 'cut', 'add', 'drop'),
      })
      .map(({ name, at, byte, how }) => {
        const i = at % (name.length + 1);
        const c = String.fromCharCode(byte);
        if (how === 'change') return name.slice(0, i) + c + name.slice(i + 1);
        if (how === 'cut') return name.slice(0, i);
        if (how === 'add') return name.slice(0, i) + c + name.slice(i);
        return name.slice(0, i) + name.slice(i + 1);
      });
    const printable = fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((b) => String.fromCharCode(b)),
    });
    fc.assert(
      fc.property(fc.oneof(nearMiss, printable), (s) => {
        if (s.includes('"') || s.includes('\\')) return; // escaped in JSON: the tape declines those strings
        expect(numbersOf(s).asKey).toBe(expected(s));
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('names whose hashes share a slot are told apart by their bytes', () => {
    // Two names built to collide on the table's slot: the same length, first and last 8 bytes as a known
    // name's, a middle byte changed. The hash cannot tell them apart; the comparison must.
    const name = KNOWN_NAMES.find((n) => n.length > 20)!;
    const twin = `${name.slice(0, 10)}${name[10] === 'x' ? 'y' : 'x'}${name.slice(11)}`;
    const a = Buffer.from(name);
    const b = Buffer.from(twin);
    expect(nameHash(a, 0, a.length)).toBe(nameHash(b, 0, b.length));
    expect(numbersOf(twin).asKey).toBe(0);
    expect(numbersOf(name).asKey).toBe(expected(name));
  });
});
