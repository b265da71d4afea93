// Links to open a trace: the Jaeger UI path and the Grafana Explore pane documented in docs/json-output.md.
import { describe, expect, it } from 'vitest';
import { buildTraceLinks } from '../../src/report/traceLinks.js';

const id = '4BF92F3577B34DA6A3CE929D0E0E4736';

describe('buildTraceLinks', () => {
  it('Jaeger: ${url}/trace/${traceId}, trailing slashes dropped, id lower-cased', () => {
    expect(buildTraceLinks(id, 0, 0, { jaegerUrl: 'http://localhost:16686//' }).jaeger).toBe(
      'http://localhost:16686/trace/4bf92f3577b34da6a3ce929d0e0e4736',
    );
  });

  it('Grafana: an Explore pane with a TraceQL query for the trace id over its time ± one hour', () => {
    const link = buildTraceLinks(id, 10_000_000, 10_005_000, {
      grafanaUrl: 'https://g.example/sub/',
    }).grafana!;
    const url = new URL(link);
    expect(url.pathname).toBe('/sub/explore');
    expect(url.searchParams.get('schemaVersion')).toBe('1');
    expect(JSON.parse(url.searchParams.get('panes')!)).toEqual({
      rs: {
        datasource: 'tempo',
        queries: [
          {
            refId: 'A',
            datasource: { type: 'tempo', uid: 'tempo' },
            queryType: 'traceql',
            query: '4bf92f3577b34da6a3ce929d0e0e4736',
          },
        ],
        range: { from: String(10_000_000 - 3_600_000), to: String(10_005_000 + 3_600_000) },
      },
    });
  });

  it('no URL, no link', () => {
    expect(buildTraceLinks(id, 0, 0, {})).toEqual({});
  });
});
