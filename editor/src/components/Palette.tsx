/**
 * The palette: every step type, to add where the admin says (after the selected step, or at the
 * end of a lane) by click or Enter, or by dragging onto the canvas.
 */
import { useState } from 'react';
import { OUTCOMES } from '../../../engine/graph/outcomes';
import { DRAG_MIME } from '../hooks/use-palette-drop';
import type { Disposition, InsertPoint } from '../model/types';
import { NODE_SPECS, PALETTE_GROUPS, STEP_TYPES } from '../nodes/registry';
import { useEditor } from '../store/context';
import { Icon } from './Icon';

export function Palette() {
  const outcomes = useEditor((s) => s.outcomes);
  const selectedId = useEditor((s) => s.selectedId);
  const addNode = useEditor((s) => s.addNode);
  const notify = useEditor((s) => s.notify);
  // Nothing can be added to an older version shown read-only.
  const readOnly = useEditor((s) => s.preview !== null);
  const [where, setWhere] = useState<string>(() => outcomes[0] ?? 'selected');
  const target: InsertPoint | null =
    where === 'selected' ? (selectedId ? { kind: 'after', nodeId: selectedId } : null) : { kind: 'lane', lane: where as Disposition };
  return (
    <aside className={`palette${readOnly ? ' palette-read-only' : ''}`} aria-label="Add steps" inert={readOnly || undefined} data-testid="palette">
      <h2>Add a step</h2>
      <div className="field">
        <label htmlFor="palette-where">Where</label>
        <select id="palette-where" data-testid="palette-where" value={where} onChange={(e) => setWhere(e.target.value)}>
          <option value="selected">{selectedId ? `After the selected step (${selectedId})` : 'After the selected step (none)'}</option>
          {outcomes.map((o) => (
            <option key={o} value={o}>
              At the end of {OUTCOMES[o].label}
            </option>
          ))}
        </select>
      </div>
      {PALETTE_GROUPS.map((group) => (
        <div key={group} className="palette-group">
          <h3>{group}</h3>
          {STEP_TYPES.filter((t) => NODE_SPECS[t].group === group).map((t) => (
            <button
              key={t}
              type="button"
              className="palette-item"
              draggable
              data-testid={`palette-item-${t}`}
              aria-disabled={!target}
              title={target ? `${NODE_SPECS[t].description}. Click to add, or drag onto the canvas.` : 'Select a step or choose a lane first; or drag onto the canvas.'}
              onDragStart={(e) => {
                e.dataTransfer.setData(DRAG_MIME, t);
                e.dataTransfer.effectAllowed = 'copy';
              }}
              onClick={() => (target ? addNode(t, target) : notify('Select a step or choose a lane under “Where” first, or drag the step onto the canvas.'))}
            >
              <span className="step-icon" style={{ color: NODE_SPECS[t].accent }}>
                <Icon name={NODE_SPECS[t].icon} />
              </span>
              {NODE_SPECS[t].title}
            </button>
          ))}
        </div>
      ))}
    </aside>
  );
}
