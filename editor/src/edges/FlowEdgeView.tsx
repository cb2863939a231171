/** Edges: a step-to-step edge with its branch label and an insert button; the lane's entry edge. */
import { memo } from 'react';
import { createPortal } from 'react-dom';
import { BaseEdge, getSmoothStepPath, type EdgeProps } from '@xyflow/react';
import { useCanvasView } from '../components/canvas-context';
import type { EntryEdge, FlowEdge } from '../model/types';
import { useEditor } from '../store/context';

export const FlowEdgeView = memo(function FlowEdgeView(props: EdgeProps<FlowEdge>) {
  const { id, source, target, data, selected, markerEnd } = props;
  const [path, labelX, labelY] = getSmoothStepPath({ ...props, borderRadius: 10, offset: 16 });
  const onPath = useEditor((s) => !!s.run?.edgeIds[id]);
  const inRun = useEditor((s) => s.run !== null);
  const openAddMenu = useEditor((s) => s.openAddMenu);
  // The label layer (what <EdgeLabelRenderer> portals into) comes from the canvas; zoomed far out
  // the labels and buttons are not drawn (too small to read or hit).
  const { lowDetail, labelLayer } = useCanvasView();
  const cls = ['flow-edge', selected && 'selected', onPath && 'on-path', inRun && !onPath && 'off-path'].filter(Boolean).join(' ');
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} className={cls} interactionWidth={16} />
      {labelLayer &&
        !lowDetail &&
        createPortal(
          <div className={`edge-tools nodrag nopan${onPath ? ' on-path' : ''}`} style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }} data-testid={`edge-${id}`} data-on-path={onPath || undefined}>
            {data?.handleLabel && <span className="edge-label">{data.handleLabel}</span>}
            <button
              type="button"
              className="edge-insert"
              data-testid={`edge-insert-${id}`}
              aria-label={`Insert a step between ${source} and ${target}`}
              title="Insert a step here"
              onClick={() => openAddMenu({ kind: 'edge', edgeId: id }, `between ${source} and ${target}`)}
            >
              +
            </button>
          </div>,
          labelLayer,
        )}
    </>
  );
});

export const EntryEdgeView = memo(function EntryEdgeView(props: EdgeProps<EntryEdge>) {
  const [path] = getSmoothStepPath({ ...props, borderRadius: 10 });
  const onPath = useEditor((s) => !!s.run?.edgeIds[props.id]);
  return <BaseEdge id={props.id} path={path} markerEnd={props.markerEnd} className={`entry-edge${onPath ? ' on-path' : ''}`} />;
});
