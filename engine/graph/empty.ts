import type { Graph } from './types.js';

/** A graph with no nodes: every outcome "does nothing". A fresh object each call. */
export const emptyGraph = (): Graph => ({ nodes: [], edges: [], dispositionEntries: {} });
