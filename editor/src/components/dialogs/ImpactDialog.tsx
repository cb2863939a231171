/**
 * Before a save that changes what runs and meets something: the changes in words, then what they
 * meet (calls per changed outcome over the last 7 days, runs in flight, leads per cadence step).
 * Save or cancel; Enter saves. Moves, renames and drafts never ask (model/impact.ts).
 */
import { describePlan } from '../../model/pending';
import { useEditor } from '../../store/context';
import { ImpactFacts } from './ImpactFacts';
import { Modal } from './Modal';

export function ImpactDialog() {
  const impact = useEditor((s) => s.impact);
  const confirm = useEditor((s) => s.confirmImpact);
  const cancel = useEditor((s) => s.cancelImpact);
  if (!impact) return null;
  const { report } = impact;
  // The server's words when it answered (the same diff, against what is stored now), else ours.
  const changes = report.state === 'done' ? report.value.outcomes.flatMap((o) => o.changes) : impact.changes.map((c) => c.text);
  return (
    <Modal title="Save this change?" testId="impact-dialog" onClose={cancel}>
      <h3>What changes for the calls that end after saving</h3>
      <ul className="diff" data-testid="impact-changes">
        {(changes.length ? changes : impact.changes.map((c) => c.text)).map((t, i) => (
          <li key={i} className="diff-changed">
            {t}
          </li>
        ))}
      </ul>
      {report.state === 'error' && (
        <p className="field-warning" role="alert">
          Could not read what this affects ({report.message}). You can still save.
        </p>
      )}
      {report.state === 'done' && <ImpactFacts report={report.value} />}
      <div className="modal-actions">
        <button type="button" className="primary" onClick={() => void confirm()} data-testid="impact-confirm" data-autofocus title={describePlan(impact.plan)}>
          Save
        </button>
        <button type="button" onClick={cancel} data-testid="impact-cancel">
          Cancel (keep editing)
        </button>
      </div>
    </Modal>
  );
}
