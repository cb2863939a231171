import { createContext, useContext } from 'react';

/**
 * What every node and edge on the canvas needs from it, given once rather than read from React
 * Flow's store by each (a store selector runs for every drawn node on every pan frame):
 * - `lowDetail`: zoomed out below LOW_DETAIL_ZOOM, where steps are drawn as blocks;
 * - `labelLayer`: the element edge labels are portalled into (what `<EdgeLabelRenderer>` finds
 *   with a querySelector in a store selector, i.e. per edge per store update).
 */
export interface CanvasView {
  lowDetail: boolean;
  labelLayer: HTMLElement | null;
}

export const CanvasViewContext = createContext<CanvasView>({ lowDetail: false, labelLayer: null });

export const useCanvasView = () => useContext(CanvasViewContext);
