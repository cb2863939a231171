import { useEffect } from 'react';
import { useNodesInitialized } from '@xyflow/react';
import { layoutWorkflow } from '../model/layout';
import { ORPHAN_LANE } from '../model/types';
import { useEditor, useEditorStore } from '../store/context';

/**
 * Lays the graph out again whenever its structure changes, after new nodes are measured.
 * `measureAll` false (large graphs drawn only where visible) lays out with the fixed node size
 * instead of waiting for every node to be measured.
 */
export function useAutoLayout(measureAll: boolean) {
  const store = useEditorStore();
  const initialized = useNodesInitialized();
  const rev = useEditor((s) => s.layoutRev);
  // Large graphs draw only what is on screen, so "all measured" flips as the view moves: ignore it.
  const ready = measureAll ? initialized : true;
  useEffect(() => {
    // The first layout is done before the canvas is drawn (openEditorStore).
    if (!ready || store.getState().laidOutRev === rev) return;
    let cancelled = false;
    performance.mark('vc:layout-start');
    void layoutWorkflow(store.getState().layoutInput(), ORPHAN_LANE).then((result) => {
      performance.mark('vc:layout-done');
      if (!cancelled) store.getState().applyLayout(result, rev);
    });
    return () => {
      cancelled = true;
    };
  }, [store, ready, rev]);
}
