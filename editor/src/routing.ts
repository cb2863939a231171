/** A few routes under /editor, on the history API (the server answers index.html for every /editor/* path). */
import { useEffect, useState } from 'react';

export type Route =
  | { name: 'projects' }
  | { name: 'project'; locationId: string }
  | { name: 'failed-runs' }
  /** `run`: open this run (the Runs tab, its path painted), as failure alerts link to it */
  | { name: 'agent'; agentId: string; campaignId?: string; locationId?: string; run?: string };

export const BASE = '/editor';

export function parseRoute(loc: { pathname: string; search: string }): Route {
  const path = loc.pathname.replace(/\/+$/, '');
  const q = new URLSearchParams(loc.search);
  let m = /^\/editor\/agents\/([^/]+)$/.exec(path);
  if (m) {
    const campaignId = q.get('campaignId') ?? undefined;
    const locationId = q.get('locationId') ?? undefined;
    const run = q.get('run') ?? undefined;
    return { name: 'agent', agentId: decodeURIComponent(m[1]!), ...(campaignId && { campaignId }), ...(locationId && { locationId }), ...(run && { run }) };
  }
  if (path === '/editor/failed-runs') return { name: 'failed-runs' };
  m = /^\/editor\/projects\/([^/]+)$/.exec(path);
  if (m) return { name: 'project', locationId: decodeURIComponent(m[1]!) };
  return { name: 'projects' };
}

export function hrefOf(r: Route): string {
  switch (r.name) {
    case 'projects':
      return `${BASE}/`;
    case 'project':
      return `${BASE}/projects/${encodeURIComponent(r.locationId)}`;
    case 'failed-runs':
      return `${BASE}/failed-runs`;
    case 'agent': {
      const q = new URLSearchParams();
      if (r.campaignId) q.set('campaignId', r.campaignId);
      if (r.locationId) q.set('locationId', r.locationId);
      if (r.run) q.set('run', r.run);
      const qs = q.toString();
      return `${BASE}/agents/${encodeURIComponent(r.agentId)}${qs ? `?${qs}` : ''}`;
    }
  }
}

const EVENT = 'vc:navigate';

export function navigate(r: Route, opts: { replace?: boolean } = {}) {
  const href = hrefOf(r);
  if (opts.replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  window.dispatchEvent(new Event(EVENT));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location));
    window.addEventListener('popstate', update);
    window.addEventListener(EVENT, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(EVENT, update);
    };
  }, []);
  return route;
}

/** A link that navigates without reloading (and still works with a middle click). */
export function linkProps(r: Route) {
  return {
    href: hrefOf(r),
    onClick: (e: { preventDefault(): void; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; button: number }) => {
      if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      navigate(r);
    },
  };
}
