/**
 * An empty workflow offers the starter templates (read when it is shown, never for a workflow with
 * steps): name, description and the outcomes each fills. Using one writes it as the next version.
 */
import { useState } from 'react';
import { OUTCOMES } from '../../../engine/graph/outcomes';
import { templatesApi } from '../api/endpoints';
import { useAsync } from '../hooks/use-async';
import { asDisposition } from '../model/flow';
import { isStepNode } from '../model/types';
import { useEditor } from '../store/context';

function Templates({ agentId, onDismiss }: { agentId: string; onDismiss: () => void }) {
  const templates = useAsync(() => templatesApi.list(agentId), [agentId]);
  const apply = useEditor((s) => s.applyTemplate);
  const saving = useEditor((s) => s.status.kind === 'saving');
  return (
    <section className="templates" aria-labelledby="templates-title" data-testid="templates">
      <div className="templates-head">
        <h2 id="templates-title">This workflow is empty: start from a template?</h2>
        <button type="button" className="link-button" onClick={onDismiss} data-testid="templates-dismiss">
          Start from scratch
        </button>
      </div>
      <p className="field-hint">Or add steps with the “+ Add” buttons on the lanes. A template fills only the outcomes this agent can end a call in.</p>
      {templates.state === 'loading' && <p className="empty-note">Loading templates…</p>}
      {templates.state === 'error' && <p role="alert">Could not read the templates: {templates.error.message}</p>}
      {templates.state === 'done' && (
        <ul className="template-list">
          {templates.value
            .filter((t) => t.outcomes.length > 0)
            .map((t) => (
              <li key={t.id} className="template" data-testid={`template-${t.id}`}>
                <strong>{t.name}</strong>
                <p>{t.description}</p>
                <p className="template-outcomes" aria-label="Fills">
                  {t.outcomes.map((o) => {
                    const d = asDisposition(o);
                    return (
                      <span key={o} className="chip" style={{ background: d ? OUTCOMES[d].color : '#64748b' }}>
                        {d ? OUTCOMES[d].label : o}
                      </span>
                    );
                  })}
                </p>
                <button type="button" disabled={saving} onClick={() => void apply(t.id, t.name)} data-testid={`template-use-${t.id}`}>
                  Use “{t.name}”
                </button>
              </li>
            ))}
        </ul>
      )}
    </section>
  );
}

export function TemplatePicker() {
  // Offered only while nothing is stored or drawn: no steps on the canvas and no unsaved edits.
  const empty = useEditor((s) => s.ops.length === 0 && s.base.nodes.length === 0 && !s.nodes.some(isStepNode));
  const agentId = useEditor((s) => s.deps.agent.id);
  const [dismissed, setDismissed] = useState(false);
  if (!empty || dismissed) return null;
  return <Templates agentId={agentId} onDismiss={() => setDismissed(true)} />;
}
