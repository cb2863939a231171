/** Over the canvas while a run is open: which call, how it ended, and a way back. */
import { OUTCOMES } from '../../../engine/graph/outcomes';
import { asDisposition } from '../model/flow';
import { isTestRun } from '../model/run';
import { linkProps } from '../routing';
import { useEditor } from '../store/context';

/** The call a real run followed, on its own page; asks first when there are unsaved changes. */
function CallLink({ callId }: { callId: string }) {
  const dirty = useEditor((s) => s.ops.length > 0);
  const { href, onClick } = linkProps({ name: 'call', callId });
  return (
    <a
      href={href}
      data-testid="run-call-link"
      onClick={(e) => {
        if (dirty && !window.confirm('You have unsaved changes. Leave this workflow and lose them?')) return e.preventDefault();
        onClick(e);
      }}
    >
      The call
    </a>
  );
}

export function RunBanner() {
  const run = useEditor((s) => s.run);
  const version = useEditor((s) => s.base.version);
  const openRun = useEditor((s) => s.openRun);
  if (!run) return null;
  const e = run.execution;
  const d = asDisposition(e.outcome);
  const steps = `${e.steps.length} step${e.steps.length === 1 ? '' : 's'}`;
  if (isTestRun(e)) {
    return (
      <div className={`run-banner run-test run-${e.status}`} data-testid="run-banner" role="status">
        <span className="lane-dot" style={{ background: d ? OUTCOMES[d].color : '#64748b' }} aria-hidden="true" />
        <span>
          <strong>Test run on the sandbox</strong> (nothing is sent to real contacts): {d ? OUTCOMES[d].label : e.outcome}, {e.status === 'running' ? `running, ${steps} so far…` : `${e.status}, ${steps}.`}
          {e.graphVersion !== version && <em> It ran on version {e.graphVersion}; the canvas shows version {version}.</em>}
        </span>
        <button type="button" onClick={() => void openRun(null)} data-testid="run-close">
          Close run
        </button>
      </div>
    );
  }
  return (
    <div className={`run-banner run-${e.status}`} data-testid="run-banner" role="status">
      <span className="lane-dot" style={{ background: d ? OUTCOMES[d].color : '#64748b' }} aria-hidden="true" />
      <span>
        Call <strong>{e.callId}</strong> ended in <strong>{d ? OUTCOMES[d].label : e.outcome}</strong>: run {e.status}, {e.steps.length} step{e.steps.length === 1 ? '' : 's'}.
        {e.graphVersion !== version && (
          <em>
            {' '}
            It ran on version {e.graphVersion}; the canvas shows version {version}
            {run.missing.length ? ` (steps ${run.missing.join(', ')} are no longer here)` : ''}.
          </em>
        )}
      </span>
      <CallLink callId={e.callId} />
      <button type="button" onClick={() => void openRun(null)} data-testid="run-close">
        Close run
      </button>
    </div>
  );
}
