/**
 * Drag-panning a large graph zoomed far out: while the view moves, the canvas shows a picture of
 * the graph drawn once into a <canvas> when the drag starts, and the browser skips the ~1,000 step
 * and edge elements (content-visibility: hidden) instead of repainting them on every frame. On
 * release the elements are back, unchanged. Nothing can be clicked or dragged during a pan anyway;
 * the picture shows what the blocks show at that zoom (see LOW_DETAIL_ZOOM): step colours and
 * borders, selection, draft, error and run status, lane headers, edges and arrows.
 *
 * The drag is this hook's own (React Flow's drag-to-pan is off meanwhile): each frame writes the
 * viewport element's transform, the background's and the MiniMap view rectangle's, and React Flow
 * gets the view once, on release.
 *
 * Why: at that zoom a frame repainted every step and edge (software raster on the test machines),
 * ~30 fps on 1,000 steps; with the picture, ~50; with no React Flow store update per frame, ~56
 * (docs/editor.md, Performance).
 */
import { useCallback, useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { getSmoothStepPath, Position, useStoreApi, type InternalNode } from '@xyflow/react';
import { isDraft, isStepNode, ORPHAN_LANE, type AppEdge, type AppNode } from '../model/types';
import { laneNote } from '../nodes/LaneNodeView';
import { specOf } from '../nodes/registry';
import { useEditorStore } from '../store/context';

/** Canvas pixels at most (memory, drawing time); the picture covers 3 x 3 views at the view's scale. */
const MAX_PIXELS = 6_000_000;

const mix = (hex: string, pct: number) => {
  const n = parseInt(hex.slice(1), 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.round((v * pct) / 100 + 255 * (1 - pct / 100)));
  return `rgb(${c[0]} ${c[1]} ${c[2]})`;
};

/** Border and glow per state, as styles.css draws `.step` (later rules win, as there). */
function stepLook(n: AppNode, status: string | undefined, error: boolean, inRun: boolean) {
  let border = '#cbd5e1';
  let glow: string | null = null;
  if (n.selected) border = '#2563eb';
  if (error) border = '#dc2626';
  if (status === 'succeeded') (border = '#16a34a'), (glow = 'rgb(22 163 74 / 0.25)');
  if (status === 'failed') (border = '#dc2626'), (glow = 'rgb(220 38 38 / 0.25)');
  if (status === 'evaluated') (border = '#3b82f6'), (glow = 'rgb(59 130 246 / 0.25)');
  if (status === 'skipped') border = '#94a3b8';
  if (n.selected && !glow) glow = 'rgb(37 99 235 / 0.35)';
  return { border, glow, alpha: inRun && !status ? 0.45 : 1 };
}

function roundRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number | number[]) {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

/** `layer`: React Flow's viewport portal (moves and scales with the view). */
export function usePanSnapshot(enabled: boolean, layer: HTMLElement | null) {
  const flow = useStoreApi<AppNode, AppEdge>();
  const editor = useEditorStore();
  const canvasRef = useRef<HTMLCanvasElement>(null);

  /** The flow-space rectangle the picture covers; redrawn when the view leaves it. */
  const drawn = useRef<{ x0: number; y0: number; x1: number; y1: number } | null>(null);

  /** `at`: the view to draw around (default: React Flow's). */
  const draw = useCallback((at?: [number, number, number]) => {
    const canvas = canvasRef.current;
    if (!canvas) return false;
    const { nodeLookup, edges, width, height } = flow.getState();
    const transform = at ?? flow.getState().transform;
    const { run, errors } = editor.getState();
    const box = (n: InternalNode<AppNode>) => ({ x: n.internals.positionAbsolute.x, y: n.internals.positionAbsolute.y, w: n.measured.width ?? 0, h: n.measured.height ?? 0 });
    // The view and one view's size around it (a drag rarely goes further before it is redrawn).
    const [tx, ty, zoom] = transform;
    const vw = width / zoom;
    const vh = height / zoom;
    const x0 = -tx / zoom - vw;
    const y0 = -ty / zoom - vh;
    const x1 = x0 + 3 * vw;
    const y1 = y0 + 3 * vh;
    drawn.current = { x0, y0, x1, y1 };
    const dpr = window.devicePixelRatio || 1;
    const scale = Math.min(zoom * dpr, Math.sqrt(MAX_PIXELS / ((x1 - x0) * (y1 - y0))));
    canvas.width = Math.ceil((x1 - x0) * scale);
    canvas.height = Math.ceil((y1 - y0) * scale);
    Object.assign(canvas.style, { left: `${x0}px`, top: `${y0}px`, width: `${x1 - x0}px`, height: `${y1 - y0}px` });
    const ctx = canvas.getContext('2d')!;
    ctx.setTransform(scale, 0, 0, scale, -x0 * scale, -y0 * scale);
    ctx.clearRect(x0, y0, x1 - x0, y1 - y0);
    const inView = (b: { x: number; y: number; w: number; h: number }) => b.x < x1 && b.x + b.w > x0 && b.y < y1 && b.y + b.h > y0;

    // Edges, under the steps: the same smooth-step paths and closed arrows as on the canvas.
    const handle = (n: InternalNode<AppNode>, type: 'source' | 'target', id: string | null | undefined) => {
      const list = n.internals.handleBounds?.[type] ?? [];
      const h = (id ? list.find((x) => x.id === id) : list[0]) ?? list[0];
      if (!h) return null;
      const p = n.internals.positionAbsolute;
      return { x: p.x + h.x + h.width / 2, y: p.y + h.y + (type === 'source' ? h.height : 0) };
    };
    for (const e of edges) {
      const s = nodeLookup.get(e.source);
      const t = nodeLookup.get(e.target);
      if (!s || !t) continue;
      const a = handle(s, 'source', e.sourceHandle);
      const b = handle(t, 'target', e.targetHandle);
      if (!a || !b || !inView({ x: Math.min(a.x, b.x) - 40, y: Math.min(a.y, b.y) - 40, w: Math.abs(a.x - b.x) + 80, h: Math.abs(a.y - b.y) + 80 })) continue;
      const flowEdge = e.type === 'flow';
      const [d] = getSmoothStepPath({ sourceX: a.x, sourceY: a.y, targetX: b.x, targetY: b.y, sourcePosition: Position.Bottom, targetPosition: Position.Top, borderRadius: 10, ...(flowEdge && { offset: 16 }) });
      const onPath = !!run?.edgeIds[e.id];
      const width = onPath ? 3 : flowEdge && e.selected ? 2.5 : flowEdge ? 1.5 : 1;
      ctx.globalAlpha = flowEdge && run && !onPath ? 0.35 : 1;
      ctx.lineWidth = width;
      ctx.strokeStyle = onPath ? '#16a34a' : flowEdge ? (e.selected ? '#2563eb' : '#94a3b8') : '#cbd5e1';
      ctx.setLineDash(onPath ? [8, 5] : flowEdge ? [] : [4, 4]);
      ctx.stroke(new Path2D(d));
      // ArrowClosed, 16 x 16 marker units of the stroke width over a 20-unit viewBox, pointing down.
      const u = (16 * width) / 20;
      ctx.setLineDash([]);
      ctx.fillStyle = ctx.strokeStyle = '#b1b1b7';
      ctx.lineWidth = u;
      ctx.beginPath();
      ctx.moveTo(b.x - 4 * u, b.y - 5 * u);
      ctx.lineTo(b.x, b.y);
      ctx.lineTo(b.x + 4 * u, b.y - 5 * u);
      ctx.closePath();
      ctx.fill();
    }
    ctx.globalAlpha = 1;

    for (const n of nodeLookup.values()) {
      const node = n.internals.userNode;
      const b = box(n);
      if (!inView({ x: b.x - 4, y: b.y - 4, w: b.w + 8, h: b.h + 8 })) continue;
      if (isStepNode(node)) {
        const accent = specOf(node.type).accent;
        const status = run?.statusByNode[node.id];
        const look = stepLook(node, status, !!errors[node.id], !!run);
        ctx.globalAlpha = look.alpha;
        if (look.glow) {
          ctx.fillStyle = look.glow;
          roundRect(ctx, b.x - 3, b.y - 3, b.w + 6, b.h + 6, 11);
          ctx.fill();
        }
        ctx.fillStyle = look.border;
        roundRect(ctx, b.x, b.y, b.w, b.h, 8);
        ctx.fill();
        ctx.fillStyle = accent;
        roundRect(ctx, b.x, b.y, 12, b.h, [8, 0, 0, 8]);
        ctx.fill();
        ctx.fillStyle = mix(accent, 35);
        roundRect(ctx, b.x + 4, b.y + 1, b.w - 5, b.h - 2, [4, 7, 7, 4]);
        ctx.fill();
        if (isDraft(node.data.config)) {
          // dashed border: gaps of the fill colour over the solid one
          ctx.strokeStyle = mix(accent, 35);
          ctx.lineWidth = 1.2;
          ctx.setLineDash([3, 3]);
          roundRect(ctx, b.x + 0.5, b.y + 0.5, b.w - 1, b.h - 1, 8);
          ctx.stroke();
          ctx.setLineDash([]);
        }
      } else {
        const color = node.data.color;
        ctx.globalAlpha = node.data.emittable ? 1 : 0.6;
        ctx.fillStyle = mix(color, 45);
        roundRect(ctx, b.x, b.y, b.w, b.h, 10);
        ctx.fill();
        ctx.fillStyle = color;
        roundRect(ctx, b.x, b.y, b.w, 10, [10, 10, 0, 0]);
        ctx.fill();
        ctx.fillStyle = mix(color, 12);
        roundRect(ctx, b.x + 1, b.y + 4, b.w - 2, b.h - 5, [0, 0, 9, 9]);
        ctx.fill();
        ctx.beginPath();
        ctx.fillStyle = color;
        ctx.arc(b.x + 14, b.y + 17, 5, 0, Math.PI * 2);
        ctx.fill();
        ctx.fillStyle = '#0f172a';
        ctx.font = "700 14px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
        ctx.textBaseline = 'middle';
        ctx.fillText(node.data.title, b.x + 24, b.y + 17, b.w - 90);
        ctx.font = "400 11px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
        ctx.fillStyle = '#64748b';
        ctx.fillText(laneNote(node.data), b.x + 9, b.y + 38, b.w - 18);
        if (node.data.lane !== ORPHAN_LANE) {
          // its "+ Add" button
          ctx.fillStyle = '#fff';
          ctx.strokeStyle = '#e2e8f0';
          ctx.lineWidth = 1;
          roundRect(ctx, b.x + b.w - 58, b.y + 8, 50, 19, 6);
          ctx.fill();
          ctx.stroke();
          ctx.fillStyle = '#0f172a';
          ctx.fillText('+ Add', b.x + b.w - 48, b.y + 18);
        }
      }
    }
    ctx.globalAlpha = 1;
    return true;
  }, [editor, flow]);

  // The drag itself, while enabled: React Flow's drag-to-pan is off (`panOnDrag`), and this moves
  // React Flow's viewport element, the background pattern and the MiniMap's view rectangle directly,
  // then hands React Flow the final view on release. A pan frame is then one style write: no store
  // update, so none of the ~2,000 drawn steps' and edges' selectors run, and nothing is re-rendered
  // (React Flow re-culled every node and edge and ran a selector per drawn element on every frame,
  // ~18 ms of script a frame with the whole graph in view).
  useEffect(() => {
    const flowEl = layer?.closest<HTMLElement>('.react-flow');
    const root = flowEl?.closest<HTMLElement>('[data-testid="canvas"]');
    if (!enabled || !flowEl || !root) return;
    root.classList.add('direct-pan');
    const onPointerDown = (down: PointerEvent) => {
      const target = down.target as Element | null;
      // Left or middle button on the bare pane, no selection or multi-selection key held.
      if ((down.button !== 0 && down.button !== 1) || !target?.classList.contains('react-flow__pane') || down.shiftKey || down.ctrlKey || down.metaKey) return;
      const { transform, width, height, panZoom } = flow.getState();
      const [tx0, ty0, zoom] = transform;
      const viewport = flowEl.querySelector<HTMLElement>('.react-flow__viewport');
      const background = flowEl.querySelector<SVGSVGElement>('.react-flow__background');
      const mask = flowEl.querySelector<SVGPathElement>('.react-flow__minimap-mask');
      const gap = Number(background?.querySelector('pattern')?.getAttribute('width')) || 0;
      const maskOuter = mask?.getAttribute('d')?.split(/\s*(?=M)/)[0];
      let view: [number, number] | null = null;
      const move = (e: PointerEvent) => {
        const tx = tx0 + e.clientX - down.clientX;
        const ty = ty0 + e.clientY - down.clientY;
        if (!view) {
          if (tx === tx0 && ty === ty0) return;
          if (!draw()) return;
          root.classList.add('pan-snapshot');
          // The background one pattern cell larger on every side, then moved by less than a cell:
          // the same dots, composited instead of repainted every frame.
          if (background && gap) Object.assign(background.style, { left: `${-gap}px`, top: `${-gap}px`, width: `calc(100% + ${2 * gap}px)`, height: `calc(100% + ${2 * gap}px)`, willChange: 'transform' });
        }
        view = [tx, ty];
        if (viewport) viewport.style.transform = `translate(${tx}px,${ty}px) scale(${zoom})`;
        if (background && gap) background.style.transform = `translate(${(tx - tx0) % gap}px,${(ty - ty0) % gap}px)`;
        if (mask && maskOuter) mask.setAttribute('d', `${maskOuter} M${-tx / zoom},${-ty / zoom}h${width / zoom}v${height / zoom}h${-width / zoom}z`);
        // Redraw around the view once it reaches the edge of the picture.
        const d = drawn.current;
        if (d && (-tx / zoom < d.x0 || -ty / zoom < d.y0 || (width - tx) / zoom > d.x1 || (height - ty) / zoom > d.y1)) draw([tx, ty, zoom]);
      };
      const up = () => {
        window.removeEventListener('pointermove', move);
        window.removeEventListener('pointerup', up);
        window.removeEventListener('pointercancel', up);
        if (!view) return;
        // As after React Flow's own drag: the click that ends a drag is not a click on the pane.
        const swallow = (e: MouseEvent) => e.stopPropagation();
        window.addEventListener('click', swallow, { capture: true, once: true });
        setTimeout(() => window.removeEventListener('click', swallow, { capture: true }), 0);
        void panZoom?.setViewport({ x: view[0], y: view[1], zoom });
        if (background) for (const k of ['left', 'top', 'width', 'height', 'willChange', 'transform'] as const) background.style[k] = '';
        root.classList.remove('pan-snapshot');
      };
      window.addEventListener('pointermove', move);
      window.addEventListener('pointerup', up);
      window.addEventListener('pointercancel', up);
    };
    flowEl.addEventListener('pointerdown', onPointerDown);
    return () => {
      flowEl.removeEventListener('pointerdown', onPointerDown);
      root.classList.remove('direct-pan');
    };
  }, [enabled, layer, draw, flow]);

  const portal = layer ? createPortal(<canvas ref={canvasRef} className="pan-snapshot-image" aria-hidden="true" />, layer) : null;
  /** React Flow's own drag-to-pan, off while this one pans. */
  return { panOnDrag: !enabled, portal };
}
