/** Every stored version, newest first, with who-key, when and what; restore writes an old one back as a new version. */
import { useEffect, useState } from 'react';
import type { VersionSummary } from '../../api/types';
import { useEditor } from '../../store/context';

export function VersionsPanel() {
  const api = useEditor((s) => s.deps.api);
  const current = useEditor((s) => s.base.version);
  const restoreVersion = useEditor((s) => s.restoreVersion);
  const saving = useEditor((s) => s.status.kind === 'saving');
  const [versions, setVersions] = useState<VersionSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api
      .versions()
      .then((v) => live && setVersions(v))
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [api, current]);
  if (error) return <p role="alert">{error}</p>;
  if (!versions) return <p className="empty-note">Loading versions…</p>;
  if (versions.length === 0) return <p className="empty-note">Nothing saved yet.</p>;
  return (
    <ol className="versions" data-testid="versions-list" reversed>
      {versions.map((v) => (
        <li key={v.version} data-testid={`version-row-${v.version}`} className={v.version === current ? 'current' : undefined}>
          <div className="version-head">
            <strong>Version {v.version}</strong>
            <time dateTime={v.createdAt}>{new Date(v.createdAt).toLocaleString()}</time>
          </div>
          <p className="version-summary">{v.summary}</p>
          {v.keyId && <p className="field-hint">by key {v.keyId}</p>}
          {v.version === current ? (
            <span className="badge">current</span>
          ) : (
            <button type="button" data-testid={`restore-${v.version}`} disabled={saving} onClick={() => void restoreVersion(v.version)}>
              Restore version {v.version}
            </button>
          )}
        </li>
      ))}
    </ol>
  );
}
