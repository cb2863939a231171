/** The digest: what fires per outcome, as text. The server's for the stored version; a local preview while unsaved. */
import { useEffect, useMemo, useState } from 'react';
import { digestGraph } from '../../../../engine/graph/digest';
import { graphFromFlow } from '../../model/flow';
import { useEditor, useEditorStore } from '../../store/context';

export function DigestPanel() {
  const store = useEditorStore();
  const dirty = useEditor((s) => s.ops.length > 0);
  const version = useEditor((s) => s.base.version);
  const rev = useEditor((s) => s.layoutRev);
  const api = useEditor((s) => s.deps.api);
  const [stored, setStored] = useState<{ version: number; text: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api
      .digest()
      .then((text) => live && setStored({ version, text }))
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [api, version]);
  const local = useMemo(() => {
    if (!dirty) return null;
    const s = store.getState();
    return digestGraph(graphFromFlow(s.nodes, s.edges, s.entries) as never, { outcomes: s.outcomes });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dirty, rev, store]);
  return (
    <div className="digest">
      {local ? (
        <p className="field-hint">Preview with your unsaved changes (the stored version {version} reads differently).</p>
      ) : (
        <p className="field-hint">What version {stored?.version ?? version} does, per outcome.</p>
      )}
      {error && !local && <p role="alert">{error}</p>}
      <pre data-testid="digest-text" aria-live="polite">
        {local ?? stored?.text ?? 'Loading…'}
      </pre>
    </div>
  );
}
