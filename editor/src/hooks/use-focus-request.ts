import { useEffect, useRef } from 'react';
import { useReactFlow } from '@xyflow/react';
import { useEditor, useEditorStore } from '../store/context';

/** Brings a requested step into view and gives it keyboard focus (warnings, errors, new steps, runs). */
export function useFocusRequest() {
  const store = useEditorStore();
  const rf = useReactFlow();
  const request = useEditor((s) => s.focusRequest);
  const applied = useEditor((s) => s.layoutApplied);
  const handled = useRef<{ seq: number; at: number; again: boolean } | null>(null);
  useEffect(() => {
    if (!request) return;
    // Centre on the request, and once more if a layout lands right after it (a step just added moves).
    const h = handled.current;
    if (h && h.seq === request.seq) {
      if (h.again || performance.now() - h.at > 1500) return;
      h.again = true;
    } else handled.current = { seq: request.seq, at: performance.now(), again: false };
    const node = store.getState().nodes.find((n) => n.id === request.nodeId);
    if (!node) return;
    const w = node.measured?.width ?? 240;
    const ht = node.measured?.height ?? 76;
    void rf.setCenter(node.position.x + w / 2, node.position.y + ht / 2, { zoom: Math.max(rf.getZoom(), 0.9), duration: 200 });
    const active = document.activeElement;
    const typing = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement || active instanceof HTMLSelectElement;
    const el = document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(request.nodeId)}"]`);
    if (el && !typing && request.target === 'node') el.focus({ preventScroll: true });
  }, [request, applied, rf, store]);
}
