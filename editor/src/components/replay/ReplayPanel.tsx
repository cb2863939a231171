/**
 * What-if: replay the campaign's recent real calls through two graphs (the saved version and the
 * unsaved changes, or two versions) and show what would differ, added up in words and per call.
 * Nothing is sent: the server dry-runs each call from its run's stored input.
 */
import { useEffect, useState } from 'react';
import { OUTCOMES } from '../../../../engine/graph/outcomes';
import type { DryRun, DryRunEffect, Replay, ReplayCall } from '../../api/types';
import { useVersionNumbers, VersionOptions } from '../../hooks/use-version-numbers';
import { asDisposition } from '../../model/flow';
import type { NodeType } from '../../model/types';
import { specOf } from '../../nodes/registry';
import { useEditorShallow } from '../../store/context';

const DAYS = [1, 7, 14, 30];

function titleOf(type: string, label?: string) {
  if (label) return label;
  try {
    return specOf(type as NodeType).title;
  } catch {
    return type;
  }
}

/** One side of a call: the steps it would take and what it would do. */
function Side({ title, run, marked, mark }: { title: string; run: DryRun | null; marked: Set<string>; mark: 'gained' | 'lost' }) {
  return (
    <div className="replay-side" data-testid={`replay-side-${mark === 'lost' ? 'before' : 'after'}`}>
      <h4>{title}</h4>
      {!run && <p className="empty-note">Not replayed.</p>}
      {run && run.path.length === 0 && <p className="empty-note">Nothing runs for this outcome.</p>}
      {run && run.path.length > 0 && (
        <>
          <ol className="replay-path" aria-label={`Path under ${title}`}>
            {run.path.map((p) => (
              <li key={p.nodeId} className={`replay-step replay-${p.status}`}>
                {titleOf(p.type, p.label)} <span className="step-id">{p.nodeId}</span>
                {p.handle && <span className="field-hint"> → {p.handle}</span>}
                {p.status === 'skipped' && <span className="field-hint"> (draft, skipped)</span>}
              </li>
            ))}
          </ol>
          <ul className="replay-effects" aria-label={`Effects under ${title}`}>
            {run.effects.length === 0 && <li className="empty-note">No effect.</li>}
            {run.effects.map((e, i) => (
              <li key={`${e.key}-${i}`} className={marked.has(e.key) ? `replay-${mark}` : undefined} data-effect={e.key}>
                {marked.has(e.key) ? (mark === 'gained' ? '+ ' : '− ') : ''}
                {e.text}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function CallRow({ call, job }: { call: ReplayCall; job: Replay }) {
  const [open, setOpen] = useState(false);
  const d = asDisposition(call.outcome);
  const keys = (xs: DryRunEffect[]) => new Set(xs.map((e) => e.key));
  const diff = call.difference;
  const altered = new Set(diff?.altered.map((x) => x.after.key) ?? []);
  return (
    <li className={`replay-call${call.changed ? ' changed' : ''}`} data-testid={`replay-call-${call.callId || call.executionId}`} data-changed={call.changed}>
      <button type="button" className="replay-call-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="chip" style={{ background: d ? OUTCOMES[d].color : '#64748b' }}>
          {d ? OUTCOMES[d].label : call.outcome || '?'}
        </span>
        <span className="replay-lead">{call.leadName || call.callId}</span>
        {call.at && <time dateTime={call.at}>{new Date(call.at).toLocaleString()}</time>}
        <span className={`badge ${call.error ? 'badge-failed' : call.changed ? 'badge-changed' : ''}`}>{call.error ? 'not replayed' : call.changed ? 'changes' : 'same'}</span>
      </button>
      {diff && (diff.gained.length > 0 || diff.lost.length > 0 || altered.size > 0) && (
        <p className="replay-call-diff field-hint">
          {[...diff.gained.map((e) => `+ ${e.text}`), ...diff.lost.map((e) => `− ${e.text}`), ...diff.altered.map((x) => `≠ ${x.after.text}`)].join(' · ')}
        </p>
      )}
      {open && (
        <div className="replay-detail" data-testid="replay-call-detail">
          {call.error && <p className="field-error">{call.error}</p>}
          {call.contactRead && <p className="field-hint">The stored run lacked the contact: it was read from the CRM, once.</p>}
          <Side title={job.from.label} run={call.before} marked={keys(diff?.lost ?? [])} mark="lost" />
          <Side title={job.to.label} run={call.after} marked={new Set([...keys(diff?.gained ?? []), ...altered])} mark="gained" />
        </div>
      )}
    </li>
  );
}

function Progress({ job }: { job: Replay }) {
  const { cancel, cancelling } = useEditorShallow((s) => ({ cancel: s.cancelReplay, cancelling: s.whatIf.cancelling }));
  const of = job.total === null ? 'listing the calls…' : `${job.done} of ${job.total} calls replayed`;
  const status =
    job.status === 'running'
      ? `Replaying: ${of}`
      : job.status === 'done'
        ? `Done: ${job.changed} of ${job.done} ${job.done === 1 ? 'call' : 'calls'} would change`
        : job.status === 'cancelled'
          ? `Cancelled after ${job.done} of ${job.total ?? '?'} calls`
          : `Failed: ${job.error ?? 'the replay could not finish'}`;
  return (
    <div className="replay-progress">
      <progress max={job.total ?? 1} value={job.total === null ? undefined : job.done} aria-label="Calls replayed" data-testid="replay-progress" data-done={job.done} data-total={job.total ?? ''} />
      <p role="status" data-testid="replay-status" className={`replay-status replay-status-${job.status}`}>
        {status}
      </p>
      {job.status === 'running' && (
        <button type="button" onClick={() => void cancel()} disabled={cancelling} data-testid="replay-cancel">
          {cancelling ? 'Cancelling…' : 'Cancel'}
        </button>
      )}
    </div>
  );
}

function Results({ job }: { job: Replay }) {
  const [all, setAll] = useState(false);
  const calls = all ? job.calls : job.calls.filter((c) => c.changed || c.error);
  const ended = job.status !== 'running';
  return (
    <>
      <section aria-label="What would differ" className="replay-summary-wrap">
        {job.summary.lines.length > 0 ? (
          <ul className="replay-summary" data-testid="replay-summary">
            {job.summary.lines.map((l) => (
              <li key={`${l.kind}|${l.key}`} className={`replay-line replay-line-${l.kind}`}>
                {l.text}
              </li>
            ))}
          </ul>
        ) : (
          ended && job.done > 0 && <p data-testid="replay-summary-none">Every call replayed would do the same under both.</p>
        )}
        {job.summary.unchanged > 0 && (
          <p className="field-hint" data-testid="replay-unchanged">
            {job.summary.unchanged} {job.summary.unchanged === 1 ? 'call' : 'calls'} would do the same under both.
          </p>
        )}
        {ended && job.done === 0 && <p className="empty-note">No call was replayed: the campaign had no real call in this window.</p>}
      </section>
      {ended && job.calls.length > 0 && (
        <section aria-label="Calls replayed">
          <div className="replay-calls-head">
            <h3>Calls</h3>
            <label className="field-hint">
              <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} data-testid="replay-show-all" /> show the unchanged too
            </label>
          </div>
          <ul className="replay-calls" data-testid="replay-calls">
            {calls.map((c) => (
              <CallRow key={c.seq} call={c} job={job} />
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** Which two graphs, which calls. */
function ReplayForm() {
  const { numbers, current } = useVersionNumbers();
  const { dirty, preset, start, starting, error } = useEditorShallow((s) => ({
    dirty: s.ops.length > 0,
    preset: s.whatIf.preset,
    start: s.startReplay,
    starting: s.whatIf.starting,
    error: s.whatIf.error,
  }));
  const [from, setFrom] = useState<number>(preset?.from ?? current);
  const [to, setTo] = useState<number | 'unsaved'>(preset?.to ?? (dirty ? 'unsaved' : current));
  const [days, setDays] = useState(7);
  const [limit, setLimit] = useState(200);
  useEffect(() => {
    if (preset) {
      setFrom(preset.from);
      setTo(preset.to);
    }
  }, [preset]);
  const same = to === from;
  const go = () => void start(to === 'unsaved' ? { kind: 'unsaved', days, limit } : { kind: 'versions', from, to, days, limit });
  return (
    <form
      className="replay-form"
      data-testid="replay-form"
      onSubmit={(e) => {
        e.preventDefault();
        go();
      }}
    >
      <p className="sandbox-note">
        Replays this campaign’s recent real calls through two versions of the workflow and shows what would differ. Nothing is sent: no contact, CRM or carrier is
        reached.
      </p>
      <label>
        From
        <select value={from} onChange={(e) => setFrom(Number(e.target.value))} data-testid="replay-from">
          <VersionOptions numbers={numbers} current={current} />
        </select>
      </label>
      <label>
        To
        <select value={to} onChange={(e) => setTo(e.target.value === 'unsaved' ? 'unsaved' : Number(e.target.value))} data-testid="replay-to">
          {dirty && <option value="unsaved">Your unsaved changes</option>}
          <VersionOptions numbers={numbers} current={current} />
        </select>
      </label>
      <label>
        Calls of the last
        <select value={days} onChange={(e) => setDays(Number(e.target.value))} data-testid="replay-days">
          {DAYS.map((d) => (
            <option key={d} value={d}>
              {d === 1 ? 'day' : `${d} days`}
            </option>
          ))}
        </select>
      </label>
      <label>
        At most
        <input type="number" min={1} max={200} value={limit} onChange={(e) => setLimit(Math.max(1, Math.min(200, Number(e.target.value) || 1)))} data-testid="replay-limit" /> calls
      </label>
      {same && <p className="field-hint">Choose two different versions.</p>}
      {error && (
        <p role="alert" className="field-error" data-testid="replay-error">
          {error}
        </p>
      )}
      <button type="submit" className="primary" disabled={starting || same || numbers.length === 0} data-testid="replay-start">
        {starting ? 'Starting…' : 'Replay the calls'}
      </button>
    </form>
  );
}

export function ReplayPanel() {
  const { job, clear } = useEditorShallow((s) => ({ job: s.whatIf.job, clear: s.clearReplay }));
  if (!job) return <ReplayForm />;
  return (
    <div className="replay" data-testid="replay" aria-busy={job.status === 'running'}>
      <div className="replay-head">
        <h3 data-testid="replay-title">
          {job.from.label} → {job.to.label}
        </h3>
        <p className="field-hint">
          Real calls since {new Date(job.since).toLocaleString()}, at most {job.maxCalls}. Nothing was sent.
        </p>
      </div>
      <Progress job={job} />
      <Results job={job} />
      {job.status !== 'running' && (
        <button type="button" onClick={clear} data-testid="replay-new">
          New replay…
        </button>
      )}
    </div>
  );
}
