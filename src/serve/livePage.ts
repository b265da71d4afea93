/**
 * livePage — the browser side of `serve` (`--ui-port`): the report of what arrived, kept live.
 *
 * Routes (GET or HEAD): `/` the analyze report of the window, `/explain/<id>` explain of one trace or
 * conversation id (404 when the window holds none), each also as JSON (`/report.json`, `/explain/<id>.json`,
 * the CLI's JSON documents with serve's block); the lists and the search (browse/browseRoutes); `/events` Server-Sent Events telling pages the revision moved (at most once a second, a
 * comment every 15 s to keep proxies from closing it); `/live.js` the page script; `/healthz`. (Prometheus
 * reads `/metrics` on the receiver's port.) A page is rendered at most once per revision and kept, so a hundred open tabs cost
 * one render. With a token, every route wants it: a bearer header (Prometheus' `authorization`), or once in
 * the URL (`/?token=…`), which sets a same-site cookie and redirects to the clean URL. A request it cannot read
 * (a target that is not a URL path, a cookie that is not URL encoding) is answered, never thrown into Node.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderHtml } from '../report/html/renderHtml.js';
import { LIVE_SCRIPT } from './liveScript.js';
import type { TraceLinkConfig } from '../report/traceLinks.js';
import { serveNav } from './browse/browsePages.js';
import { answerBrowse, browsePath } from './browse/browseRoutes.js';
import { createExplainCache } from './explainCache.js';
import type { RequestGuard } from './requestGuard.js';
import { buildWindowView, serveToDocument, serveToJson, type WindowView } from './serveReport.js';
import type { ServeRuntime } from './serveRuntime.js';
import { createSlicer } from './sliceWork.js';
import { hasBearerToken, isServeToken } from './serveToken.js';

// The content types the page answers with.
const TEXT = 'text/plain; charset=utf-8';
const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** Events sent to pages at most this often. */
export const EVENT_INTERVAL_MS = 1000;

/** A render of the window is kept at least this many times as long as it took. */
export const RENDER_COST_FACTOR = 4;

/** A comment line on every event stream this often. */
export const HEARTBEAT_MS = 15_000;

/** Event streams open at once; a further one takes the place of the oldest (which reconnects if it is a page). */
export const MAX_EVENT_STREAMS = 64;

/** Bytes an event stream may have unread before it is let go. */
export const MAX_EVENT_BUFFER = 64 * 1024;

/** Answers being sent at once (event streams aside); a further request is 503 with Retry-After. */
export const MAX_OPEN_ANSWERS = 32;

/** What was made of the window at one revision, and when. */
interface Kept<T> {
  readonly revision: number;
  readonly view: T;
  readonly at: number;
}

/** The window's analyze view and index, and the view's two renderings, each made once. */
interface KeptWindow extends Kept<WindowView> {
  html: string | undefined;
  json: string | undefined;
}

/** How the page server runs. */
export interface LivePageOptions {
  readonly runtime: ServeRuntime;
  readonly token?: string;
  /** Who may ask at all (requestGuard): checked before anything else. */
  readonly guard?: RequestGuard;
  /** The JSON documents' schema version (the CLI's). */
  readonly schemaVersion: number;
  /** Where explain pages link a trace (Jaeger, Grafana), as the CLI's `--jaeger-url` / `--grafana-url`. */
  readonly traceLinks?: TraceLinkConfig;
}

/** The handler, and `close` for its streams and timers. */
export interface LivePage {
  handle(req: IncomingMessage, res: ServerResponse): void;
  close(): void;
  readonly streams: number;
}

const COOKIE = 'routescope_token';

