import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OtlpJsonLinesFileExporter } from '../../src/demo/otlpJsonLinesFileExporter.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'routescope-exporter-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function lines(path: string): unknown[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown);
}

interface Request {
  resourceSpans: { scopeSpans: { spans: { name: string; traceId: string; spanId: string }[] }[] }[];
}
const spansOf = (r: unknown) =>
  (r as Request).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans));

describe('OtlpJsonLinesFileExporter', () => {
  it('writes one OTLP/JSON export request per batch, one per line', async () => {
    const path = join(dir, 'traces.jsonl');
    const provider = new BasicTracerProvider({
      spanProcessors: [
        new BatchSpanProcessor(new OtlpJsonLinesFileExporter({ path }), {
          maxExportBatchSize: 4,
          scheduledDelayMillis: 60_000,
        }),
      ],
    });
    const tracer = provider.getTracer('test');
    for (let i = 0; i < 10; i++) tracer.startSpan(`span-${i}`).end();
    await provider.shutdown();
    const requests = lines(path);
    expect(requests.length).toBe(3);
    const names = requests.flatMap(spansOf).map((s) => s.name);
    expect(names.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `span-${i}`).sort());
    for (const s of requests.flatMap(spansOf)) {
      expect(s.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
    }
  });

  it('appends by default, as the Collector does; append: false truncates', async () => {
    const path = join(dir, 'traces.jsonl');
    writeFileSync(path, '{"resourceSpans":[]}\n');
    const run = async (append?: boolean) => {
      const exporter = new OtlpJsonLinesFileExporter(append === undefined ? { path } : { path, append });
      const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      provider.getTracer('t').startSpan('one').end();
      await provider.shutdown();
      return exporter.linesWritten;
    };
    expect(await run()).toBe(1);
    expect(lines(path).length).toBe(2);
    expect(await run(false)).toBe(1);
    expect(lines(path).length).toBe(1);
  });

  it('an export after shutdown fails through the callback instead of throwing', async () => {
    const exporter = new OtlpJsonLinesFileExporter({ path: join(dir, 'x.jsonl') });
    await exporter.shutdown();
    const result = await new Promise<{ code: number; error?: Error }>((resolve) =>
      exporter.export([], resolve),
    );
    expect(result.code).toBe(1);
    expect(result.error?.message).toMatch(/shut down/);
  });

  it('an empty batch writes no line', async () => {
    const path = join(dir, 'empty.jsonl');
    const exporter = new OtlpJsonLinesFileExporter({ path });
    const result = await new Promise<{ code: number }>((resolve) => exporter.export([], resolve));
    await exporter.shutdown();
    expect(result.code).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe('');
  });
});
