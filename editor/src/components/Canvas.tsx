/** The React Flow canvas: lanes, steps, edges, MiniMap, Controls; interactions come from small hooks. */
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Background, Controls, MarkerType, MiniMap, ReactFlow, useStore as useFlowStore, type DefaultEdgeOptions, type Viewport } from '@xyflow/react';
import { useAutoLayout } from '../hooks/use-auto-layout';
import { openingViewport, useReadyMarks } from '../hooks/use-fit-on-load';
import { useFocusRequest } from '../hooks/use-focus-request';
import { usePaletteDrop } from '../hooks/use-palette-drop';
import type { AppNode } from '../model/types';
import { edgeTypes, nodeTypes } from '../nodes';
import { specOf } from '../nodes/registry';
import { useEditor, useEditorShallow, useEditorStore } from '../store/context';
import { CanvasViewContext } from './canvas-context';
import { usePanSnapshot } from './pan-snapshot';
import { RunBanner } from './RunBanner';

const defaultEdgeOptions: DefaultEdgeOptions = { markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16 } };
/** Above this many steps only what is on screen is drawn (panning a 1,000-step graph stays smooth). */
export const VISIBLE_ONLY_ABOVE = 250;

/**
 * Below this zoom a step's text is unreadable anyway: steps are drawn as coloured blocks (status
 * colours stay) and edge buttons are hidden, which keeps panning a 1,000-step graph smooth.
 */
export const LOW_DETAIL_ZOOM = 0.35;

const miniMapColor = (n: AppNode) => (n.type === 'lane' ? n.data.color : specOf(n.type).accent);

/** `readOnly`: an older version shown for reading (no dragging, connecting, selecting or "+" buttons). */
export function Canvas({ readOnly = false }: { readOnly?: boolean }) {
  const store = useEditorStore();
  const { onDragOver, onDrop } = usePaletteDrop();
  const laidOut = useEditor((s) => s.laidOut);
  const lowDetail = useFlowStore((s) => s.transform[2] < LOW_DETAIL_ZOOM);
  // React Flow starts at the opening view (computed from the laid-out positions and the pane's
  // size), so it draws what that view shows and nothing else.
  const wrap = useRef<HTMLDivElement>(null);
  const [opening, setOpening] = useState<Viewport | null>(null);
  useLayoutEffect(() => {
    const el = wrap.current!;
    setOpening(openingViewport(store.getState().nodes, el.clientWidth || 800, el.clientHeight || 600));
  }, [store]);

  return (
    <div
      ref={wrap}
      className={`canvas${laidOut ? '' : ' layout-pending'}${lowDetail ? ' low-detail' : ''}${readOnly ? ' read-only' : ''}`}
      data-testid="canvas"
      data-read-only={readOnly || undefined}
      aria-label={readOnly ? 'Workflow canvas, read-only' : 'Workflow canvas'}
      role="region"
      onDragOver={readOnly ? undefined : onDragOver}
      onDrop={readOnly ? undefined : onDrop}
    >
      {opening && <Flow opening={opening} lowDetail={lowDetail} readOnly={readOnly} />}
      <RunBanner />
    </div>
  );
}

function Flow({ opening, lowDetail, readOnly }: { opening: Viewport; lowDetail: boolean; readOnly: boolean }) {
  const { nodes, edges, onNodesChange, onEdgesChange, onConnect, beginDrag, endDrag, select, laidOut } = useEditorShallow((s) => ({
    nodes: s.nodes,
    edges: s.edges,
    onNodesChange: s.onNodesChange,
    onEdgesChange: s.onEdgesChange,
    onConnect: s.onConnect,
    beginDrag: s.beginDrag,
    endDrag: s.endDrag,
    select: s.select,
    laidOut: s.laidOut,
  }));
  const large = useEditor((s) => s.nodes.length > VISIBLE_ONLY_ABOVE);
  useAutoLayout(!large);
  // The MiniMap draws every step (not only those in view): drawn right after the canvas is
  // interactive, it no longer holds up the first frame (bench/README.md, editor).
  const ready = useReadyMarks(laidOut);
  useFocusRequest();

  // Where edges portal their labels and buttons (React Flow's label layer) and where the pan
  // snapshot goes (its viewport portal): found once.
  const [layers, setLayers] = useState<{ label: HTMLElement | null; viewport: HTMLElement | null }>({ label: null, viewport: null });
  const flowRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const q = (sel: string) => flowRef.current?.querySelector<HTMLElement>(sel) ?? null;
    setLayers({ label: q('.react-flow__edgelabel-renderer'), viewport: q('.react-flow__viewport-portal') });
  }, []);
  const view = useMemo(() => ({ lowDetail, labelLayer: layers.label }), [lowDetail, layers.label]);
  const snapshot = usePanSnapshot(large && lowDetail, layers.viewport);

  return (
    <CanvasViewContext.Provider value={view}>
      <ReactFlow
        ref={flowRef}
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        defaultEdgeOptions={defaultEdgeOptions}
        defaultViewport={opening}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        onNodeDragStart={() => beginDrag()}
        onNodeDragStop={(_, __, moved) => endDrag(moved.map((n) => n.id))}
        onPaneClick={() => select(null)}
        deleteKeyCode={null}
        selectionKeyCode="Shift"
        multiSelectionKeyCode={['Meta', 'Control']}
        minZoom={0.05}
        maxZoom={2}
        onlyRenderVisibleElements={large}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        elementsSelectable={!readOnly}
        panOnDrag={snapshot.panOnDrag}
        elevateEdgesOnSelect
        nodeDragThreshold={4}
        ariaLabelConfig={{ 'node.a11yDescription.default': 'Press Enter to select a step, Delete to remove it, arrow keys to move it.' }}
      >
        <Background gap={24} size={1} />
        {ready && <MiniMap pannable zoomable nodeColor={miniMapColor} nodeStrokeWidth={2} ariaLabel="Mini map of the workflow" />}
        <Controls showInteractive={false} aria-label="Zoom controls" />
      </ReactFlow>
      {snapshot.portal}
    </CanvasViewContext.Provider>
  );
}
