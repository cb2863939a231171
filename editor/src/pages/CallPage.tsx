/**
 * One call: who, when, how it ended and what was said (the transcript as turns), the recording
 * (a link only when it is a web address), the fields the agent recorded, its length and cost, and
 * its post-call runs, each opening in the editor with its path painted (the editor's run view
 * links back here).
 */
import { useState } from 'react';
import { callsApi } from '../api/calls';
import type { Execution } from '../api/types';
import { OutcomeChip } from '../components/calls/OutcomeChip';
import { Transcript } from '../components/calls/Transcript';
import { ConsoleNav } from '../components/console/ConsoleNav';
import { Failure } from '../components/console/Failure';
import { useAction } from '../hooks/use-action';
import { RUNS_SEARCHED, useCall } from '../hooks/use-call';
import { costText, durationText, fieldText, webUrl } from '../model/calls';
import { stepHeadline } from '../model/run';
import { linkProps } from '../routing';

function Run({ run, agentId, locationId }: { run: Execution; agentId: string; locationId: string | null }) {
  return (
    <li className="call-run" data-testid={`call-run-${run.id}`} data-status={run.status}>
      <a {...linkProps({ name: 'agent', agentId, campaignId: run.campaignId, ...(locationId && { locationId }), run: run.id })} data-testid={`call-run-link-${run.id}`}>
        Open the run on the canvas
      </a>{' '}
      <span className={`status status-run-${run.status}`}>{run.status}</span> version {run.graphVersion}, <time dateTime={run.startedAt}>{new Date(run.startedAt).toLocaleString()}</time>
      {run.retryOf && <span className="field-hint"> (a retry of {run.retryOf})</span>}
      {run.steps.length === 0 && run.status !== 'running' && <p className="field-hint">No step ran: this outcome had nothing to do on that version.</p>}
      <ol className="call-run-steps">
        {run.steps.map((s) => (
          <li key={s.seq} data-status={s.status}>
            <strong>{s.nodeType}</strong> {s.nodeId}: {s.status}
            {stepHeadline(s) && <> — {stepHeadline(s)}</>}
            {s.error && <span className="field-error"> {s.error}</span>}
          </li>
        ))}
      </ol>
    </li>
  );
}

export function CallPage({ callId }: { callId: string }) {
  const data = useCall(callId);
  const review = useAction((reviewed: boolean) => callsApi.setReviewed(callId, reviewed));
  const [reviewed, setReviewed] = useState<boolean | null>(null);
  return (
    <>
      <ConsoleNav current="calls" />
      <main className="picker wide" aria-labelledby="call-title" data-testid="call-page">
        <nav aria-label="Breadcrumb" className="crumbs">
          <a {...linkProps({ name: 'calls' })}>Calls</a> › {callId}
        </nav>
        {data.state === 'loading' && <p data-testid="call-loading">Loading the call…</p>}
        {data.state === 'error' && <Failure error={data.error} what={`read call ${callId}`} onRetry={data.reload} />}
        {data.state === 'done' &&
          (() => {
            const { call, campaign, locationId, runs, why } = data.value;
            const recording = webUrl(call.recordingUrl);
            const isReviewed = reviewed ?? call.reviewed ?? false;
            return (
              <>
                <div className="page-head">
                  <h1 id="call-title">
                    {call.leadName || 'Unknown lead'} <OutcomeChip call={call} />
                  </h1>
                  <button
                    type="button"
                    disabled={review.busy}
                    onClick={async () => {
                      const saved = await review.run(!isReviewed);
                      if (saved) setReviewed(saved.reviewed ?? !isReviewed);
                    }}
                    aria-pressed={isReviewed}
                    data-testid="call-reviewed"
                  >
                    {isReviewed ? 'Reviewed ✓' : 'Mark reviewed'}
                  </button>
                </div>
                {review.error && <Failure error={review.error} what="mark this call reviewed" testId="review-failure" />}
                <dl className="facts" data-testid="call-facts">
                  <dt>When</dt>
                  <dd>
                    <time dateTime={call.dateTime}>{new Date(call.dateTime).toLocaleString()}</time>
                  </dd>
                  <dt>Phone</dt>
                  <dd>{call.phoneNumber}</dd>
                  <dt>Campaign</dt>
                  <dd>
                    {call.campaignName || call.campaignId} {call.projectName && <span className="field-hint">({call.projectName})</span>}
                  </dd>
                  <dt>Agent</dt>
                  <dd>{call.agent || '—'}</dd>
                  <dt>Direction</dt>
                  <dd>{call.direction}</dd>
                  <dt>Length</dt>
                  <dd data-testid="call-duration">{durationText(call.duration)}</dd>
                  <dt>Cost</dt>
                  <dd data-testid="call-cost">{costText(call.cost)}</dd>
                  <dt>Recording</dt>
                  <dd data-testid="call-recording">
                    {recording ? (
                      <a href={recording} target="_blank" rel="noopener noreferrer" data-testid="call-recording-link">
                        Listen to the recording ↗
                      </a>
                    ) : call.recordingUrl ? (
                      <>
                        Not a web address, so not linked: <code>{call.recordingUrl}</code>
                      </>
                    ) : (
                      'None'
                    )}
                  </dd>
                </dl>
                <section className="console-section" aria-labelledby="summary-title">
                  <h2 id="summary-title">Summary</h2>
                  <p data-testid="call-summary">{call.callSummary || 'No summary was recorded.'}</p>
                </section>
                <section className="console-section" aria-labelledby="transcript-title">
                  <h2 id="transcript-title">Transcript</h2>
                  <Transcript text={call.transcript} />
                </section>
                <section className="console-section" aria-labelledby="fields-title">
                  <h2 id="fields-title">What the call recorded</h2>
                  {call.fields.length === 0 ? (
                    <p className="empty-note">No fields were recorded.</p>
                  ) : (
                    <dl className="facts" data-testid="call-fields">
                      {call.fields.map((f) => [
                        <dt key={`${f.key}-k`}>{f.key}</dt>,
                        <dd key={`${f.key}-v`} data-testid={`call-field-${f.key}`}>
                          {fieldText(f.value)}
                        </dd>,
                      ])}
                    </dl>
                  )}
                </section>
                <section className="console-section" aria-labelledby="runs-title" data-testid="call-runs">
                  <h2 id="runs-title">After the call</h2>
                  {runs === null && <p data-testid="call-runs-unknown">The post-call run is not shown: {why}.</p>}
                  {runs && runs.length === 0 && (
                    <p data-testid="call-runs-none">
                      No post-call run of this call among the agent&apos;s {RUNS_SEARCHED} most recent runs (it may have nothing to run for this outcome, or be older).
                    </p>
                  )}
                  {runs && runs.length > 0 && campaign && (
                    <ul className="call-runs">
                      {runs.map((r) => (
                        <Run key={r.id} run={r} agentId={campaign.agentId} locationId={locationId} />
                      ))}
                    </ul>
                  )}
                </section>
              </>
            );
          })()}
      </main>
    </>
  );
}
