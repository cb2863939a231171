import { useCallback, type DragEvent } from 'react';
import { useReactFlow } from '@xyflow/react';
import { asDisposition } from '../model/flow';
import type { NodeType } from '../model/types';
import { isStepNode } from '../model/types';
import { STEP_TYPES } from '../nodes/registry';
import { useEditorStore } from '../store/context';

export const DRAG_MIME = 'application/x-vc-step-type';

/**
 * Dropping a palette item on the canvas: on a step, the new step goes after it; elsewhere, at the
 * end of the lane whose column is nearest.
 */
export function usePaletteDrop() {
  const store = useEditorStore();
  const rf = useReactFlow();
  const onDragOver = useCallback((e: DragEvent) => {
    if (!e.dataTransfer.types.includes(DRAG_MIME)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  }, []);
  const onDrop = useCallback(
    (e: DragEvent) => {
      const type = e.dataTransfer.getData(DRAG_MIME) as NodeType;
      if (!(STEP_TYPES as readonly string[]).includes(type)) return;
      e.preventDefault();
      const at = rf.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      const s = store.getState();
      const hit = rf.getIntersectingNodes({ x: at.x, y: at.y, width: 1, height: 1 }).find((n) => n.type !== 'lane');
      if (hit) {
        s.addNode(type, { kind: 'after', nodeId: hit.id });
        return;
      }
      let best: { lane: string; d: number } | null = null;
      for (const n of s.nodes) {
        if (n.type !== 'lane') continue;
        const d = Math.abs(n.position.x + 120 - at.x);
        if (!best || d < best.d) best = { lane: n.data.lane, d };
      }
      const lane = best && asDisposition(best.lane);
      if (lane) s.addNode(type, { kind: 'lane', lane });
      else if (s.nodes.some(isStepNode)) s.notify('Drop the step on a lane or on a step.');
    },
    [rf, store],
  );
  return { onDragOver, onDrop };
}
