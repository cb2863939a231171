/**
 * The leads at one cadence step (or the parked ones): who, their status, when the next call is on
 * the clock of the zone that governs them and why then, and *Remove*.
 */
import type { PipelineLead } from '../../api/types';
import { LEADS_PER_PAGE, useLeadList } from '../../hooks/use-cadence-status';
import { explainNextCall, type CadenceContext } from '../../model/cadence';
import { Failure } from '../console/Failure';
import { TableHead } from '../console/TableHead';

function LeadRow({ lead, context, onRemove }: { lead: PipelineLead; context: CadenceContext; onRemove?: (lead: PipelineLead) => void }) {
  const next = explainNextCall(lead, context);
  return (
    <tr data-testid={`lead-${lead._id}`} data-status={lead.callStatus}>
      <td data-label="Lead">
        <strong>{lead.fullName || lead.firstName || 'Unnamed'}</strong>
        <br />
        <span className="field-hint">
          {lead.phone}
          {lead.email && ` · ${lead.email}`}
        </span>
      </td>
      <td data-label="Status">
        <span className={`status status-${lead.callStatus}`}>{lead.callStatus.replaceAll('_', ' ')}</span>
      </td>
      <td data-label="Next call">
        <time dateTime={lead.nextCallTime} data-testid={`next-${lead._id}`} data-zone={next.zone} data-local={next.hhmm}>
          {next.local}
        </time>
        <br />
        <span className="field-hint" data-testid={`zone-${lead._id}`}>
          {next.zone}: {next.zoneWhy}
        </span>
      </td>
      <td data-label="Why then" data-testid={`why-${lead._id}`}>
        {next.why.join('; ')}.
      </td>
      <td data-label="">
        {onRemove && (
          <button type="button" className="danger" onClick={() => onRemove(lead)} data-testid={`lead-remove-${lead._id}`}>
            Remove…
          </button>
        )}
      </td>
    </tr>
  );
}

export function LeadList(props: {
  title: string;
  rule: string;
  testId: string;
  locationId: string;
  campaignId: string;
  step: number | null;
  search: string;
  rev: number;
  context: CadenceContext;
  onRemove?: (lead: PipelineLead) => void;
}) {
  const { list, page, setPage } = useLeadList(props);
  const id = `${props.testId}-title`;
  return (
    <section className="console-section" aria-labelledby={id} data-testid={props.testId}>
      <h2 id={id}>
        {props.title}{' '}
        {list.state === 'done' && (
          <span className="count" data-testid={`${props.testId}-count`}>
            {list.value.total}
          </span>
        )}
      </h2>
      <p className="field-hint">{props.rule}</p>
      {list.state === 'loading' && <p>Loading leads…</p>}
      {list.state === 'error' && <Failure error={list.error} what="list these leads" onRetry={list.reload} />}
      {list.state === 'done' && list.value.total === 0 && <p className="empty-note">{props.search ? 'No lead here matches the search.' : 'No lead here.'}</p>}
      {list.state === 'done' && list.value.leads.length > 0 && (
        <table className="console-table">
          <TableHead columns={['Lead', 'Status', 'Next call', 'Why then']} actions />
          <tbody>
            {list.value.leads.map((l) => (
              <LeadRow key={l._id} lead={l} context={props.context} {...(props.onRemove && { onRemove: props.onRemove })} />
            ))}
          </tbody>
        </table>
      )}
      {list.state === 'done' && list.value.totalPages > 1 && (
        <div className="modal-actions">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span>
            Page {page} of {list.value.totalPages} ({LEADS_PER_PAGE} a page)
          </span>
          <button type="button" disabled={page >= list.value.totalPages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </div>
      )}
    </section>
  );
}
