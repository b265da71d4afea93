/**
 * receiverBlocks — what serve's pages say about serve itself: the Receiver section (requests, spans, the
 * window and what it evicted, where --out and --forward stand) and the empty state, which says exactly how to
 * send serve something before anything arrived. Pure. No I/O.
 */
import { look, tone, type Block, type Inline, type ReportDocument, type Span } from '../report/document.js';
import { countOf, formatCount } from '../report/formatValues.js';
import type { ServeState } from './receiverCounts.js';

/** Bytes as MiB, one decimal. */
function formatMib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Where `--out` goes, what it took, and, while its writes fail, that they do. */
function outText(state: ServeState): Inline {
  const status = state.outStatus;
  const parts: (string | Span)[] = [look(state.out!, 'code')];
  if (status === undefined) return parts;
  parts.push(` · ${countOf(status.written.requests, 'request')}, ${formatCount(status.written.bytes)} bytes`);
  if (status.failing !== undefined)
    parts.push(
      tone(
        ` · writes are failing (${status.failing}): requests are answered 503 until a write succeeds again`,
        'bad',
      ),
    );
  return parts;
}

/** The live line under the title, then the Receiver section: what arrived, the window, --out, --forward. */
export function receiverBlocks(state: ServeState): Block[] {
  const { counts, window } = state;
  const forwarded = state.forwarded ?? { ok: 0, failed: 0, dropped: 0 };
  const ev = window.evicted;
  const evicted = ev.decisions + ev.turns + ev.misroutes;
  return [
    {
      kind: 'paragraph',
      only: 'html',
      text: [
        'Live: OTLP/HTTP received at ',
        look(state.endpoint, 'code'),
        `; ${countOf(counts.decisionsReceived, 'decision')} received, the newest ${formatCount(window.config.maxDecisions)} kept.`,
      ],
    },
    { kind: 'heading', text: 'Receiver' },
    {
      kind: 'fields',
      rows: [
        ['endpoint', look(`${state.endpoint}/v1/traces`, 'code')],
        [
          'requests',
          `${formatCount(counts.requests.accepted)} accepted · ${formatCount(counts.requests.invalid)} invalid · ${formatCount(counts.requests.refused)} refused (busy, too large, unauthorized, another site, --out not writing, stopping) · ${formatCount(counts.requests.ignored)} metrics/logs ignored`,
        ],
        ['decisions received', formatCount(counts.decisionsReceived)],
        [
          'spans',
          counts.rejectedItems === 0
            ? `${formatCount(counts.items)} received`
            : [
                `${formatCount(counts.items)} received · `,
                tone(`${formatCount(counts.rejectedItems)} could not be read`, 'bad'),
              ],
        ],
        [
          'window',
          `${countOf(window.decisions, 'decision')} of at most ${formatCount(window.config.maxDecisions)} (--max-decisions), ${countOf(window.size, 'record')} in all, ${formatMib(window.liveBytes)} of ${formatMib(window.config.maxBytes)} (--max-window-mb)`,
        ],
        ...(window.stringsCut === 0
          ? []
          : [
              [
                'strings cut',
                tone(
                  `${formatCount(window.stringsCut)} ids, names or values longer than ${formatCount(window.config.maxString)} characters were stored cut (--max-string), each marked '… [cut from N characters, #hash]'`,
                  'warn',
                ),
              ] as const,
            ]),
        [
          'evicted',
          evicted === 0
            ? tone('none', 'good')
            : tone(
                `${countOf(ev.decisions, 'decision')}, ${formatCount(ev.turns)} turn routes, ${formatCount(ev.misroutes)} misroute marks (oldest first; the figures below are over the window)`,
                'warn',
              ),
        ],
        ...(state.out === undefined ? [] : [['written to', outText(state)] as const]),
        ...(state.forward === undefined
          ? []
          : [
              [
                'forwarded to',
                [
                  look(state.forward, 'code'),
                  ` · ${formatCount(forwarded.ok)} delivered`,
                  forwarded.failed + forwarded.dropped === 0
                    ? ''
                    : tone(
                        ` · ${formatCount(forwarded.failed)} failed · ${formatCount(forwarded.dropped)} dropped`,
                        'bad',
                      ),
                ],
              ] as const,
            ]),
      ],
    },
  ];
}

/** The page before anything arrived: how to send it something. */
export function emptyStateDocument(state: ServeState): ReportDocument {
  const refused = state.counts.requests.invalid + state.counts.requests.refused;
  return [
    { kind: 'title', text: 'routescope serve — waiting for routing spans' },
    { kind: 'paragraph', text: 'Nothing has arrived yet. Point your agent’s OTLP/HTTP exporter here:' },
    { kind: 'paragraph', text: look(`OTEL_EXPORTER_OTLP_ENDPOINT=${state.endpoint}`, 'code') },
    {
      kind: 'list',
      items: [
        [
          'turn the routescope strategy on in your agent (one line; the README has the whole setup): ',
          look('agent.enable.observability({ strategy: routescopeObservability() })', 'code'),
          ', or wrap a hand-written router with ',
          look('instrumentDecideTier2', 'code'),
          ';',
        ],
        [
          'export with ',
          look('new OTLPTraceExporter()', 'code'),
          ' from @opentelemetry/exporter-trace-otlp-http (or -proto), which reads that variable and posts to ',
          look(`${state.endpoint}/v1/traces`, 'code'),
          ';',
        ],
        [
          'or post an agentfootprint event log (JSON lines): ',
          look(
            `curl --data-binary @events.jsonl -H 'content-type: application/x-ndjson' ${state.endpoint}/agentfootprint/events`,
            'code',
          ),
          ';',
        ],
        ['or try it: ', look('routescope demo --serve', 'code'), ' runs the demo agent against a serve.'],
      ],
    },
    ...(refused > 0
      ? [
          {
            kind: 'paragraph' as const,
            text: tone(
              `${countOf(refused, 'request')} arrived but could not be taken (invalid, too large or unauthorized): see the serve process's stderr.`,
              'bad',
            ),
          },
        ]
      : []),
    {
      kind: 'paragraph',
      text: [
        'This page updates by itself as spans arrive. Prometheus scrapes ',
        look(`${state.endpoint}/metrics`, 'code'),
        '.',
      ],
    },
  ];
}
