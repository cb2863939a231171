/**
 * Someone saved while we were editing: what they changed, what we changed, and three deliberate
 * ways on (apply ours on top when it is a single append/delete/merge, overwrite, or reload theirs).
 * Nothing is lost silently: after a reload, Undo brings our edits back as a draft.
 */
import { useEffect, useRef } from 'react';
import { describeGraphNode, isEmptyDiff, type GraphDiff } from '../model/diff';
import { useEditor } from '../store/context';

function DiffList({ diff, who, testId }: { diff: GraphDiff; who: string; testId: string }) {
  if (isEmptyDiff(diff)) return <p className="field-hint">{who}: no step changes.</p>;
  return (
    <ul className="diff" data-testid={testId}>
      {diff.added.map((n) => (
        <li key={`a-${n.id}`} className="diff-added">
          Added {describeGraphNode(n)}
        </li>
      ))}
      {diff.removed.map((n) => (
        <li key={`r-${n.id}`} className="diff-removed">
          Removed {describeGraphNode(n)}
        </li>
      ))}
      {diff.changed.map((c) => (
        <li key={`c-${c.after.id}`} className="diff-changed">
          Changed {describeGraphNode(c.after)} (was: {describeGraphNode(c.before)})
        </li>
      ))}
      {diff.rewired && <li className="diff-changed">Re-wired edges or outcome entries</li>}
    </ul>
  );
}

export function ConflictDialog() {
  const conflict = useEditor((s) => s.conflict);
  const base = useEditor((s) => s.base.version);
  const resolve = useEditor((s) => s.resolveConflict);
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (conflict) first.current?.focus();
  }, [conflict]);
  if (!conflict) return null;
  return (
    <div className="modal-backdrop">
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="conflict-title"
        data-testid="conflict-dialog"
        onKeyDown={(e) => {
          if (e.key === 'Escape') void resolve('cancel');
        }}
      >
        <h2 id="conflict-title">Someone else saved this workflow</h2>
        <p>
          You were editing version {base}; version {conflict.latest.version} is stored now. Nothing has been saved or lost yet.
        </p>
        <h3>Their changes (version {base} → {conflict.latest.version})</h3>
        <DiffList diff={conflict.theirs} who="They" testId="conflict-theirs" />
        <h3>Your unsaved changes</h3>
        <DiffList diff={conflict.mine} who="You" testId="conflict-mine" />
        <div className="modal-actions">
          {conflict.rebasable && (
            <button ref={first} type="button" className="primary" data-testid="conflict-rebase" onClick={() => void resolve('rebase')}>
              Apply my change on top of version {conflict.latest.version}
            </button>
          )}
          <button ref={conflict.rebasable ? undefined : first} type="button" data-testid="conflict-reload" onClick={() => void resolve('reload')}>
            Reload version {conflict.latest.version} (my changes stay in Undo)
          </button>
          <button type="button" className="danger" data-testid="conflict-overwrite" onClick={() => void resolve('overwrite')}>
            Overwrite with my version
          </button>
          <button type="button" data-testid="conflict-cancel" onClick={() => void resolve('cancel')}>
            Keep editing
          </button>
        </div>
      </div>
    </div>
  );
}
