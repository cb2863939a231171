import { useCallback, useEffect, useState } from 'react';
import { callsApi } from '../api/calls';
import { projectsApi } from '../api/endpoints';
import type { CallRecord } from '../api/types';
import { dayBound } from '../model/calls';
import type { CallListFilters } from '../routing';

/**
 * The call list: the first page for the filters (read again whenever they change), *Older calls*
 * for the next page (`nextCursor`), and the campaigns the key can see, for the campaign filter.
 */
export function useCalls(filters: CallListFilters) {
  const [calls, setCalls] = useState<CallRecord[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [campaigns, setCampaigns] = useState<{ id: string; name: string }[]>([]);
  const key = JSON.stringify(filters);

  const query = useCallback(
    (cursor?: string) => {
      const f = JSON.parse(key) as CallListFilters;
      const from = f.from ? dayBound(f.from, false) : undefined;
      const to = f.to ? dayBound(f.to, true) : undefined;
      return callsApi.list({
        limit: 25,
        ...(f.disposition && { disposition: f.disposition }),
        ...(f.campaignId && { campaignId: f.campaignId }),
        ...(from && { from }),
        ...(to && { to }),
        ...(f.excludeReviewed && { excludeReviewed: 'true' as const }),
        ...(cursor && { cursor }),
      });
    },
    [key],
  );

  const load = useCallback(() => {
    let live = true;
    setCalls(null);
    setError(null);
    query().then(
      (page) => {
        if (!live) return;
        setCalls(page.calls);
        setNext(page.nextCursor);
      },
      (err: Error) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [query]);
  useEffect(load, [load]);

  useEffect(() => {
    // The campaign filter's choices; a key that may not list projects filters by id in the URL only.
    projectsApi.list().then(
      (projects) => setCampaigns(projects.flatMap((p) => p.campaigns.map((c) => ({ id: c.id, name: `${c.name} (${p.businessName || p.locationId})` })))),
      () => setCampaigns([]),
    );
  }, []);

  const loadMore = async () => {
    if (!next) return;
    setLoadingMore(true);
    try {
      const page = await query(next);
      setCalls((c) => [...(c ?? []), ...page.calls]);
      setNext(page.nextCursor);
    } catch (err) {
      setError(err as Error);
    } finally {
      setLoadingMore(false);
    }
  };

  return { calls, hasMore: next !== null, error, loadingMore, campaigns, reload: load, loadMore };
}