/** Create the page server's handler. */
export function createLivePage(options: LivePageOptions): LivePage {
  const { runtime } = options;
  const streams = new Set<ServerResponse>();
  let openAnswers = 0;
  let lastSent = 0;
  let pendingTimer: NodeJS.Timeout | undefined;
  // A render merges the window's slices (milliseconds); it is still kept for at least RENDER_COST_FACTOR times
  // what the last one took, and never less than EVENT_INTERVAL_MS, so pages take at most about a fifth of the
  // process however fast spans arrive and however many pages are open.
  let lastRenderMs = 0;
  const minAge = (): number => Math.max(EVENT_INTERVAL_MS, RENDER_COST_FACTOR * lastRenderMs);

  const broadcast = (): void => {
    pendingTimer = undefined;
    lastSent = Date.now();
    for (const res of streams) writeEvent(res, `event: revision\ndata: ${runtime.revision}\n\n`);
  };
  /** One event to one page; a page that has not read what it was sent before is let go (it reconnects). */
  const writeEvent = (res: ServerResponse, text: string): void => {
    if (res.writableLength > MAX_EVENT_BUFFER) {
      streams.delete(res);
      res.destroy();
      return;
    }
    res.write(text);
  };
  const scheduleBroadcast = (): void => {
    if (streams.size === 0 || pendingTimer !== undefined) return;
    pendingTimer = setTimeout(broadcast, Math.max(0, lastSent + minAge() - Date.now()));
    pendingTimer.unref();
  };
  const stopListening = runtime.onChange(scheduleBroadcast);
  const heartbeat = setInterval(() => {
    for (const res of streams) writeEvent(res, ': heartbeat\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();
  /** Served stale: make sure the pages are told again once a fresh render is allowed. */
  const tellAgainLater = (at: number): void => {
    if (pendingTimer !== undefined || streams.size === 0) return;
    pendingTimer = setTimeout(broadcast, Math.max(at, lastSent) + minAge() - Date.now());
    pendingTimer.unref();
  };

  /**
   * The analyze view of the window, merged from its slices in one go, kept while it is young (see minAge) and
   * shared by every request that asks meanwhile: `/` and `/report.json` are two renderings of one view.
   */
  let kept: KeptWindow | undefined;
  const fresh = (): KeptWindow | undefined => {
    if (kept !== undefined && (kept.revision === runtime.revision || Date.now() - kept.at < minAge())) {
      if (kept.revision !== runtime.revision) tellAgainLater(kept.at);
      return kept;
    }
    return undefined;
  };
  const windowView = async (): Promise<KeptWindow> => {
    const young = fresh();
    if (young !== undefined) return young;
    // After a while unwatched the slices hold no analyses: replay them first, a step at a time.
    await runtime.state.slices.catchUp(runtime.state.window, createSlicer());
    const shared = fresh();
    if (shared !== undefined) return shared;
    const revision = runtime.revision;
    const started = performance.now();
    const view = buildWindowView(runtime.state);
    lastRenderMs = performance.now() - started;
    kept = { revision, view, at: Date.now(), html: undefined, json: undefined };
    return kept;
  };
  const pageHtml = async (): Promise<string> => {
    const k = await windowView();
    k.html ??= renderHtml(serveToDocument(runtime.state, k.view.view), {
      live: { script: '/live.js', revision: k.revision },
      nav: serveNav(),
    });
    return k.html;
  };
  const reportJson = async (): Promise<string> => {
    const k = await windowView();
    k.json ??= `${JSON.stringify(serveToJson(runtime.state, options.schemaVersion, k.view.view), null, 2)}\n`;
    return k.json;
  };

  const explains = createExplainCache({
    runtime,
    schemaVersion: options.schemaVersion,
    minAge,
    ...(options.traceLinks === undefined ? {} : { traceLinks: options.traceLinks }),
  });

  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    type: string,
    body: string,
    extra: Record<string, string> = {},
  ): void => {
    const bytes = Buffer.from(body);
    res.writeHead(status, {
      'content-type': type,
      'content-length': String(bytes.length),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...extra,
    });
    res.end(req.method === 'HEAD' ? undefined : bytes);
  };

  const authorized = (req: IncomingMessage, url: URL): 'yes' | 'no' | 'set-cookie' => {
    if (options.token === undefined) return 'yes';
    const token = options.token;
    if (hasBearerToken(req, token)) return 'yes';
    const cookie = String(req.headers.cookie ?? '')
      .split(';')
      .map((c) => c.trim())
      .find((c) => c.startsWith(`${COOKIE}=`));
    const fromCookie = cookie === undefined ? undefined : decodedCookie(cookie.slice(COOKIE.length + 1));
    if (fromCookie !== undefined && isServeToken(fromCookie, token)) return 'yes';
    const query = url.searchParams.get('token');
    if (query !== null && isServeToken(query, token)) return 'set-cookie';
    return 'no';
  };

  /** Answer one request whose target parsed as `url`. */
  const route = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      req.resume();
      return send(req, res, 405, TEXT, 'this server answers GET\n', {
        allow: 'GET, HEAD',
      });
    }
    const auth = authorized(req, url);
    if (auth === 'no')
      return send(
        req,
        res,
        401,
        TEXT,
        'a token is required: open /?token=<--token> once, or send Authorization: Bearer <--token>\n',
        { 'www-authenticate': 'Bearer' },
      );
    if (auth === 'set-cookie') {
      url.searchParams.delete('token');
      res.writeHead(303, {
        location: samePagePath(url),
        'set-cookie': `${COOKIE}=${encodeURIComponent(options.token!)}; HttpOnly; SameSite=Strict; Path=/`,
      });
      res.end();
      return;
    }
    const path = url.pathname;
    if (path === '/' || path === '/index.html') return send(req, res, 200, HTML, await pageHtml());
    if (path === '/report.json') return send(req, res, 200, JSON_TYPE, await reportJson());
    if (path.startsWith('/explain/')) {
      const rest = path.slice('/explain/'.length);
      const asJson = rest.endsWith('.json');
      let id: string;
      try {
        id = decodeURIComponent(asJson ? rest.slice(0, -5) : rest);
      } catch {
        return send(req, res, 400, TEXT, 'the id is not valid URL encoding\n');
      }
      if (id === '') return send(req, res, 404, TEXT, 'name an id: /explain/<trace id or conversation id>\n');
      const answer = await explains.page(id, Number(url.searchParams.get('page') ?? 1) || 1, path, asJson);
      if (answer === 'busy')
        return send(req, res, 503, TEXT, 'other explain pages are being made: try again in a moment\n', {
          'retry-after': '1',
        });
      return send(req, res, answer.found ? 200 : 404, asJson ? JSON_TYPE : HTML, answer.body);
    }
    const browse = browsePath(path);
    if (browse !== undefined) {
      const k = await windowView();
      const answer = answerBrowse(browse.base, browse.json, url.searchParams, {
        index: k.view.index,
        evicted: runtime.state.window.evicted.decisions,
        revision: k.revision,
        schemaVersion: options.schemaVersion,
      });
      if (answer.kind === 'redirect') {
        res.writeHead(303, { location: answer.location, 'cache-control': 'no-store' });
        res.end();
        return;
      }
      return send(req, res, answer.status, answer.json ? JSON_TYPE : HTML, answer.body);
    }
    if (path === '/live.js') return send(req, res, 200, 'text/javascript; charset=utf-8', LIVE_SCRIPT);
    if (path === '/healthz') return send(req, res, 200, TEXT, 'ok\n');
    if (path === '/events') {
      // The newest stream takes the oldest one's place: streams that never read cannot lock a real page out.
      for (const oldest of streams) {
        if (streams.size < MAX_EVENT_STREAMS) break;
        streams.delete(oldest);
        oldest.end();
      }
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(`retry: 2000\n\nevent: revision\ndata: ${runtime.revision}\n\n`);
      streams.add(res);
      req.socket.setTimeout(0);
      res.on('close', () => streams.delete(res));
      return;
    }
    return send(
      req,
      res,
      404,
      TEXT,
      'not found: try / , /report.json, /decisions, /conversations, /misroutes, /search?q=<id>, /explain/<id> (each also .json; Prometheus: /metrics on the OTLP port)\n',
    );
  };

  return {
    handle(req, res) {
      // Nothing a request holds may throw out of here: Node would end the whole process, receiver and all.
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://serve.invalid');
      } catch {
        req.resume();
        return send(req, res, 400, TEXT, 'the request target is not a URL path\n');
      }
      const refusal = options.guard?.check(req, req.method !== 'GET' && req.method !== 'HEAD');
      if (refusal !== undefined) {
        req.resume();
        return send(req, res, refusal.status, TEXT, `${refusal.reason}\n`, { connection: 'close' });
      }
      // Answers being sent are bounded: one that is never read holds its bytes until the socket times out.
      if (url.pathname !== '/events') {
        if (openAnswers >= MAX_OPEN_ANSWERS) {
          req.resume();
          return send(req, res, 503, TEXT, 'the page server is answering as many requests as it takes\n', {
            'retry-after': '1',
          });
        }
        openAnswers++;
        res.once('close', () => openAnswers--);
      }
      route(req, res, url).catch((error: unknown) => {
        if (res.headersSent) res.destroy();
        else
          send(
            req,
            res,
            500,
            TEXT,
            `the page could not be made: ${error instanceof Error ? error.message : String(error)}\n`,
          );
      });
    },
    close() {
      stopListening();
      clearInterval(heartbeat);
      if (pendingTimer !== undefined) clearTimeout(pendingTimer);
      for (const res of streams) res.end();
      streams.clear();
    },
    get streams() {
      return streams.size;
    },
  };
}

/**
 * Where the redirect after `?token=` goes: this page's path and query, never another site. A path such as
 * `/.//evil.example/` is `//evil.example/` once parsed, which a browser reads as another host: the leading
 * slashes (and backslashes, which browsers read as slashes) become one.
 */
export function samePagePath(url: URL): string {
  const path = `/${url.pathname.replace(/^[/\\]+/, '')}`;
  return path + (url.search === '?' ? '' : url.search);
}

/** A cookie's value decoded as it was set (URL-encoded); undefined when it is not valid URL encoding. */
function decodedCookie(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
