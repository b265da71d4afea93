import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONVERSATIONS } from '../../src/demo/demoConversations.js';
import { runDemoAgent, resolveTurn } from '../../src/demo/runDemoAgent.js';
import type { DemoRunSummary } from '../../src/demo/runDemoAgent.js';
import { decideTier2, DEFAULT_ROUTING_POLICY } from '../../src/policy/routingPolicy.js';
import { createReadStats } from '../../src/trace/readStats.js';
import { readTraceInputs } from '../../src/trace/readTraceInputs.js';
import type { DecisionRecord, TraceRecord } from '../../src/record/types.js';
import type { ReadStats } from '../../src/trace/types.js';

let dir: string;
let first: DemoRunSummary;
let second: DemoRunSummary;
let records: TraceRecord[];
let stats: ReadStats;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'routescope-demo-'));
  first = await runDemoAgent({ path: join(dir, 'a.jsonl') });
  second = await runDemoAgent({ path: join(dir, 'b.jsonl') });
  stats = createReadStats();
  records = [];
  for await (const r of readTraceInputs([first.file], stats)) records.push(r);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const decisions = () => records.filter((r): r is DecisionRecord => r.kind === 'decision');
const turnCount = DEMO_CONVERSATIONS.reduce((n, c) => n + c.turns.length, 0);

describe('the demo trace file', () => {
  it("is written the way a real agent's is: every routing span a child of its turn's framework span, by run id", () => {
    interface Span {
      spanId: string;
      parentSpanId?: string;
      name: string;
      attributes: { key: string; value: { stringValue?: string } }[];
    }
    const spans: Span[] = readFileSync(first.file, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .flatMap((l) => {
        const req = JSON.parse(l) as { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] };
        return req.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((ss) => ss.spans));
      });
    const attr = (s: Span, key: string): string | undefined =>
      s.attributes.find((a) => a.key === key)?.value.stringValue;
    const runs = new Map(
      spans.filter((s) => attr(s, 'agentfootprint.run.id') !== undefined).map((s) => [s.spanId, s]),
    );
    expect(runs.size).toBe(turnCount);
    const routing = spans.filter((s) => s.name.startsWith('agentfootprint.routing.'));
    expect(routing).toHaveLength(2 * turnCount);
    for (const s of routing) {
      expect(runs.has(s.parentSpanId ?? ''), `${s.name} ${s.spanId}`).toBe(true);
      expect(attr(s, 'agentfootprint.routing.source')).toBe('turn_routed');
    }
    const tier2 = routing.filter((s) => s.name === 'agentfootprint.routing.tier2');
    for (const s of tier2)
      expect(attr(s, 'agentfootprint.routing.policy.semantics')).toBe('agentfootprint-9.62');
  });

  it('reads with zero problems, one decision per routed turn', () => {
    expect(stats.problems).toEqual([]);
    expect(first.decisions).toBe(turnCount);
    expect(decisions().length).toBe(turnCount);
    expect(records.filter((r) => r.kind === 'turn').length).toBe(turnCount);
    expect(stats.nonRoutingSpans).toBeGreaterThan(0);
  });

  it('carries one misroute mark, on the routing span, per turn the reviewer labels disagree with', () => {
    expect(first.misroutes).toBeGreaterThan(0);
    const marked = decisions().filter((d) => d.misroutes.length > 0);
    expect(marked.length).toBe(first.misroutes);
    for (const d of marked) {
      expect(d.misroutes).toHaveLength(1);
      expect(d.misroutes[0]!.source).toBe('human-review');
      expect(d.misroutes[0]!.expected).toBeDefined();
    }
    expect(first.explainConversationId).toBeDefined();
    const suggested = decisions().filter((d) => d.conversationId === first.explainConversationId);
    expect(suggested.some((d) => d.nearTie && d.misroutes.length > 0)).toBe(true);
  });

  it('every decision knows its router, scorer, conversation and agent; one trace per conversation', () => {
    const traces = new Map<string, Set<string>>();
    for (const d of decisions()) {
      expect(d.router).toBeDefined();
      expect(d.scorer).toBeDefined();
      expect(d.agentName).toBe('support-desk-agent');
      expect(d.service).toBe('acme-support');
      expect(d.parentSpanId).toBeDefined();
      const ids = traces.get(d.conversationId!) ?? new Set<string>();
      ids.add(d.traceId);
      traces.set(d.conversationId!, ids);
    }
    expect(traces.size).toBe(DEMO_CONVERSATIONS.length);
    for (const ids of traces.values()) expect(ids.size).toBe(1);
  });

  it('the embedding router judged with no floor; the others declared one', () => {
    const floorless = new Set(
      decisions()
        .filter((d) => !d.floorDeclared)
        .map((d) => `${d.router}/${d.scorer}`),
    );
    expect([...floorless]).toEqual(['support-desk/embedding']);
  });

  it('near-ties come out of the text at a realistic rate, between different overlapping skills', () => {
    const ties = decisions().filter((d) => d.nearTie);
    const rate = ties.length / decisions().length;
    expect(rate).toBeGreaterThanOrEqual(0.05);
    expect(rate).toBeLessThanOrEqual(0.3);
    const pairs = new Set(ties.map((d) => [d.ranked[0]!.id, d.runnerUp!.id].sort().join('|')));
    expect(pairs.size).toBeGreaterThan(3);
    expect(ties.some((d) => d.scorer === 'keyword')).toBe(true);
    expect(ties.some((d) => d.scorer === 'embedding')).toBe(true);
    expect(ties.some((d) => d.scorer === 'llm-classifier')).toBe(false);
  });

  it('records no user text', () => {
    const file = readFileSync(first.file, 'utf8');
    for (const c of DEMO_CONVERSATIONS) {
      for (const t of c.turns) {
        // A whole message as a string value anywhere, or any longer message even as a substring.
        expect(file.includes(JSON.stringify(t.text)), t.text).toBe(false);
        if (t.text.length > 12) expect(file.includes(t.text), t.text).toBe(false);
      }
    }
  });

  it('two runs write the same file apart from timestamps', () => {
    const normalize = (path: string) =>
      readFileSync(path, 'utf8').replace(/"(start|end)?[tT]imeUnixNano":("\d+"|\d+)/g, '"$1TimeUnixNano":0');
    expect(second.decisions).toBe(first.decisions);
    expect(second.lines).toBe(first.lines);
    expect(normalize(second.file)).toBe(normalize(first.file));
  });
});

