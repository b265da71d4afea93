/**
 * liveScript — `/live.js`, the one script of serve's pages: it keeps the page current and links every id.
 *
 * It listens to `/events` (Server-Sent Events; the browser reconnects by itself) and on a `revision` newer than
 * the one the page shows (its `data-revision`) fetches the page's own URL again and swaps the header, main and
 * footer for the new ones (the server may answer with a render a little older, and then tells again later), so the page stays the one
 * server-rendered document (the CLI's look, no client-side templates) and a scroll position survives. Every
 * `code.id` chip (a trace or conversation id) becomes a link to `/explain/<id>`. A small badge in the header
 * says whether the page is live. Served with the page's CSP (`script-src 'self'; connect-src 'self'`): it
 * talks to this server only. Plain ES2020, no build step.
 */

/** The script's source. */
export const LIVE_SCRIPT = `'use strict';
(() => {
  const badge = document.createElement('span');
  badge.id = 'routescope-live';
  badge.style.cssText = 'float:right;font-size:12px;border-radius:9px;padding:1px 9px;margin-top:4px;border:1px solid currentColor';
  const setBadge = (text) => {
    badge.textContent = text;
    const header = document.querySelector('header');
    if (header && badge.parentNode !== header) header.prepend(badge);
  };
  const linkIds = () => {
    for (const chip of document.querySelectorAll('main code.id')) {
      if (chip.closest('a')) continue;
      const id = chip.getAttribute('title') || chip.textContent || '';
      if (id === '' || id.endsWith('\\u2026')) continue;
      const a = document.createElement('a');
      a.href = '/explain/' + encodeURIComponent(id);
      a.title = 'explain ' + id;
      chip.replaceWith(a);
      a.appendChild(chip);
    }
  };
  let busy = false;
  let again = false;
  const refresh = async () => {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const response = await fetch(location.pathname + location.search, { headers: { accept: 'text/html' }, cache: 'no-store' });
      if (!response.ok) return;
      const next = new DOMParser().parseFromString(await response.text(), 'text/html');
      for (const part of ['header', 'main', 'footer']) {
        const fresh = next.querySelector(part);
        const old = document.querySelector(part);
        if (fresh && old) old.replaceWith(fresh);
      }
      document.title = next.title;
      const shown = next.documentElement.dataset.revision;
      if (shown !== undefined) document.documentElement.dataset.revision = shown;
      linkIds();
      setBadge('live');
    } catch (error) {
      setBadge('reconnecting');
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  };
  const start = () => {
    linkIds();
    setBadge('connecting');
    const events = new EventSource('/events');
    events.addEventListener('revision', (e) => {
      const shown = Number(document.documentElement.dataset.revision ?? -1);
      if (Number(e.data) > shown) refresh();
      else setBadge('live');
    });
    events.addEventListener('open', () => setBadge('live'));
    events.addEventListener('error', () => setBadge('reconnecting'));
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
`;
