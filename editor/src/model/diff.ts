/** What differs between two graphs, in the admin's words (the conflict dialog's short diff). Pure. */
import { describeNode } from '../../../engine/graph/digest';
import { deleteNode } from './graph-ops';
import type { Graph, GraphNode } from './types';

export interface GraphDiff {
  added: GraphNode[];
  removed: GraphNode[];
  changed: { before: GraphNode; after: GraphNode }[];
  /** edges or outcome entries differ */
  rewired: boolean;
}

const content = (n: GraphNode) => JSON.stringify({ type: n.type, label: n.label ?? '', config: n.config });
/** Edges and entries among the steps both graphs have: wiring that came with an added or removed step does not count. */
const wiring = (g: Graph, common: ReadonlySet<string>) =>
  JSON.stringify({
    edges: g.edges.filter((e) => common.has(e.source) && common.has(e.target)).map((e) => `${e.source}>${e.sourceHandle ?? ''}>${e.target}`).sort(),
    entries: Object.entries(g.dispositionEntries).filter(([, id]) => common.has(id)).sort(),
  });

export function diffGraphs(from: Graph, to: Graph): GraphDiff {
  const before = new Map(from.nodes.map((n) => [n.id, n]));
  const after = new Map(to.nodes.map((n) => [n.id, n]));
  const common = new Set([...before.keys()].filter((id) => after.has(id)));
  const added = to.nodes.filter((n) => !before.has(n.id));
  const removed = from.nodes.filter((n) => !after.has(n.id));
  return {
    added,
    removed,
    changed: to.nodes.flatMap((n) => {
      const old = before.get(n.id);
      return old && content(old) !== content(n) ? [{ before: old, after: n }] : [];
    }),
    // A removed step's neighbours re-linked around it is part of the removal, not a separate re-wire.
    rewired: wiring(from, common) !== wiring(to, common) && !(removed.length > 0 && sameAfterRelink(from, to, removed)),
  };
}

/** Whether `to`'s wiring is exactly `from` with the removed steps deleted and re-linked around. */
function sameAfterRelink(from: Graph, to: Graph, removed: readonly { id: string }[]): boolean {
  let g = from;
  for (const n of removed) {
    try {
      g = deleteNode(g, n.id);
    } catch {
      return false;
    }
  }
  const kept = new Set(g.nodes.map((n) => n.id));
  const common = new Set(to.nodes.map((n) => n.id).filter((id) => kept.has(id)));
  return wiring(g, common) === wiring(to, common);
}

export const isEmptyDiff = (d: GraphDiff) => !d.added.length && !d.removed.length && !d.changed.length && !d.rewired;

/** One line per node: "n4 send SMS "Hi..."". */
export function describeGraphNode(n: GraphNode): string {
  return `${n.id}${n.label ? ` (${n.label})` : ''}: ${describeNode(n as never)}`;
}
