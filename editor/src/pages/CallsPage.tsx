/**
 * The calls the key can see, newest first, with the spec's filters (outcome, campaign, a date
 * range, and leaving out calls already reviewed); each row opens the call. The filters live in
 * the URL, so a filtered list can be linked to.
 */
import { DISPOSITIONS, OUTCOMES } from '../../../engine/graph/outcomes';
import { OutcomeChip } from '../components/calls/OutcomeChip';
import { ConsoleNav } from '../components/console/ConsoleNav';
import { Failure } from '../components/console/Failure';
import { useCalls } from '../hooks/use-calls';
import { costText, durationText } from '../model/calls';
import { linkProps, navigate, type CallListFilters } from '../routing';
import { TableHead } from '../components/console/TableHead';

function Filters({ filters, campaigns }: { filters: CallListFilters; campaigns: { id: string; name: string }[] }) {
  const set = (change: Partial<CallListFilters>) => {
    const next: CallListFilters = { ...filters, ...change };
    for (const k of Object.keys(next) as (keyof CallListFilters)[]) if (!next[k]) delete next[k];
    navigate({ name: 'calls', filters: next }, { replace: true });
  };
  return (
    <form className="call-filters" aria-label="Filters" data-testid="call-filters" onSubmit={(e) => e.preventDefault()}>
      <div className="field">
        <label htmlFor="filter-outcome">Outcome</label>
        <select id="filter-outcome" value={filters.disposition ?? ''} onChange={(e) => set({ disposition: e.target.value })} data-testid="filter-outcome">
          <option value="">Any</option>
          {DISPOSITIONS.map((d) => (
            <option key={d} value={d}>
              {OUTCOMES[d].label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-campaign">Campaign</label>
        <select id="filter-campaign" value={filters.campaignId ?? ''} onChange={(e) => set({ campaignId: e.target.value })} data-testid="filter-campaign">
          <option value="">Any</option>
          {filters.campaignId && !campaigns.some((c) => c.id === filters.campaignId) && <option value={filters.campaignId}>{filters.campaignId}</option>}
          {campaigns.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-from">From</label>
        <input id="filter-from" type="date" value={filters.from ?? ''} onChange={(e) => set({ from: e.target.value })} data-testid="filter-from" />
      </div>
      <div className="field">
        <label htmlFor="filter-to">To</label>
        <input id="filter-to" type="date" value={filters.to ?? ''} onChange={(e) => set({ to: e.target.value })} data-testid="filter-to" />
      </div>
      <label className="choice filter-check">
        <input type="checkbox" checked={filters.excludeReviewed === 'true'} onChange={(e) => set({ excludeReviewed: e.target.checked ? 'true' : undefined })} data-testid="filter-unreviewed" />
        Not reviewed yet
      </label>
    </form>
  );
}

export function CallsPage({ filters }: { filters: CallListFilters }) {
  const { calls, hasMore, error, loadingMore, campaigns, reload, loadMore } = useCalls(filters);
  const filtered = Object.keys(filters).length > 0;
  return (
    <>
      <ConsoleNav current="calls" />
      <main className="picker wide" aria-labelledby="calls-title" data-testid="calls-page">
        <h1 id="calls-title">Calls</h1>
        <Filters filters={filters} campaigns={campaigns} />
        {error && <Failure error={error} what="list calls" onRetry={reload} />}
        {!calls && !error && <p data-testid="calls-loading">Loading calls…</p>}
        {calls && calls.length === 0 && <p data-testid="calls-empty">{filtered ? 'No call matches these filters.' : 'No calls yet: they appear here as soon as a call ends.'}</p>}
        {calls && calls.length > 0 && (
          <table className="console-table" data-testid="calls-table">
            <TableHead columns={['When', 'Lead', 'Campaign', 'Outcome', 'Length', 'Cost', 'Reviewed']} />
            <tbody>
              {calls.map((c) => (
                <tr key={c.id} data-testid={`call-row-${c.callId}`}>
                  <td data-label="When">
                    <a {...linkProps({ name: 'call', callId: c.callId })} data-testid={`call-link-${c.callId}`}>
                      <time dateTime={c.dateTime}>{new Date(c.dateTime).toLocaleString()}</time>
                    </a>
                  </td>
                  <td data-label="Lead">
                    {c.leadName || 'Unknown'}
                    <br />
                    <span className="field-hint">{c.phoneNumber}</span>
                  </td>
                  <td data-label="Campaign">{c.campaignName || c.campaignId}</td>
                  <td data-label="Outcome">
                    <OutcomeChip call={c} />
                  </td>
                  <td data-label="Length">{durationText(c.duration)}</td>
                  <td data-label="Cost">{costText(c.cost)}</td>
                  <td data-label="Reviewed">{c.reviewed ? 'Yes' : 'No'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {hasMore && (
          <button type="button" onClick={() => void loadMore()} disabled={loadingMore} data-testid="calls-more">
            {loadingMore ? 'Loading…' : 'Older calls'}
          </button>
        )}
      </main>
    </>
  );
}
