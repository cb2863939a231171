import { useEffect } from 'react';
import { useNodesInitialized } from '@xyflow/react';
import { layoutWorkflow } from '../model/layout';
import { ORPHAN_LANE } from '../model/types';
import { useEditor, useEditorStore } from '../store/context';

/**
 * Lays the graph out after its nodes are measured, and again whenever its structure changes.
 * `measureAll` false (large graphs drawn only where visible) lays out with the fixed node size
 * instead of waiting for every node to be measured.
 */
export function useAutoLayout(measureAll: boolean) {
  const store = useEditorStore();
  const initialized = useNodesInitialized();
  const rev = useEditor((s) => s.layoutRev);
  useEffect(() => {
    if (measureAll && !initialized) return;
    let cancelled = false;
    void layoutWorkflow(store.getState().layoutInput(), ORPHAN_LANE).then((result) => {
      if (!cancelled) store.getState().applyLayout(result, rev);
    });
    return () => {
      cancelled = true;
    };
  }, [store, initialized, rev, measureAll]);
}
