/** Warnings of the graph on the canvas; each one selects and shows the step it is about. */
import { OUTCOMES } from '../../../../engine/graph/outcomes';
import { asDisposition } from '../../model/flow';
import { laneNodeId } from '../../model/types';
import { useEditor } from '../../store/context';
import { Icon } from '../Icon';

export function WarningsPanel() {
  const warnings = useEditor((s) => s.warnings);
  const dirty = useEditor((s) => s.ops.length > 0);
  const focusNode = useEditor((s) => s.focusNode);
  if (warnings.length === 0) return <p className="empty-note" data-testid="warnings-empty">No warnings: every step will act as configured.</p>;
  return (
    <>
      {dirty && <p className="field-hint">Includes your unsaved changes.</p>}
      <ul className="warnings" data-testid="warnings-list">
        {warnings.map((w, i) => {
          const d = w.outcome ? asDisposition(w.outcome) : null;
          const target = w.nodeId ?? (d ? laneNodeId(d) : null);
          return (
            <li key={`${w.code}-${w.nodeId ?? ''}-${i}`}>
              <button type="button" className="warning-item" data-testid="warning-item" data-code={w.code} data-node-id={w.nodeId} disabled={!target} onClick={() => target && focusNode(target)}>
                <Icon name="warning" size={14} />
                <span>
                  <code>{w.code}</code>
                  {d && <span className="chip" style={{ background: OUTCOMES[d].color }}>{OUTCOMES[d].label}</span>} {w.message}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}
