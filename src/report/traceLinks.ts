/**
 * traceLinks — URLs that open a trace in Jaeger or in Grafana Explore (Tempo data source).
 *
 * Jaeger: `${jaegerUrl}/trace/${traceId}`. Grafana: the Explore URL with one pane (Grafana 10 and later):
 * `${grafanaUrl}/explore?schemaVersion=1&orgId=1&panes=<url-encoded JSON>` where the JSON is
 * `{"rs":{"datasource":UID,"queries":[{"refId":"A","datasource":{"type":"tempo","uid":UID},"queryType":"traceql",
 * "query":TRACE_ID}],"range":{"from":MS,"to":MS}}}` — a TraceQL query that is a bare trace id opens that trace;
 * the range is the decisions' time ± one hour (epoch milliseconds) so Tempo searches the right blocks. UID is
 * the Tempo data source uid (`--grafana-datasource`, default `tempo`). A trace id routescope synthesized (an
 * event-log record's) gets no link. Pure.
 */

/** Where to link to. */
export interface TraceLinkConfig {
  readonly jaegerUrl?: string;
  readonly grafanaUrl?: string;
  /** @default 'tempo' */
  readonly grafanaDatasource?: string;
}

/** The links for one trace. */
export interface TraceLinks {
  readonly jaeger?: string;
  readonly grafana?: string;
}

const HOUR_MS = 3_600_000;

/**
 * Links for `traceId`, whose spans lie between `fromMs` and `toMs`; none for a `synthetic` one (made up for an
 * event-log record: no trace store holds it, so a link would only open an empty search).
 */
export function buildTraceLinks(
  traceId: string,
  fromMs: number,
  toMs: number,
  cfg: TraceLinkConfig,
  synthetic = false,
): TraceLinks {
  if (synthetic) return {};
  const id = encodeURIComponent(traceId.toLowerCase());
  const links: { jaeger?: string; grafana?: string } = {};
  if (cfg.jaegerUrl !== undefined) links.jaeger = `${trimSlash(cfg.jaegerUrl)}/trace/${id}`;
  if (cfg.grafanaUrl !== undefined) {
    const uid = cfg.grafanaDatasource ?? 'tempo';
    const range =
      Number.isFinite(fromMs) && Number.isFinite(toMs)
        ? { from: String(Math.floor(fromMs - HOUR_MS)), to: String(Math.ceil(toMs + HOUR_MS)) }
        : { from: 'now-24h', to: 'now' };
    const panes = {
      rs: {
        datasource: uid,
        queries: [
          {
            refId: 'A',
            datasource: { type: 'tempo', uid },
            queryType: 'traceql',
            query: traceId.toLowerCase(),
          },
        ],
        range,
      },
    };
    links.grafana = `${trimSlash(cfg.grafanaUrl)}/explore?schemaVersion=1&orgId=1&panes=${encodeURIComponent(JSON.stringify(panes))}`;
  }
  return links;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * Links for each of `traceIds`, in that order, the time its `records` span bounding Grafana's range; none for
 * a synthetic id, and none at all when no store URL is configured.
 */
export function buildTraceLinksFor(
  traceIds: readonly string[],
  records: readonly { readonly traceId: string; readonly timeUnixMs: number }[],
  synthetic: readonly string[],
  cfg: TraceLinkConfig,
): Record<string, TraceLinks> {
  const links: Record<string, TraceLinks> = {};
  if (cfg.jaegerUrl === undefined && cfg.grafanaUrl === undefined) return links;
  const spans = new Map<string, { from: number; to: number }>();
  for (const r of records) {
    const t = spans.get(r.traceId) ?? { from: Infinity, to: -Infinity };
    spans.set(r.traceId, { from: Math.min(t.from, r.timeUnixMs), to: Math.max(t.to, r.timeUnixMs) });
  }
  for (const traceId of traceIds) {
    // A synthesized id (an event-log record's) is in no trace store: no link is made for it.
    if (synthetic.includes(traceId)) continue;
    const t = spans.get(traceId) ?? { from: Infinity, to: -Infinity };
    links[traceId] = buildTraceLinks(traceId, t.from, t.to, cfg);
  }
  return links;
}
