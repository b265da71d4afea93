/**
 * requestGuard — which requests serve talks to at all: the name a request was sent to, and the site it came from.
 *
 * serve listens on this machine, and every web page the user opens can send requests to this machine. Two
 * checks keep those pages out, on both ports, before anything else is read. The `Host` header must name serve:
 * `localhost`, an IP address (a page on a rebound name sends its own name, never an address), a name serve
 * listens on (`--host`, `--ui-host`) or one the user allows (`--allow-host`); anything else is 403, which stops
 * DNS rebinding, where a page's own name is pointed at 127.0.0.1 to read serve's answers. A request that
 * says where it comes from (browsers send `Origin` and `Sec-Fetch-Site`) must come from serve's own pages:
 * a write from another site (`Origin` of another host or port, `null`, or `Sec-Fetch-Site: cross-site`) is
 * 403, so no page can post a forged decision. Reads from another site are refused too, but for a top-level
 * navigation (a link the user follows), so a page cannot make serve render for it. Exporters, Prometheus and
 * curl send neither header and pass. Pure. No I/O.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** What the guard knows of serve. */
export interface RequestGuardConfig {
  /** Host names serve answers to besides localhost and IP addresses (`--host`, `--ui-host`, `--allow-host`). */
  readonly hosts: readonly string[];
  /** The ports serve's own pages and receiver are on (a page's `Origin` names one of them). */
  readonly ports: () => readonly number[];
}

/** Why a request was turned away; undefined when it may go on. */
export interface GuardRefusal {
  readonly status: 403;
  readonly reason: string;
}

/** A guard for serve's requests (both ports). */
export interface RequestGuard {
  /** Undefined when `req` may go on; else the refusal to answer with. `writes`: the route changes state. */
  check(req: IncomingMessage, writes: boolean): GuardRefusal | undefined;
}

/** Create the guard. */
export function createRequestGuard(config: RequestGuardConfig): RequestGuard {
  const named = new Set(config.hosts.map(normalizeHostName).filter((h) => h !== ''));
  const allowedName = (name: string): boolean => name === 'localhost' || isIP(name) !== 0 || named.has(name);
  const ownOrigin = (origin: string): boolean => {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    const name = normalizeHostName(url.hostname);
    const local = name === 'localhost' || isLoopbackAddress(name) || named.has(name);
    const port = Number(url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : url.port);
    return local && config.ports().includes(port);
  };
  return {
    check(req, writes) {
      const host = req.headers.host;
      if (host !== undefined) {
        const name = hostNameOf(host);
        if (name === undefined || !allowedName(name))
          return {
            status: 403,
            reason: `Host '${host.slice(0, 80)}' is not a name of this routescope serve (DNS rebinding is refused): use 127.0.0.1 or localhost, or start serve with --allow-host ${name ?? '<name>'}`,
          };
      }
      const origin = req.headers.origin;
      const site = String(req.headers['sec-fetch-site'] ?? '').toLowerCase();
      const navigation = String(req.headers['sec-fetch-mode'] ?? '').toLowerCase() === 'navigate';
      if (origin !== undefined && !ownOrigin(origin) && (writes || !navigation))
        return {
          status: 403,
          reason: `a request from another site (Origin ${origin.slice(0, 80)}) is refused: only serve's own pages and non-browser clients are answered`,
        };
      if (site === 'cross-site' && (writes || !navigation))
        return { status: 403, reason: 'a request from another site (Sec-Fetch-Site: cross-site) is refused' };
      return undefined;
    },
  };
}

/** The host name of a `Host` header (`[::1]:4318` → `::1`, `Example.COM.:80` → `example.com`); undefined when it is not one. */
export function hostNameOf(header: string): string | undefined {
  const h = header.trim();
  if (h === '') return undefined;
  if (h.startsWith('[')) {
    const close = h.indexOf(']');
    if (close === -1) return undefined;
    const rest = h.slice(close + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return undefined;
    return normalizeHostName(h.slice(1, close));
  }
  const colon = h.lastIndexOf(':');
  const name = colon === -1 ? h : h.slice(0, colon);
  if (colon !== -1 && !/^\d{1,5}$/.test(h.slice(colon + 1))) return undefined;
  if (!/^[A-Za-z0-9.-]+$/.test(name)) return undefined;
  return normalizeHostName(name);
}

function normalizeHostName(name: string): string {
  return name
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

function isLoopbackAddress(name: string): boolean {
  return name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}
