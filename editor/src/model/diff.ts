/** What differs between two graphs, in the admin's words (the conflict dialog's short diff). Pure. */
import { describeNode } from '../../../engine/graph/digest';
import type { Graph, GraphNode } from './types';

export interface GraphDiff {
  added: GraphNode[];
  removed: GraphNode[];
  changed: { before: GraphNode; after: GraphNode }[];
  /** edges or outcome entries differ */
  rewired: boolean;
}

const content = (n: GraphNode) => JSON.stringify({ type: n.type, label: n.label ?? '', config: n.config });
const wiring = (g: Graph) =>
  JSON.stringify({
    edges: g.edges.map((e) => `${e.source}>${e.sourceHandle ?? ''}>${e.target}`).sort(),
    entries: Object.entries(g.dispositionEntries).sort(),
  });

export function diffGraphs(from: Graph, to: Graph): GraphDiff {
  const before = new Map(from.nodes.map((n) => [n.id, n]));
  const after = new Map(to.nodes.map((n) => [n.id, n]));
  return {
    added: to.nodes.filter((n) => !before.has(n.id)),
    removed: from.nodes.filter((n) => !after.has(n.id)),
    changed: to.nodes.flatMap((n) => {
      const old = before.get(n.id);
      return old && content(old) !== content(n) ? [{ before: old, after: n }] : [];
    }),
    rewired: wiring(from) !== wiring(to),
  };
}

export const isEmptyDiff = (d: GraphDiff) => !d.added.length && !d.removed.length && !d.changed.length && !d.rewired;

/** One line per node: "n4 send SMS "Hi..."". */
export function describeGraphNode(n: GraphNode): string {
  return `${n.id}${n.label ? ` (${n.label})` : ''}: ${describeNode(n as never)}`;
}
