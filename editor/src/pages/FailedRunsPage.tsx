/**
 * Every failed post-call run of the agency, across campaigns (not yet retried), newest first:
 * select some and retry each from its failed step; the answer for each run is shown on its row.
 * Each row opens the run in the editor, as a failure alert's link does.
 */
import { OUTCOMES } from '../../../engine/graph/outcomes';
import type { FailedRun, RetryResult } from '../api/types';
import { useFailedRuns } from '../hooks/use-failed-runs';
import { asDisposition } from '../model/flow';
import { ConsoleNav } from '../components/console/ConsoleNav';
import { linkProps } from '../routing';

function failedStep(r: FailedRun): string {
  const step = [...r.steps].reverse().find((s) => s.status === 'failed');
  return step ? `${step.nodeType} ${step.nodeId}${step.error ? `: ${step.error}` : ''}` : (r.error ?? 'failed');
}

function Result({ result }: { result: RetryResult }) {
  if (result.status === 202) {
    return (
      <span className="retry-ok" data-testid={`retry-result-${result.executionId}`}>
        Retrying from the failed step: run {result.retry?.id}
      </span>
    );
  }
  return (
    <span className="retry-refused" data-testid={`retry-result-${result.executionId}`}>
      Not retried ({result.status}
      {result.code ? ` ${result.code}` : ''}): {result.error}
    </span>
  );
}

export function FailedRunsPage() {
  const { runs, error, selected, results, retrying, load, toggle, toggleAll, retry } = useFailedRuns();
  const answered = Object.values(results);
  const ok = answered.filter((r) => r.status === 202).length;
  return (
    <>
      <ConsoleNav current="failed-runs" />
      <main className="picker wide" aria-labelledby="failed-title">
        <nav aria-label="Breadcrumb" className="crumbs">
          <a {...linkProps({ name: 'projects' })}>Projects</a> › Failed runs
        </nav>
        <h1 id="failed-title">Failed runs</h1>
        <p className="field-hint">
          Post-call runs that failed after their retries, in every campaign, newest first. A retry starts again from the failed step, on the version the run
          started with; steps that already took effect are not repeated.
        </p>
        <div className="failed-actions">
          <button type="button" className="primary" disabled={selected.size === 0 || retrying} onClick={() => void retry()} data-testid="retry-selected">
            {retrying ? 'Retrying…' : `Retry selected (${selected.size})`}
          </button>
          <button type="button" onClick={load} data-testid="failed-refresh">
            Refresh
          </button>
          {answered.length > 0 && (
            <span role="status" data-testid="retry-summary">
              {ok} retried{answered.length > ok ? `, ${answered.length - ok} not retried` : ''}.
            </span>
          )}
        </div>
        {error && <p role="alert">{error}</p>}
        {!runs && !error && <p>Loading failed runs…</p>}
        {runs && runs.length === 0 && <p data-testid="failed-empty">No failed runs: every post-call run succeeded or was retried.</p>}
        {runs && runs.length > 0 && (
          <table className="failed-runs" data-testid="failed-runs">
            <thead>
              <tr>
                <th>
                  <input type="checkbox" aria-label="Select every run" checked={selected.size === runs.length} onChange={toggleAll} data-testid="select-all" />
                </th>
                <th>When</th>
                <th>Campaign</th>
                <th>Outcome</th>
                <th>Failed step</th>
                <th>Retry</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => {
                const d = asDisposition(r.outcome);
                return (
                  <tr key={r.id} data-testid={`failed-row-${r.id}`}>
                    <td>
                      <input type="checkbox" aria-label={`Select run ${r.id}`} checked={selected.has(r.id)} onChange={() => toggle(r.id)} data-testid={`select-${r.id}`} />
                    </td>
                    <td>
                      <time dateTime={r.startedAt}>{new Date(r.startedAt).toLocaleString()}</time>
                    </td>
                    <td>
                      <strong>{r.campaignName || r.campaignId}</strong>
                      <br />
                      <span className="field-hint">Agent {r.agentName || r.agentId}</span>
                    </td>
                    <td>
                      <span className="chip" style={{ background: d ? OUTCOMES[d].color : '#64748b' }}>
                        {d ? OUTCOMES[d].label : r.outcome}
                      </span>
                    </td>
                    <td className="failed-step">
                      {failedStep(r)}
                      <br />
                      <a {...linkProps({ name: 'agent', agentId: r.agentId, campaignId: r.campaignId, run: r.id })} data-testid={`open-run-${r.id}`}>
                        Open the run in the editor
                      </a>
                    </td>
                    <td>{results[r.id] ? <Result result={results[r.id]!} /> : <span className="field-hint">—</span>}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </main>
    </>
  );
}