describe('resolveTurn (the simulated loop)', () => {
  const policy = { ...DEFAULT_ROUTING_POLICY, nearTieMargin: 0.15 };
  it('move and stay are taken as they are', () => {
    const move = decideTier2(
      [
        { id: 'a', score: 3 },
        { id: 'b', score: 0 },
      ],
      'b',
      policy,
    );
    expect(resolveTurn(move, 'b', 'b', ['a', 'b'])).toEqual({
      route: { by: 'intent', from: 'b', to: 'a' },
      skill: 'a',
    });
    const stay = decideTier2(
      [
        { id: 'a', score: 0.5 },
        { id: 'b', score: 0.49 },
      ],
      'b',
      policy,
    );
    expect(resolveTurn(stay, 'b', 'a', ['a', 'b']).skill).toBe('b');
  });
  it('a menu goes to the picker: the labelled skill when offered, else the first entry', () => {
    const menu = decideTier2(
      [
        { id: 'a', score: 0.5 },
        { id: 'b', score: 0.49 },
        { id: 'c', score: 0 },
      ],
      undefined,
      policy,
    );
    expect(resolveTurn(menu, undefined, 'b', ['a', 'b', 'c'])).toStrictEqual({
      route: { by: 'decider', to: 'b', offered: ['a', 'b'] },
      skill: 'b',
      picked: 'b',
    });
    expect(resolveTurn(menu, undefined, 'c', ['a', 'b', 'c']).skill).toBe('a');
  });
  it('mid-conversation the menu offers STAY; the decider picking the incumbent is continuity, picked stay', () => {
    const menu = decideTier2(
      [
        { id: 'a', score: 0.5 },
        { id: 'b', score: 0.49 },
        { id: 'inc', score: 0 },
      ],
      undefined,
      policy,
    );
    expect(resolveTurn(menu, 'inc', 'inc', ['a', 'b', 'inc'])).toStrictEqual({
      route: { by: 'continuity', from: 'inc', to: 'inc', offered: ['a', 'b'], stayOffered: true },
      skill: 'inc',
      picked: 'stay',
    });
    expect(resolveTurn(menu, 'inc', 'b', ['a', 'b', 'inc']).route).toStrictEqual({
      by: 'decider',
      from: 'inc',
      to: 'b',
      offered: ['a', 'b'],
      stayOffered: true,
    });
  });
  it('unmatched offers every visible skill', () => {
    const none = decideTier2([{ id: 'a', score: 0 }], undefined, policy, { floor: 0 });
    expect(resolveTurn(none, undefined, 'c', ['a', 'b', 'c']).skill).toBe('c');
  });
});
