import { useEffect, useRef, useState } from 'react';
import { useStore as useFlowStore } from '@xyflow/react';
import { loadNodeForm } from '../components/SidePanel';
import { LANE_HEADER_HEIGHT, NODE_HEIGHT, NODE_WIDTH } from '../model/layout';
import type { AppNode } from '../model/types';
import { isStepNode } from '../model/types';

/**
 * The viewport that shows `nodes` in a pane of `width` x `height` (sizes are known without
 * measuring: nodes have fixed sizes). Text stays readable: the zoom never goes below `minZoom`;
 * what does not fit then starts at the top left (the first lanes), the MiniMap shows the rest.
 */
export function viewportFor(nodes: readonly AppNode[], width: number, height: number, opts: { minZoom: number; maxZoom: number; padding: number }) {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const n of nodes) {
    const w = n.measured?.width ?? NODE_WIDTH;
    const h = n.measured?.height ?? (n.type === 'lane' ? LANE_HEADER_HEIGHT : NODE_HEIGHT);
    x0 = Math.min(x0, n.position.x);
    y0 = Math.min(y0, n.position.y);
    x1 = Math.max(x1, n.position.x + w);
    y1 = Math.max(y1, n.position.y + h);
  }
  if (!Number.isFinite(x0)) return { x: 0, y: 0, zoom: 1 };
  const p = opts.padding;
  const bw = x1 - x0;
  const bh = y1 - y0;
  const zoom = Math.min(opts.maxZoom, Math.max(opts.minZoom, Math.min((width - 2 * p) / bw, (height - 2 * p) / bh)));
  const x = bw * zoom <= width - 2 * p ? (width - bw * zoom) / 2 - x0 * zoom : p - x0 * zoom;
  const y = bh * zoom <= height - 2 * p ? Math.min(p * 2, (height - bh * zoom) / 2) - y0 * zoom : p - y0 * zoom;
  return { x, y, zoom };
}

/**
 * The view a workflow opens at, from its laid-out positions: all of it, or the top of every lane
 * when it is large. Given to React Flow as its `defaultViewport`, so the canvas is framed from its
 * first frame and only what that view shows is drawn (no fitView, which would wait for every node
 * to be measured).
 */
export function openingViewport(nodes: readonly AppNode[], width: number, height: number) {
  const steps = nodes.filter(isStepNode);
  const large = steps.length > 120;
  const frame = large ? [...nodes.filter((n) => n.type === 'lane'), ...steps.filter((n) => n.position.y < 700)] : nodes;
  return viewportFor(frame, width, height, { minZoom: large ? 0.3 : 0.7, maxZoom: 1, padding: 24 });
}

/**
 * Once React Flow has its size (and so has drawn the nodes in view) and the graph is laid out:
 * marks the canvas ready on the next frame (`vc:first-render`, `vc:interactive`, data-ready) and
 * warms the step forms so the first click on a step opens its form at once. Returns whether that
 * has happened, for what draws after the canvas.
 */
export function useReadyMarks(laidOut: boolean): boolean {
  const sized = useFlowStore((s) => s.width > 0 && s.height > 0);
  const done = useRef(false);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!laidOut || !sized || done.current) return;
    done.current = true;
    requestAnimationFrame(() => {
      performance.mark('vc:first-render');
      performance.mark('vc:interactive');
      document.querySelector('[data-testid="canvas"]')?.setAttribute('data-ready', 'true');
      setReady(true);
      void loadNodeForm();
    });
  }, [laidOut, sized]);
  return ready;
}
