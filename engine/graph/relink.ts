import { GraphRefusal } from './errors.js';
import type { Graph } from './types.js';
import { relinkAround } from './relink-around.js';
import { validateGraph } from './validate.js';

/**
 * DELETE .../nodes/{id}: the node removed and its chain re-linked (relink-around.ts), the result
 * validated. A branch with more than one connected chain is refused (VALIDATION): which chain
 * should survive is the admin's decision, made with PUT. An unknown node is NOT_FOUND.
 */
export function deleteNode(graph: Graph, nodeId: string): Graph {
  const r = relinkAround(graph, nodeId);
  if (!r.ok && r.reason === 'unknown-node') throw new GraphRefusal('NOT_FOUND', `node ${JSON.stringify(nodeId)} is not in this workflow`, { nodeId, field: 'nodeId' });
  if (!r.ok) {
    throw new GraphRefusal(
      'VALIDATION',
      `node ${nodeId} (${r.nodeType}) has ${r.handles.length} connected branches (${r.handles.join(', ')}); deleting it would drop all but one of them. Delete the nodes of the branches you no longer want first, or re-wire the graph with PUT`,
      { nodeId, field: 'nodeId' },
    );
  }
  validateGraph(r.graph);
  return r.graph;
}
