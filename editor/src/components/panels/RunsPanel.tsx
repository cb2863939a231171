/**
 * Execution history: recent calls of this campaign, or its test runs; opening one paints its path
 * and step statuses on the canvas (a run still going is read again until it ends).
 */
import { useCallback, useEffect, useState } from 'react';
import { useReactFlow } from '@xyflow/react';
import { OUTCOMES } from '../../../../engine/graph/outcomes';
import type { Execution, ExecutionStep } from '../../api/types';
import { asDisposition } from '../../model/flow';
import { isTestRun, stepHeadline } from '../../model/run';
import { useEditor } from '../../store/context';

const json = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v, null, 2));

function StepRow({ step }: { step: ExecutionStep }) {
  const focusNode = useEditor((s) => s.focusNode);
  const exists = useEditor((s) => s.nodes.some((n) => n.id === step.nodeId));
  // The rendered message or slot is what the admin wants to see first.
  const headline = stepHeadline(step);
  return (
    <li className={`run-step run-${step.status}`} data-testid={`run-step-${step.nodeId}`}>
      <div className="run-step-head">
        <span className={`badge badge-${step.status}`}>{step.status}</span>
        <button type="button" className="link-button" disabled={!exists} onClick={() => focusNode(step.nodeId)}>
          {step.seq}. {step.nodeType} {step.nodeId}
        </button>
        {step.attempts > 1 && <span className="field-hint">{step.attempts} attempts</span>}
      </div>
      {headline && (
        <p className="run-step-text" data-testid={`run-step-text-${step.nodeId}`}>
          {headline}
        </p>
      )}
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
  const openDialog = useEditor((s) => s.openDialog);
  const rf = useReactFlow();
  const openKind = run && isTestRun(run.execution) ? 'test' : 'run';
  const [kind, setKind] = useState<'run' | 'test'>(openKind);
  // A test run just started (or opened elsewhere) shows the test runs.
  const openId = run?.execution.id;
  useEffect(() => {
    if (openId) setKind(openKind);
  }, [openId, openKind]);
  const [runs, setRuns] = useState<Execution[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    setError(null);
    api
      .executions(kind)
      .then((list) => setRuns(list.filter((e) => e.campaignId === campaignId)))
      .catch((e: Error) => setError(e.message));
  }, [api, campaignId, kind]);
  useEffect(load, [load]);
  // Frame the path the run took (again as a run in progress reaches more steps).
  const visited = run ? Object.keys(run.statusByNode).join(',') : '';
  useEffect(() => {
    if (!visited) return;
    const ids = visited.split(',').filter((id) => rf.getNode(id));
    if (ids.length) requestAnimationFrame(() => void rf.fitView({ nodes: ids.map((id) => ({ id })), padding: 0.3, maxZoom: 1, duration: 250 }));
  }, [visited, rf]);
  // The open run as it is now (a run in progress changes), first in the list when it is new.
  const shown = runs && run && isTestRun(run.execution) === (kind === 'test') && run.execution.campaignId === campaignId ? [run.execution, ...runs.filter((e) => e.id !== run.execution.id)] : runs;
  return (
    <div className="runs">
      <div className="runs-kind" role="group" aria-label="Which runs">
        <button type="button" aria-pressed={kind === 'run'} onClick={() => setKind('run')} data-testid="runs-kind-run">
          Calls
        </button>
        <button type="button" aria-pressed={kind === 'test'} onClick={() => setKind('test')} data-testid="runs-kind-test">
          Test runs
        </button>
        <button type="button" onClick={() => openDialog({ kind: 'test-run' })} data-testid="runs-new-test">
          New test…
        </button>
      </div>
      <div className="runs-head">
        <p className="field-hint">{kind === 'test' ? 'Test runs of this campaign (sandbox only), newest first.' : 'Recent calls of this campaign, newest first.'}</p>
        <button type="button" onClick={load} data-testid="runs-refresh">
          Refresh
        </button>
      </div>
      {error && <p role="alert">{error}</p>}
      {shown && shown.length === 0 && <p className="empty-note">{kind === 'test' ? 'No test runs yet: Test in the toolbar starts one.' : 'No calls have run this workflow yet.'}</p>}
      {shown && shown.length > 0 && (
        <ul className="run-list" data-testid="executions-list">
          {shown.map((e) => {
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
        <section className="run-detail" aria-label={`Steps of ${isTestRun(run.execution) ? 'test run' : 'call'} ${run.execution.callId}`} data-testid="run-detail" aria-busy={run.execution.status === 'running'}>
          <h3 data-testid="run-detail-title">
            {isTestRun(run.execution) ? 'Test run' : 'Call'} {run.execution.callId}: {run.execution.status}
          </h3>
          {isTestRun(run.execution) && <p className="sandbox-note">On the sandbox: nothing was sent to real contacts. Each step shows what it would have done.</p>}
          {run.execution.status === 'running' && run.execution.steps.length === 0 && <p className="empty-note">Starting…</p>}
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
