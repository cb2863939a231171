import { GraphRefusal } from './errors.js';
import type { Graph, GraphEdge } from './types.js';
import { isBranch } from './types.js';
import { validateGraph } from './validate.js';

/**
 * Removes one node and re-links the chain around it: whatever pointed at it (an edge, keeping its
 * id and sourceHandle, or an outcome's entry) now points at its successor; with no successor, that
 * edge goes (or the outcome is left without an entry). Returns a new graph.
 *
 * A branch node (`if`/`switch`) with more than one connected chain is refused (VALIDATION): which
 * chain should survive is the admin's decision, made with PUT. With at most one, it is re-linked
 * to that chain like an action. An unknown node is NOT_FOUND.
 */
export function deleteNode(graph: Graph, nodeId: string): Graph {
  const node = graph.nodes.find((n) => n.id === nodeId);
  if (!node) throw new GraphRefusal('NOT_FOUND', `node ${JSON.stringify(nodeId)} is not in this workflow`, { nodeId, field: 'nodeId' });
  const outs = graph.edges.filter((e) => e.source === nodeId);
  if (isBranch(node.type) && outs.length > 1) {
    const handles = outs.map((e) => e.sourceHandle ?? '(none)').join(', ');
    throw new GraphRefusal(
      'VALIDATION',
      `node ${nodeId} (${node.type}) has ${outs.length} connected branches (${handles}); deleting it would drop all but one of them. Delete the nodes of the branches you no longer want first, or re-wire the graph with PUT`,
      { nodeId, field: 'nodeId' },
    );
  }
  const next = outs[0]?.target ?? null;

  const edges: GraphEdge[] = [];
  for (const e of graph.edges) {
    if (e.source === nodeId) continue;
    if (e.target !== nodeId) edges.push(e);
    else if (next !== null) edges.push({ ...e, target: next });
  }
  const dispositionEntries: Record<string, string> = {};
  for (const [outcome, entry] of Object.entries(graph.dispositionEntries)) {
    if (entry !== nodeId) dispositionEntries[outcome] = entry;
    else if (next !== null) dispositionEntries[outcome] = next;
  }
  const result: Graph = { nodes: graph.nodes.filter((n) => n.id !== nodeId), edges, dispositionEntries };
  validateGraph(result);
  return result;
}
