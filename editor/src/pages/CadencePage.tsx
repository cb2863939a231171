/**
 * Where each lead of a campaign stands in its cadence (GoHighLevel's Status tab, for our
 * cadences): how many leads wait at each step and which, the parked speed-to-lead leads, each
 * lead's next call on the clock of the zone that governs it and why then; the lists' search;
 * enrolling a contact and removing a lead.
 */
import { useState } from 'react';
import { powerDialerApi } from '../api/power-dialer';
import type { PipelineLead } from '../api/types';
import { EnrolForm } from '../components/cadence/EnrolForm';
import { LeadList } from '../components/cadence/LeadList';
import { ConsoleNav } from '../components/console/ConsoleNav';
import { Failure } from '../components/console/Failure';
import { Modal } from '../components/dialogs/Modal';
import { useAction } from '../hooks/use-action';
import { useCadenceFrame } from '../hooks/use-cadence-status';
import { useCaller } from '../hooks/use-caller';
import { stepRule, windowText } from '../model/cadence';
import { linkProps } from '../routing';

const DIALING: Record<string, string> = {
  s2l: 'speed to lead: one call at once (parked until the window opens)',
  pd: 'power dialer: the cadence from its first step',
  s2l_pd: 'speed to lead, then the cadence (the immediate call is its first step)',
  reactivation: 'reactivation (dials like the power dialer)',
};

export function CadencePage({ locationId, campaignId }: { locationId: string; campaignId: string }) {
  const frame = useCadenceFrame(locationId, campaignId);
  const caller = useCaller();
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const [rev, setRev] = useState(0);
  const [removing, setRemoving] = useState<PipelineLead | null>(null);
  const remove = useAction(powerDialerApi.remove);
  // Writes need an agency_admin key with power_dialer:write; a key known to lack them gets no buttons.
  const mayWrite = caller?.key ? caller.key.role === 'agency_admin' && caller.key.scopes.includes('power_dialer:write') : caller?.agency !== false;
  return (
    <>
      <ConsoleNav current="projects" />
      <main className="picker wide" aria-labelledby="cadence-title" data-testid="cadence-page">
        <nav aria-label="Breadcrumb" className="crumbs">
          <a {...linkProps({ name: 'projects' })}>Projects</a> › <a {...linkProps({ name: 'project', locationId })}>{locationId}</a> ›{' '}
          {frame.state === 'done' ? frame.value.campaign.name : campaignId}
        </nav>
        <h1 id="cadence-title">Cadence status</h1>
        {frame.state === 'loading' && <p data-testid="cadence-loading">Loading the campaign…</p>}
        {frame.state === 'error' && <Failure error={frame.error} what="read this campaign's cadence" onRetry={frame.reload} />}
        {frame.state === 'done' &&
          (() => {
            const { campaign, cadence, context } = frame.value;
            const shared = { locationId, campaignId, search, rev, context, ...(mayWrite && { onRemove: setRemoving }) };
            return (
              <>
                <dl className="facts" data-testid="cadence-facts">
                  <dt>Campaign</dt>
                  <dd>
                    {campaign.name} ({campaign.active ? 'active' : 'not active: enrols and dials no one'})
                  </dd>
                  <dt>Dialing</dt>
                  <dd>{campaign.dialing ? (DIALING[campaign.dialing] ?? campaign.dialing) : 'none: this campaign never dials'}</dd>
                  <dt>Cadence</dt>
                  <dd>{cadence ? cadence.name : 'none set: one call, at once'}</dd>
                  <dt>Calling windows</dt>
                  <dd data-testid="cadence-windows">{context.windows.length ? context.windows.map(windowText).join('; ') : 'none: calls may go out at any time'}</dd>
                  <dt>Whose clock</dt>
                  <dd>
                    {(campaign.multipleTimezoneCheck ?? frame.value.project.multipleTimezoneCheck)
                      ? 'each lead’s own zone when the contact has one (multiple time zones on)'
                      : 'the calling window’s zone'}
                  </dd>
                </dl>
                <p className="field-hint">
                  A lead keeps the cadence and windows that were set when it was enrolled; the reasons below read the ones set now.
                </p>
                <form
                  className="lead-search"
                  role="search"
                  onSubmit={(e) => {
                    e.preventDefault();
                    setSearch(draft.trim());
                  }}
                >
                  <label htmlFor="lead-search">Search the leads (name, email or phone)</label>
                  <div className="secret-row">
                    <input id="lead-search" type="search" value={draft} onChange={(e) => setDraft(e.target.value)} data-testid="lead-search" />
                    <button type="submit" data-testid="lead-search-submit">
                      Search
                    </button>
                  </div>
                </form>
                {context.steps.map((step, i) => (
                  <LeadList key={i} {...shared} testId={`step-${i}`} step={i} title={`Attempt ${i + 1} of ${context.steps.length}${step.label ? `: ${step.label}` : ''}`} rule={stepRule(step, i)} />
                ))}
                <LeadList
                  {...shared}
                  testId="parked"
                  step={null}
                  title="Parked: waiting for the calling window"
                  rule="Speed-to-lead leads that arrived outside the calling window; each is called when it opens."
                />
                {mayWrite && (
                  <section className="console-section" aria-labelledby="enrol-title">
                    <h2 id="enrol-title">Enrol a contact</h2>
                    <EnrolForm campaign={campaign} onEnrolled={() => setRev((r) => r + 1)} />
                  </section>
                )}
              </>
            );
          })()}
      </main>
      {removing && (
        <Modal title={`Remove ${removing.fullName || removing.phone} from the queue?`} testId="lead-remove-dialog" onClose={() => setRemoving(null)}>
          <p>Its cadence stops and no further call is placed. The contact can be enrolled again later.</p>
          {remove.error && <Failure error={remove.error} what="remove this lead" />}
          <div className="modal-actions">
            <button
              type="button"
              className="danger"
              data-autofocus
              disabled={remove.busy}
              data-testid="lead-remove-confirm"
              onClick={async () => {
                if (await remove.run(removing._id)) {
                  setRemoving(null);
                  setRev((r) => r + 1);
                }
              }}
            >
              Remove
            </button>
            <button type="button" onClick={() => setRemoving(null)}>
              Cancel
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}
