/**
 * Before a restore: what it changes from the current version, in words (the business diff), and
 * what that meets. Restoring writes the old graph as a new version; unsaved edits stay in Undo.
 */
import { graphFromWorkflow } from '../../model/flow';
import { toGraphBody } from '../../model/pending';
import { useAsync } from '../../hooks/use-async';
import { useEditor } from '../../store/context';
import { ImpactFacts } from './ImpactFacts';
import { Modal } from './Modal';

export function RestoreDialog({ version }: { version: number }) {
  const current = useEditor((s) => s.base.version);
  const api = useEditor((s) => s.deps.api);
  const versionDiff = useEditor((s) => s.versionDiff);
  const preview = useEditor((s) => (s.preview?.version === version ? s.preview.workflow : null));
  const dirty = useEditor((s) => s.ops.length > 0);
  const restore = useEditor((s) => s.restoreVersion);
  const close = useEditor((s) => s.closeDialog);
  const saving = useEditor((s) => s.status.kind === 'saving');
  const diff = useAsync(() => versionDiff(current, version), [current, version]);
  const impact = useAsync(async () => api.impact(toGraphBody(graphFromWorkflow(preview ?? (await api.version(version))))), [api, version, current]);
  return (
    <Modal title={`Restore version ${version}?`} testId="restore-dialog" onClose={close}>
      <p>
        Version {version} is written back as version {current + 1}; version {current} stays in the history.
        {dirty && ' Your unsaved edits stay one Undo away.'}
      </p>
      <h3>
        What changes from version {current} (current) to version {version}
      </h3>
      {diff.state === 'loading' && <p className="empty-note">Comparing…</p>}
      {diff.state === 'error' && <p role="alert">{diff.error.message}</p>}
      {diff.state === 'done' &&
        (diff.value.changes.length === 0 ? (
          <p className="empty-note" data-testid="restore-changes">
            Nothing that runs changes (only layout or step names).
          </p>
        ) : (
          <ul className="diff" data-testid="restore-changes">
            {diff.value.changes.map((c, i) => (
              <li key={i} className={`diff-${c.kind === 'added' || c.kind === 'started' ? 'added' : c.kind === 'removed' || c.kind === 'stopped' ? 'removed' : 'changed'}`}>
                {c.text}
              </li>
            ))}
          </ul>
        ))}
      {impact.state === 'done' && <ImpactFacts report={impact.value} />}
      <div className="modal-actions">
        <button type="button" className="primary" disabled={saving} onClick={() => void restore(version)} data-testid="restore-confirm" data-autofocus>
          Restore version {version}
        </button>
        <button type="button" onClick={close} data-testid="restore-cancel">
          Cancel
        </button>
      </div>
    </Modal>
  );
}
