/**
 * The floor of the editor's load (bench/editor.ts): bare React Flow drawing the same workflow, at
 * the positions the server's layout gives, in a pane of the editor's canvas size at the editor's
 * opening view, with React Flow's own nodes, Background and Controls, after one read of the
 * graph. None of the editor: no shell, store, layout, forms or warnings.
 * Marks `vc:interactive` as the editor does: on the frame after React Flow has its size.
 */
import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { Background, Controls, ReactFlow, useStore, type Edge, type Node, type Viewport } from '@xyflow/react';
import '@xyflow/react/dist/style.css';

interface Floor {
  nodes: Node[];
  edges: Edge[];
  /** the editor's canvas size and opening view: the floor draws what the editor's view shows */
  pane: { width: number; height: number; viewport: Viewport } | null;
}

function ReadyMark() {
  const sized = useStore((s) => s.width > 0 && s.height > 0);
  useEffect(() => {
    if (!sized) return;
    requestAnimationFrame(() => {
      performance.mark('vc:interactive');
      document.body.setAttribute('data-ready', 'true');
    });
  }, [sized]);
  return null;
}

void fetch('/graph')
  .then((r) => r.json() as Promise<Floor>)
  .then(({ nodes, edges, pane }) => {
    if (!pane) throw new Error('the floor has no pane: the bench gives it the editor\'s (frame) before loading it');
    const root = document.getElementById('root')!;
    Object.assign(root.style, { width: `${pane.width}px`, height: `${pane.height}px` });
    createRoot(root).render(
      <ReactFlow defaultNodes={nodes} defaultEdges={edges} defaultViewport={pane.viewport} onlyRenderVisibleElements={nodes.length > 250} minZoom={0.05} maxZoom={2}>
        <Background gap={24} size={1} />
        <Controls showInteractive={false} />
        <ReadyMark />
      </ReactFlow>,
    );
  });
