import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupKey, keyPart } from '../../src/analyze/groupKey.js';
import { propertyRuns } from '../helpers/propertyRuns.js';

describe('groupKey', () => {
  it('a part is its length, a colon and itself; an absent part (undefined or null) is ~', () => {
    expect(keyPart('router-a')).toBe('8:router-a');
    expect(keyPart(undefined)).toBe('~');
    expect(keyPart(null)).toBe('~');
    expect(groupKey('a', undefined, 'bc')).toBe('1:a~2:bc');
  });

  it('an absent part and an empty one are different groups', () => {
    expect(groupKey(undefined, 'x')).not.toBe(groupKey('', 'x'));
  });

  it('separators inside names cannot make two groups one', () => {
    expect(groupKey('a:1', 'b')).not.toBe(groupKey('a', '1b'));
    expect(groupKey('~', undefined)).not.toBe(groupKey(undefined, '~'));
    expect(groupKey('a\u0000b', 'c')).not.toBe(groupKey('a', 'b\u0000c'));
  });

  it('law: two lists of parts have the same key exactly when they are the same list', () => {
    const part = fc.option(fc.string({ unit: fc.constantFrom('a', ':', '~', '1', '2', '\u0000') }), {
      nil: undefined,
    });
    const parts = fc.array(part, { maxLength: 4 });
    fc.assert(
      fc.property(parts, parts, (a, b) => {
        expect(groupKey(...a) === groupKey(...b)).toBe(JSON.stringify(a) === JSON.stringify(b));
      }),
      { numRuns: propertyRuns(500) },
    );
  });
});
