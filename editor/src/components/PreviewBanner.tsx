/** Over the canvas while an older version is shown: read-only, which version, the way back, and restore. */
import { useEditor } from '../store/context';

export function PreviewBanner() {
  const preview = useEditor((s) => s.preview);
  const current = useEditor((s) => s.base.version);
  const close = useEditor((s) => s.closePreview);
  const openDialog = useEditor((s) => s.openDialog);
  if (!preview) return null;
  return (
    <div className="preview-banner" data-testid="preview-banner" role="status">
      <span>
        <strong>Version {preview.version}</strong>, saved {new Date(preview.workflow.updatedAt).toLocaleString()}: <strong>read-only</strong>. Nothing here can be
        edited; the current version is {current}.
      </span>
      <button type="button" className="primary" onClick={() => openDialog({ kind: 'restore', version: preview.version })} data-testid="preview-restore">
        Restore this version…
      </button>
      <button type="button" onClick={close} data-testid="preview-close">
        Back to the current version
      </button>
    </div>
  );
}
