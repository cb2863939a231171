import type { Graph, GraphEdge } from './types.js';
import { isBranch } from './types.js';

/** What removing a step and re-linking around it comes to; the caller words a refusal for its audience. */
export type Relinked =
  | { ok: true; graph: Graph }
  | { ok: false; reason: 'unknown-node' }
  /** a branch with more than one connected chain: which chain survives is the admin's choice */
  | { ok: false; reason: 'branch-with-chains'; nodeType: string; handles: string[] };

/**
 * Removes one node and re-links the chain around it: whatever pointed at it (an edge, keeping its
 * id and sourceHandle, or an outcome's entry) now points at its successor; with no successor, that
 * edge goes (or the outcome is left without an entry). A branch (`if`/`switch`) with at most one
 * connected chain is re-linked to that chain like an action. Pure and free of the validator, so the
 * editor's canvas runs the same rule as DELETE .../nodes/{id} without loading ajv.
 */
export function relinkAround(graph: Graph, nodeId: string): Relinked {
  const node = graph.nodes.find((n) => n.id === nodeId);
  if (!node) return { ok: false, reason: 'unknown-node' };
  const outs = graph.edges.filter((e) => e.source === nodeId);
  if (isBranch(node.type) && outs.length > 1) return { ok: false, reason: 'branch-with-chains', nodeType: node.type, handles: outs.map((e) => e.sourceHandle ?? '(none)') };
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
  return { ok: true, graph: { nodes: graph.nodes.filter((n) => n.id !== nodeId), edges, dispositionEntries } };
}
