/** Warnings of the graph on the canvas; each one selects and shows the step it is about. */
import { memo, startTransition, useEffect, useState } from 'react';
import { OUTCOMES } from '../../../../engine/graph/outcomes';
import type { Warning } from '../../api/types';
import { asDisposition } from '../../model/flow';
import { laneNodeId } from '../../model/types';
import { useEditor } from '../../store/context';
import { Icon } from '../Icon';

/**
 * How many warnings the first render draws: the panel is open when a workflow opens, and a
 * 1,000-step graph can have hundreds (~7 elements each, most below the fold). The rest follow in
 * the next task, as a transition, so the canvas is interactive first; the list ends up the same.
 */
const FIRST_WARNINGS = 30;

export function WarningsPanel() {
  const warnings = useEditor((s) => s.warnings);
  const dirty = useEditor((s) => s.ops.length > 0);
  const focusNode = useEditor((s) => s.focusNode);
  const [all, setAll] = useState(warnings.length <= FIRST_WARNINGS);
  useEffect(() => {
    if (all) return;
    const t = setTimeout(() => startTransition(() => setAll(true)), 0);
    return () => clearTimeout(t);
  }, [all]);
  if (warnings.length === 0) return <p className="empty-note" data-testid="warnings-empty">No warnings: every step will act as configured.</p>;
  return (
    <>
      {dirty && <p className="field-hint">Includes your unsaved changes.</p>}
      <ul className="warnings" data-testid="warnings-list">
        {(all ? warnings : warnings.slice(0, FIRST_WARNINGS)).map((w, i) => (
          <WarningItem key={`${w.code}-${w.nodeId ?? ''}-${i}`} warning={w} focusNode={focusNode} />
        ))}
      </ul>
    </>
  );
}

/** One warning; memoised, so a new list (every edit) re-renders only the warnings that changed. */
const WarningItem = memo(function WarningItem({ warning: w, focusNode }: { warning: Warning; focusNode: (id: string) => void }) {
  const d = w.outcome ? asDisposition(w.outcome) : null;
  const target = w.nodeId ?? (d ? laneNodeId(d) : null);
  return (
    <li>
      <button type="button" className="warning-item" data-testid="warning-item" data-code={w.code} data-node-id={w.nodeId} disabled={!target} onClick={() => target && focusNode(target)}>
        <Icon name="warning" size={14} />
        <span>
          <code>{w.code}</code>
          {d && <span className="chip" style={{ background: OUTCOMES[d].color }}>{OUTCOMES[d].label}</span>} {w.message}
        </span>
      </button>
    </li>
  );
});
