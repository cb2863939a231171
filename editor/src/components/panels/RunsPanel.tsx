/** Execution history: recent calls of this campaign; opening one paints its path and step statuses on the canvas. */
import { useCallback, useEffect, useState } from 'react';
import { useReactFlow } from '@xyflow/react';
import { OUTCOMES } from '../../../../engine/graph/outcomes';
import type { Execution, ExecutionStep } from '../../api/types';
import { asDisposition } from '../../model/flow';
import { useEditor } from '../../store/context';

const json = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v, null, 2));

function StepRow({ step }: { step: ExecutionStep }) {
  const focusNode = useEditor((s) => s.focusNode);
  const exists = useEditor((s) => s.nodes.some((n) => n.id === step.nodeId));
  const input = step.input as Record<string, unknown> | undefined;
  // The rendered message or slot is what the admin wants to see first.
  const headline = input && typeof input === 'object' ? (input.body ?? input.subject ?? input.tags ?? undefined) : undefined;
  return (
    <li className={`run-step run-${step.status}`} data-testid={`run-step-${step.nodeId}`}>
      <div className="run-step-head">
        <span className={`badge badge-${step.status}`}>{step.status}</span>
        <button type="button" className="link-button" disabled={!exists} onClick={() => focusNode(step.nodeId)}>
          {step.seq}. {step.nodeType} {step.nodeId}
        </button>
        {step.attempts > 1 && <span className="field-hint">{step.attempts} attempts</span>}
      </div>
      {headline !== undefined && <p className="run-step-text">{Array.isArray(headline) ? headline.join(', ') : String(headline)}</p>}
      {step.error && <p className="field-error">{step.error}</p>}
      {(step.input !== undefined || step.output !== undefined) && (
        <details>
          <summary>Input and output</summary>
          {step.input !== undefined && <pre>{json(step.input)}</pre>}
          {step.output !== undefined && <pre>{json(step.output)}</pre>}
        </details>
      )}
    </li>
  );
}

/** The run's workflow in the Temporal Web UI: its full event history, retries and timings. */
function TemporalLink({ href, testId, label = 'Temporal' }: { href: string; testId: string; label?: string }) {
  return (
    <a className="temporal-link" href={href} target="_blank" rel="noreferrer" data-testid={testId} title="Open this run in the Temporal Web UI">
      {label} ↗
    </a>
  );
}

export function RunsPanel() {
  const api = useEditor((s) => s.deps.api);
  const campaignId = useEditor((s) => s.base.campaignId);
  const run = useEditor((s) => s.run);
  const openRun = useEditor((s) => s.openRun);
  const rf = useReactFlow();
  const [runs, setRuns] = useState<Execution[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    setError(null);
    api
      .executions()
      .then((list) => setRuns(list.filter((e) => e.campaignId === campaignId)))
      .catch((e: Error) => setError(e.message));
  }, [api, campaignId]);
  useEffect(load, [load]);
  // Frame the path the run took.
  useEffect(() => {
    if (!run) return;
    const ids = Object.keys(run.statusByNode).filter((id) => rf.getNode(id));
    if (ids.length) requestAnimationFrame(() => void rf.fitView({ nodes: ids.map((id) => ({ id })), padding: 0.3, maxZoom: 1, duration: 250 }));
  }, [run, rf]);
  return (
    <div className="runs">
      <div className="runs-head">
        <p className="field-hint">Recent calls of this campaign, newest first.</p>
        <button type="button" onClick={load} data-testid="runs-refresh">
          Refresh
        </button>
      </div>
      {error && <p role="alert">{error}</p>}
      {runs && runs.length === 0 && <p className="empty-note">No calls have run this workflow yet.</p>}
      {runs && runs.length > 0 && (
        <ul className="run-list" data-testid="executions-list">
          {runs.map((e) => {
            const d = asDisposition(e.outcome);
            const open = run?.execution.id === e.id;
            return (
              <li key={e.id}>
                <button type="button" className={`run-item${open ? ' open' : ''}`} aria-pressed={open} data-testid={`execution-row-${e.id}`} data-call-id={e.callId} onClick={() => void openRun(open ? null : e.id)}>
                  <span className="chip" style={{ background: d ? OUTCOMES[d].color : '#64748b' }}>
                    {d ? OUTCOMES[d].label : e.outcome}
                  </span>
                  <span className="run-call">{e.callId}</span>
                  <span className={`badge badge-${e.status}`}>{e.status}</span>
                  <time dateTime={e.startedAt}>{new Date(e.startedAt).toLocaleString()}</time>
                  <span className="field-hint">v{e.graphVersion}</span>
                </button>
                {e.temporalUrl && <TemporalLink href={e.temporalUrl} testId={`execution-temporal-${e.id}`} />}
              </li>
            );
          })}
        </ul>
      )}
      {run && (
        <section className="run-detail" aria-label={`Steps of call ${run.execution.callId}`} data-testid="run-detail">
          <h3>
            Call {run.execution.callId}: {run.execution.status}
          </h3>
          {run.execution.temporalUrl && <TemporalLink href={run.execution.temporalUrl} testId="run-temporal-link" label="Open this run in Temporal" />}
          {run.execution.error && <p className="field-error">{run.execution.error}</p>}
          <ol className="run-steps">
            {[...run.execution.steps]
              .sort((a, b) => a.seq - b.seq)
              .map((s) => (
                <StepRow key={`${s.seq}-${s.nodeId}`} step={s} />
              ))}
          </ol>
        </section>
      )}
    </div>
  );
}
