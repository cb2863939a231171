/** A few routes under /editor, on the history API (the server answers index.html for every /editor/* path). */
import { useEffect, useState } from 'react';

export type Route =
  | { name: 'projects' }
  | { name: 'project'; locationId: string }
  | { name: 'failed-runs' }
  /** the agency's and its projects' connections: CRM locations, Twilio, Vapi, the signing secret */
  | { name: 'connections' }
  /** one project's CRM connection: its status and reconnect */
  | { name: 'project-connection'; locationId: string }
  /** calls, newest first; the filters are in the URL */
  | { name: 'calls'; filters?: CallListFilters }
  | { name: 'call'; callId: string }
  /** where each lead of a campaign stands in its cadence */
  | { name: 'cadence'; locationId: string; campaignId: string }
  | { name: 'keys' }
  /** `run`: open this run (the Runs tab, its path painted), as failure alerts link to it */
  | { name: 'agent'; agentId: string; campaignId?: string; locationId?: string; run?: string };

export const BASE = '/editor';

/** The call list's filters as the URL carries them (GET /api/call-history's names; `from`/`to` are days, yyyy-mm-dd). */
export interface CallListFilters {
  disposition?: string;
  campaignId?: string;
  from?: string;
  to?: string;
  excludeReviewed?: 'true';
}
const CALL_FILTERS = ['disposition', 'campaignId', 'from', 'to', 'excludeReviewed'] as const;

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
  if (path === '/editor/connections') return { name: 'connections' };
  if (path === '/editor/keys') return { name: 'keys' };
  if (path === '/editor/calls') {
    const filters: CallListFilters = {};
    for (const k of CALL_FILTERS) {
      const v = q.get(k);
      if (v && (k !== 'excludeReviewed' || v === 'true')) (filters as Record<string, string>)[k] = v;
    }
    return { name: 'calls', ...(Object.keys(filters).length > 0 && { filters }) };
  }
  m = /^\/editor\/calls\/([^/]+)$/.exec(path);
  if (m) return { name: 'call', callId: decodeURIComponent(m[1]!) };
  m = /^\/editor\/projects\/([^/]+)\/connection$/.exec(path);
  if (m) return { name: 'project-connection', locationId: decodeURIComponent(m[1]!) };
  m = /^\/editor\/projects\/([^/]+)\/campaigns\/([^/]+)\/cadence$/.exec(path);
  if (m) return { name: 'cadence', locationId: decodeURIComponent(m[1]!), campaignId: decodeURIComponent(m[2]!) };
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
    case 'connections':
      return `${BASE}/connections`;
    case 'project-connection':
      return `${BASE}/projects/${encodeURIComponent(r.locationId)}/connection`;
    case 'calls': {
      const q = new URLSearchParams();
      for (const k of CALL_FILTERS) if (r.filters?.[k]) q.set(k, r.filters[k]!);
      const qs = q.toString();
      return `${BASE}/calls${qs ? `?${qs}` : ''}`;
    }
    case 'call':
      return `${BASE}/calls/${encodeURIComponent(r.callId)}`;
    case 'cadence':
      return `${BASE}/projects/${encodeURIComponent(r.locationId)}/campaigns/${encodeURIComponent(r.campaignId)}/cadence`;
    case 'keys':
      return `${BASE}/keys`;
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
