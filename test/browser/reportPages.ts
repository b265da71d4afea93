/**
 * reportPages — trace files and the HTML pages built from them, for the HTML command tests and the browser
 * test.
 *
 * Two inputs, both written by the real SDK through the instrumentation and the Collector-format exporter:
 * the demo agent's traces (realistic volume and misroute marks) and a small hostile trace whose router,
 * scorer, conversation and skill ids carry markup, quotes and control characters. Every page is produced by
 * the CLI itself (`runCli ... --format html`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { runDemoAgent } from '../../src/demo/runDemoAgent.js';
import { instrumentDecideTier2 } from '../../src/instrument/instrumentDecideTier2.js';
import { decideTier2, resolveRoutingPolicy } from '../../src/policy/routingPolicy.js';
import { OtlpJsonLinesFileExporter } from '../../src/demo/otlpJsonLinesFileExporter.js';
import { cli } from '../cli/runCliHarness.js';

/** Ids that would break a page that did not escape them. */
export const HOSTILE = {
  router: '<script>window.__pwned=1</script>',
  scorer: '</style><h1 id="injected">x</h1>',
  conversation: `"><img src=x onerror="window.__pwned=2">'`,
  skillA: '<svg onload=window.__pwned=3>',
  skillB: `billing"'&amp;\u0007`,
} as const;

/** The pages a workspace renders, by name. */
export type PageName =
  'analyze' | 'hotspots' | 'floorless' | 'explain' | 'replay' | 'tune' | 'flapping' | 'explain-hostile';

export interface PageWorkspace {
  readonly dir: string;
  readonly demoFile: string;
  readonly hostileFile: string;
  readonly explainId: string;
  /** Render one page through the CLI and write it to `<dir>/<name>.html`; returns the path and the HTML. */
  render(name: PageName): Promise<{ path: string; html: string }>;
  cleanup(): void;
}

/** Write the hostile trace: one conversation of a few decisions that tie, move and bounce. */
export async function writeHostileTrace(path: string): Promise<void> {
  const exporter = new OtlpJsonLinesFileExporter({ path, append: false });
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const decide = instrumentDecideTier2(decideTier2, {
    tracerProvider: provider,
    routerName: HOSTILE.router,
    scorerName: HOSTILE.scorer,
    context: { conversationId: HOSTILE.conversation, agentName: HOSTILE.router },
  });
  const policy = resolveRoutingPolicy({});
  const a = HOSTILE.skillA;
  const b = HOSTILE.skillB;
  decide(
    [
      { id: a, score: 0.9 },
      { id: b, score: 0.1 },
    ],
    undefined,
    policy,
  );
  decide(
    [
      { id: b, score: 0.9 },
      { id: a, score: 0.2 },
    ],
    a,
    policy,
  );
  decide(
    [
      { id: a, score: 0.8 },
      { id: b, score: 0.2 },
    ],
    b,
    policy,
  );
  decide(
    [
      { id: b, score: 0.51 },
      { id: a, score: 0.5 },
    ],
    a,
    policy,
  );
  decide(
    [
      { id: b, score: 0.52 },
      { id: a, score: 0.5 },
    ],
    a,
    policy,
  );
  decide(
    [
      { id: b, score: 0.5 },
      { id: a, score: 0.49 },
    ],
    a,
    policy,
  );
  decide(
    [
      { id: a, score: 0.5 },
      { id: b, score: 0.45 },
      { id: 'x', score: NaN },
    ],
    undefined,
    policy,
  );
  await provider.shutdown();
}

/** Make the traces and a renderer of pages in a fresh temp dir. */
export async function createPageWorkspace(): Promise<PageWorkspace> {
  const dir = mkdtempSync(join(tmpdir(), 'routescope-html-'));
  const demoFile = join(dir, 'demo.jsonl');
  const hostileFile = join(dir, 'hostile.jsonl');
  const demo = await runDemoAgent({ path: demoFile });
  await writeHostileTrace(hostileFile);
  const explainId = demo.explainConversationId ?? 'none';
  const argv: Record<PageName, string[]> = {
    analyze: ['analyze', demoFile, hostileFile],
    hotspots: ['hotspots', demoFile, hostileFile],
    floorless: ['floorless', demoFile, hostileFile],
    explain: ['explain', explainId, demoFile],
    'explain-hostile': ['explain', HOSTILE.conversation, hostileFile],
    replay: ['replay', demoFile, hostileFile, '--margin', '0.25', '--list', '20'],
    tune: ['tune', demoFile, hostileFile, '--target-menu-rate', '0.1'],
    flapping: ['flapping', demoFile, hostileFile, '--min-run', '2'],
  };
  return {
    dir,
    demoFile,
    hostileFile,
    explainId,
    async render(name) {
      const r = await cli([...argv[name], '--format', 'html']);
      if (r.code !== 0) throw new Error(`routescope ${argv[name].join(' ')} exited ${r.code}: ${r.stderr}`);
      const path = join(dir, `${name}.html`);
      writeFileSync(path, r.stdout);
      return { path, html: r.stdout };
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
