import { GraphRefusal } from './errors.js';
import { DISPOSITIONS, normalizeOutcome } from './outcomes.js';
import type { Graph } from './types.js';
import { validateGraph } from './validate.js';

/**
 * Points an outcome's entry at another existing node, or clears it with `null`. The outcome may be
 * given in any accepted spelling. Nodes the old entry led to stay in the graph (reported as
 * unreachable until something points at them again). Returns a new graph.
 * Refusals: unknown outcome (VALIDATION), unknown node (NOT_FOUND).
 */
export function switchOutcome(graph: Graph, outcome: string, nodeId: string | null): Graph {
  const disposition = normalizeOutcome(outcome);
  if (!disposition) {
    throw new GraphRefusal('VALIDATION', `outcome: ${JSON.stringify(outcome)} is not a known outcome; use one of ${DISPOSITIONS.join(', ')}`, { field: 'outcome' });
  }
  const dispositionEntries = { ...graph.dispositionEntries };
  if (nodeId === null) delete dispositionEntries[disposition];
  else {
    if (!graph.nodes.some((n) => n.id === nodeId)) {
      throw new GraphRefusal('NOT_FOUND', `nodeId: node ${JSON.stringify(nodeId)} is not in this workflow`, { nodeId, field: 'nodeId' });
    }
    dispositionEntries[disposition] = nodeId;
  }
  const result: Graph = { nodes: [...graph.nodes], edges: [...graph.edges], dispositionEntries };
  validateGraph(result);
  return result;
}
