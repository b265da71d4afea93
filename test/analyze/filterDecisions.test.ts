// filterDecisions — the --where clauses: parsing, matching, the text, and the catalog of unknown values.
import { describe, expect, it } from 'vitest';
import {
  MAX_CATALOG_NAMES,
  WHERE_KEYS,
  createWhereCatalog,
  describeFilter,
  matchesFilter,
  parseWhereClauses,
} from '../../src/analyze/filterDecisions.js';
import type { DecisionRecord } from '../../src/record/types.js';
import { decision, s } from './decisionBuilder.js';

const at = (router?: string, scorer?: string, service?: string): DecisionRecord =>
  decision({
    scores: [s('a', 1)],
    override: { router, scorer, ...(service === undefined ? {} : { service }) },
  });

describe('parseWhereClauses', () => {
  it('the keys are router, scorer and service', () => {
    expect(WHERE_KEYS).toStrictEqual(['router', 'scorer', 'service']);
  });

  it('clauses on one key are gathered in order; the key is trimmed, the value kept as written', () => {
    expect(parseWhereClauses(['router=a', ' scorer =x', 'router=b', 'service= s =1'])).toStrictEqual({
      router: ['a', 'b'],
      scorer: ['x'],
      service: [' s =1'],
    });
  });

  it('no clauses, no filter', () => {
    expect(parseWhereClauses([])).toStrictEqual({});
  });

  it('an empty value is a value', () => {
    expect(parseWhereClauses(['router='])).toStrictEqual({ router: [''] });
  });

  it('a clause with no = or an unknown key is refused, naming it and the keys allowed', () => {
    const message = '--where "model=x": expected key=value with key one of router, scorer, service';
    expect(() => parseWhereClauses(['model=x'])).toThrow(message);
    expect(() => parseWhereClauses(['router'])).toThrow('--where "router": expected key=value');
    expect(() => parseWhereClauses(['=x'])).toThrow(RangeError);
  });
});

describe('matchesFilter', () => {
  it('an empty filter matches everything, a decision with no names included', () => {
    expect(matchesFilter(at(), {})).toBe(true);
  });

  it('values of one key are alternatives', () => {
    const f = { router: ['a', 'b'] };
    expect(matchesFilter(at('a'), f)).toBe(true);
    expect(matchesFilter(at('b'), f)).toBe(true);
    expect(matchesFilter(at('c'), f)).toBe(false);
  });

  it('every key named must hold', () => {
    const f = { router: ['a'], scorer: ['x'], service: ['s'] };
    expect(matchesFilter(at('a', 'x', 's'), f)).toBe(true);
    expect(matchesFilter(at('a', 'y', 's'), f)).toBe(false);
    expect(matchesFilter(at('b', 'x', 's'), f)).toBe(false);
    expect(matchesFilter(at('a', 'x', 't'), f)).toBe(false);
  });

  it('a decision without the name a key asks for does not match', () => {
    expect(matchesFilter(at(undefined, 'x'), { router: ['a'] })).toBe(false);
    expect(matchesFilter(at('a'), { service: ['s'] })).toBe(false);
  });
});

describe('describeFilter', () => {
  it('the clauses as key=value in key order, everything when empty', () => {
    expect(describeFilter({})).toBe('everything');
    expect(describeFilter({ service: ['s'], router: ['a', 'b'] })).toBe('router=a, router=b, service=s');
  });
});

describe('createWhereCatalog', () => {
  it('a value no decision has is reported with the names seen for its key, sorted', () => {
    const c = createWhereCatalog({ router: ['desk', 'nope'] });
    for (const d of [at('desk'), at('zeta'), at('alpha'), at(undefined)]) c.add(d);
    expect(c.unknownValues()).toStrictEqual([
      { key: 'router', value: 'nope', known: ['alpha', 'desk', 'zeta'] },
    ]);
  });

  it('only the keys the filter names are catalogued; all values found means nothing unknown', () => {
    const c = createWhereCatalog({ scorer: ['x'] });
    c.add(at('desk', 'x'));
    expect(c.unknownValues()).toStrictEqual([]);
    expect(createWhereCatalog({}).unknownValues()).toStrictEqual([]);
  });

  it('each key reports its own unknown values', () => {
    const c = createWhereCatalog({ router: ['r?'], service: ['s?'] });
    c.add(at('r', 'x', 's'));
    expect(c.unknownValues()).toStrictEqual([
      { key: 'router', value: 'r?', known: ['r'] },
      { key: 'service', value: 's?', known: ['s'] },
    ]);
  });

  it('past MAX_CATALOG_NAMES names only the asked-for values are remembered, and still count as found', () => {
    expect(MAX_CATALOG_NAMES).toBe(1000);
    const c = createWhereCatalog({ router: ['late', 'never'] });
    for (let i = 0; i < MAX_CATALOG_NAMES; i++) c.add(at(`r${String(i).padStart(4, '0')}`));
    c.add(at('late'));
    c.add(at('other'));
    const unknown = c.unknownValues();
    expect(unknown.map((u) => u.value)).toStrictEqual(['never']);
    expect(unknown[0]!.known).toHaveLength(MAX_CATALOG_NAMES);
    expect(unknown[0]!.known).not.toContain('late');
    expect(unknown[0]!.known).not.toContain('other');
  });

  it('a name seen twice is catalogued once', () => {
    const c = createWhereCatalog({ router: ['x'] });
    c.add(at('a'));
    c.add(at('a'));
    expect(c.unknownValues()[0]!.known).toStrictEqual(['a']);
  });
});
