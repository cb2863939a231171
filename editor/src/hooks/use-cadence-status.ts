import { useState } from 'react';
import { projectsApi } from '../api/endpoints';
import { powerDialerApi } from '../api/power-dialer';
import { cadenceContext } from '../model/cadence';
import { useResource } from './use-resource';

/** The cadence page's frame: the campaign, its project and its cadence (what governs its leads). */
export function useCadenceFrame(locationId: string, campaignId: string) {
  return useResource(async () => {
    const [campaign, project] = await Promise.all([projectsApi.campaign(locationId, campaignId), projectsApi.get(locationId)]);
    const cadenceId = typeof campaign.config.cadenceId === 'string' ? campaign.config.cadenceId : null;
    const cadence = cadenceId ? await powerDialerApi.cadence(cadenceId) : null;
    return { campaign, project, cadence, context: cadenceContext(campaign, project, cadence) };
  }, [locationId, campaignId]);
}

export const LEADS_PER_PAGE = 25;

/**
 * One of the campaign's lead lists, a page at a time: the leads at a cadence step (`step`), or
 * the parked ones (`step` null); `search` is the lists' own search, `rev` reads again after an
 * enrolment or a removal.
 */
export function useLeadList(opts: { locationId: string; campaignId: string; step: number | null; search: string; rev: number }) {
  const [page, setPage] = useState(1);
  const [searched, setSearched] = useState(opts.search);
  // A new search starts from the first page.
  if (searched !== opts.search) {
    setSearched(opts.search);
    setPage(1);
  }
  const list = useResource(() => {
    const query = { locationId: opts.locationId, campaignId: opts.campaignId, page, limit: LEADS_PER_PAGE, ...(opts.search && { search: opts.search }) };
    return opts.step === null ? powerDialerApi.parkedLeads(query) : powerDialerApi.stepLeads(opts.step, query);
  }, [opts.locationId, opts.campaignId, opts.step, opts.search, page, opts.rev]);
  return { list, page, setPage };
}
