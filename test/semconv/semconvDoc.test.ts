import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as semconv from '../../src/semconv/semconv.js';

const DOC = readFileSync(new URL('../../docs/semconv.md', import.meta.url), 'utf8');

/** Every name semconv.ts exports as an attribute key, span name or event name. */
const MODULE_NAMES: ReadonlySet<string> = new Set(
  Object.entries(semconv)
    .filter(([name, value]) => /^(ATTR|SPAN|EVENT)_/.test(name) && typeof value === 'string')
    .map(([, value]) => value as string),
);

/** The first cell of every table row whose first cell is a backticked name, with the row's cell count. */
function documentedRows(): { name: string; cells: string[] }[] {
  const rows: { name: string; cells: string[] }[] = [];
  for (const line of DOC.split('\n')) {
    const match = /^\|\s*`([^`]+)`\s*\|/.exec(line);
    if (match === null) continue;
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    rows.push({ name: match[1]!, cells });
  }
  return rows;
}

describe('docs/semconv.md and src/semconv/semconv.ts agree', () => {
  const rows = documentedRows();
  const documented = new Set(rows.map((r) => r.name));

  it('the module exports names to check, and the doc has rows', () => {
    expect(MODULE_NAMES.size).toBeGreaterThan(40);
    expect(rows.length).toBeGreaterThan(40);
  });

  it('every name in the module is documented', () => {
    expect([...MODULE_NAMES].filter((name) => !documented.has(name))).toEqual([]);
  });

  it('every documented name is in the module', () => {
    expect([...documented].filter((name) => !MODULE_NAMES.has(name))).toEqual([]);
  });

  it('each name is documented once, with a type, a meaning and an example', () => {
    const seen = new Set<string>();
    for (const { name, cells } of rows) {
      expect(seen.has(name), `${name} documented twice`).toBe(false);
      seen.add(name);
      expect(cells, `row of ${name}`).toHaveLength(4);
      for (const cell of cells) expect(cell.length, `empty cell in the row of ${name}`).toBeGreaterThan(0);
    }
  });

  it('the key lists the pipelines are checked against hold exactly the documented keys', () => {
    const listed = new Set<string>([
      ...semconv.ROUTING_ATTRIBUTE_KEYS,
      ...semconv.CORRELATION_ATTRIBUTE_KEYS,
      ...semconv.ROUTING_SPAN_AND_EVENT_NAMES,
    ]);
    expect(listed).toEqual(documented);
  });

  it('the documented record version is the module’s', () => {
    expect(DOC).toContain(`currently \`${semconv.ROUTING_RECORD_VERSION}\``);
  });
});
