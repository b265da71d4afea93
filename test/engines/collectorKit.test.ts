/**
 * The kit on the real Collector: the binary built from collector-config/otelcol-builder.yaml is the release
 * components.json names and holds exactly what that file lists; every config in collector-config/ passes the
 * Collector's own `validate`, and started, logs no warning (no deprecated component name, no OTTL path it had to
 * rewrite, no ignored option) and reports healthy.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { engine, runBuildScript } from '../helpers/engines/engineBuild.js';
import { kitConfig, startCollector, type RunningCollector } from '../helpers/engines/collector.js';

const KIT = fileURLToPath(new URL('../../collector-config/', import.meta.url));
const CONFIGS = ['single.yaml', 'tail-sampling.yaml', 'scale-out.yaml'] as const;
const components = JSON.parse(readFileSync(`${KIT}components.json`, 'utf8')) as { release: string };

let running: RunningCollector | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

/**
 * Log lines at warn level or above (the Collector's console encoder puts the level in the second column), but
 * gRPC's own connection attempts: nothing listens where the configs send traces in these runs, and that is not
 * what is checked here.
 */
function warnings(log: string): string[] {
  return log
    .split('\n')
    .filter((line) => /^\S+\t(warn|error|fatal|panic)\t/.test(line))
    .filter((line) => !line.includes('"grpc_log": true'));
}

describe('the Collector built from the kit manifest', () => {
  it('is the release components.json names, and components.json is what the build holds', () => {
    const { binary, version } = engine('otelcol');
    expect(version).toBe(components.release);
    const v = spawnSync(binary, ['--version'], { encoding: 'utf8' });
    expect(v.stdout).toContain(components.release);
    const check = runBuildScript(['otelcol', '--check-components']);
    expect(check.status, check.output).toBe(0);
  });

  it('the check fails on a components.json that is not what the build holds (a type under its old name)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'routescope-components-'));
    try {
      const stale = readFileSync(`${KIT}components.json`, 'utf8').replace('"span_metrics"', '"spanmetrics"');
      writeFileSync(path.join(dir, 'components.json'), stale);
      const check = runBuildScript([
        'otelcol',
        '--check-components',
        `--components-file=${dir}/components.json`,
      ]);
      expect(check.status).toBe(1);
      expect(check.output).toContain('is not what the build holds');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('every config in collector-config/ on the real Collector', () => {
  for (const file of CONFIGS) {
    it(`${file}: validate passes as shipped`, () => {
      const r = spawnSync(engine('otelcol').binary, ['validate', `--config=${KIT}${file}`], {
        encoding: 'utf8',
        env: { ...process.env, ROUTESCOPE_TRACE_DIR: KIT },
      });
      expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
      expect(warnings(r.stderr)).toEqual([]);
    });

    it(`${file}: starts healthy and logs no warning`, async () => {
      running = await startCollector({
        file,
        // Loopback names the back tier (scale-out) and the trace stores: resolvable, nothing needs to answer yet.
        env: {
          SAMPLING_TIER_HOSTNAME: 'localhost',
          TEMPO_OTLP_ENDPOINT: '127.0.0.1:9',
          JAEGER_OTLP_ENDPOINT: '127.0.0.1:9',
        },
      });
      expect(warnings(running.log())).toEqual([]);
      expect(running.log()).not.toContain('context prefix');
      expect(running.log()).toContain(`"service.version": "${components.release}"`);
    });
  }

  it('the warning check is not blind: the 0.136 names load with a deprecation warning each', async () => {
    running = await startCollector({
      file: 'single.yaml',
      env: { TEMPO_OTLP_ENDPOINT: '127.0.0.1:9', JAEGER_OTLP_ENDPOINT: '127.0.0.1:9' },
      edit: (config) => {
        const connectors = config.connectors!;
        connectors.spanmetrics = connectors.span_metrics;
        delete connectors.span_metrics;
        const pipelines = config.service!.pipelines as Record<
          string,
          { receivers: string[]; exporters: string[] }
        >;
        for (const p of Object.values(pipelines)) {
          p.receivers = p.receivers.map((r) => (r === 'span_metrics' ? 'spanmetrics' : r));
          p.exporters = p.exporters.map((e) => (e === 'span_metrics' ? 'spanmetrics' : e));
        }
      },
    });
    expect(warnings(running.log()).join('\n')).toContain('"spanmetrics" alias is deprecated');
    expect(kitConfig('single.yaml').connectors!.span_metrics).toBeDefined();
  });
});
