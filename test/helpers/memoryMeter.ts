/**
 * memoryMeter — the real @opentelemetry/sdk-metrics MeterProvider with an in-memory reader, for metric tests.
 *
 * Each meter's provider is shut down by `shutdownMemoryMeters()` (call it in afterEach).
 */
import { MeterProvider, MetricReader, type MetricData } from '@opentelemetry/sdk-metrics';
import { expect } from 'vitest';
import { INSTRUMENTATION_SCOPE_NAME } from '../../src/instrument/safeExecute.js';

/** The SDK's own reader base class, collecting on demand into memory. */
class MemoryMetricReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** A provider and a way to read what it holds. */
export interface MemoryMeter {
  readonly provider: MeterProvider;
  /** The routescope scope's metrics, by name, as collected right now (cumulative). */
  collect(): Promise<Map<string, MetricData>>;
}

const openProviders: MeterProvider[] = [];

/** Shut down every provider `createMemoryMeter` made since the last call. */
export async function shutdownMemoryMeters(): Promise<void> {
  for (const p of openProviders.splice(0)) await p.shutdown();
}

/** A new provider with an in-memory reader. */
export function createMemoryMeter(): MemoryMeter {
  const reader = new MemoryMetricReader();
  const provider = new MeterProvider({ readers: [reader] });
  openProviders.push(provider);
  return {
    provider,
    async collect() {
      const { resourceMetrics, errors } = await reader.collect();
      expect(errors).toEqual([]);
      const byName = new Map<string, MetricData>();
      for (const scope of resourceMetrics.scopeMetrics) {
        if (scope.scope.name !== INSTRUMENTATION_SCOPE_NAME) continue;
        for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
      }
      return byName;
    },
  };
}
