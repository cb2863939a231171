/**
 * Every stored version, newest first: when, which key, and what changed from the version before it
 * in words (the business diff, read when the row comes into view). Any older version opens
 * read-only on the canvas; a restore first shows what it changes from the current version.
 */
import { useEffect, useRef, useState } from 'react';
import type { BusinessDiff, VersionSummary } from '../../api/types';
import { useSeen } from '../../hooks/use-visible';
import { useEditor } from '../../store/context';

const kindClass = (k: string) => (k === 'added' || k === 'started' ? 'diff-added' : k === 'removed' || k === 'stopped' ? 'diff-removed' : 'diff-changed');

/** What version `to` changed from `to - 1` (version 0 is the empty workflow). */
function VersionChanges({ to }: { to: number }) {
  const versionDiff = useEditor((s) => s.versionDiff);
  const ref = useRef<HTMLDivElement>(null);
  const seen = useSeen(ref);
  const [diff, setDiff] = useState<BusinessDiff | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!seen) return;
    let live = true;
    versionDiff(to - 1, to).then(
      (d) => live && setDiff(d),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [seen, to, versionDiff]);
  return (
    <div ref={ref} className="version-changes" data-testid={`version-changes-${to}`}>
      {error && <p className="field-error">Could not compare with version {to - 1}: {error}</p>}
      {!error && !diff && <p className="empty-note">Comparing with version {to - 1}…</p>}
      {diff && diff.changes.length === 0 && <p className="empty-note">Nothing that runs changed (layout or step names only).</p>}
      {diff && diff.changes.length > 0 && (
        <ul className="diff">
          {diff.changes.map((c, i) => (
            <li key={i} className={kindClass(c.kind)}>
              {c.text}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function VersionsPanel() {
  const api = useEditor((s) => s.deps.api);
  const current = useEditor((s) => s.base.version);
  const previewing = useEditor((s) => s.preview?.version ?? null);
  const openPreview = useEditor((s) => s.openPreview);
  const closePreview = useEditor((s) => s.closePreview);
  const openDialog = useEditor((s) => s.openDialog);
  const saving = useEditor((s) => s.status.kind === 'saving');
  const startReplay = useEditor((s) => s.startReplay);
  const [versions, setVersions] = useState<VersionSummary[] | null>(null);
  // Two versions ticked: their what-if replay (the older first).
  const [picked, setPicked] = useState<number[]>([]);
  const toggle = (n: number) => setPicked((p) => (p.includes(n) ? p.filter((x) => x !== n) : [...p, n].slice(-2)));
  const [a, b] = [...picked].sort((x, y) => x - y);
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
    <>
    <div className="versions-compare" data-testid="versions-compare">
      {picked.length < 2 ? (
        <p className="field-hint">Tick two versions to replay the last 7 days’ real calls through both and see what would differ (nothing is sent).</p>
      ) : (
        <button type="button" className="primary" onClick={() => void startReplay({ kind: 'versions', from: a!, to: b!, days: 7, limit: 200 })} data-testid="replay-versions-button">
          What if: replay calls through versions {a} and {b}
        </button>
      )}
    </div>
    <ol className="versions" data-testid="versions-list" reversed>
      {versions.map((v) => {
        const isCurrent = v.version === current;
        const shown = previewing === v.version;
        return (
          <li key={v.version} data-testid={`version-row-${v.version}`} className={[isCurrent && 'current', shown && 'previewing'].filter(Boolean).join(' ') || undefined}>
            <div className="version-head">
              <strong>Version {v.version}</strong>
              <time dateTime={v.createdAt}>{new Date(v.createdAt).toLocaleString()}</time>
            </div>
            <VersionChanges to={v.version} />
            <p className="version-summary field-hint" title="The summary stored with the version">
              {v.summary}
              {v.keyId && ` · by key ${v.keyId}`}
            </p>
            <div className="version-actions">
              <label className="version-pick">
                <input type="checkbox" checked={picked.includes(v.version)} onChange={() => toggle(v.version)} data-testid={`compare-${v.version}`} /> Compare
              </label>
              {isCurrent && <span className="badge">current</span>}
              {isCurrent && previewing !== null && (
                <button type="button" onClick={closePreview} data-testid={`preview-${v.version}`}>
                  Back to the current version
                </button>
              )}
              {!isCurrent && (
                <button type="button" aria-pressed={shown} onClick={() => (shown ? closePreview() : void openPreview(v.version))} data-testid={`preview-${v.version}`}>
                  {shown ? 'Close preview' : 'View read-only'}
                </button>
              )}
              {!isCurrent && (
                <button type="button" data-testid={`restore-${v.version}`} disabled={saving} onClick={() => openDialog({ kind: 'restore', version: v.version })}>
                  Restore…
                </button>
              )}
            </div>
          </li>
        );
      })}
    </ol>
    </>
  );
}
