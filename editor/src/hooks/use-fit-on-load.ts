import { useEffect, useRef } from 'react';
import { useReactFlow } from '@xyflow/react';
import { isStepNode } from '../model/types';
import { useEditor, useEditorStore } from '../store/context';

/** Frames the workflow once its first layout is in: all of it, or the top of every lane when it is large. */
export function useFitOnLoad() {
  const store = useEditorStore();
  const rf = useReactFlow();
  const laidOut = useEditor((s) => s.laidOut);
  const done = useRef(false);
  useEffect(() => {
    if (!laidOut || done.current) return;
    done.current = true;
    const nodes = store.getState().nodes;
    const steps = nodes.filter(isStepNode);
    const large = steps.length > 120;
    const frame = large ? [...nodes.filter((n) => n.type === 'lane'), ...steps.filter((n) => n.position.y < 700)] : nodes;
    requestAnimationFrame(() => {
      void rf.fitView({ nodes: frame.map((n) => ({ id: n.id })), padding: 0.12, maxZoom: 1, minZoom: large ? 0.3 : 0.1 }).then(() => {
        performance.mark('vc:interactive');
        document.querySelector('[data-testid="canvas"]')?.setAttribute('data-ready', 'true');
      });
    });
  }, [laidOut, rf, store]);
}
