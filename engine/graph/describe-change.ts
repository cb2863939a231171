import { DISPOSITIONS } from './outcomes.js';
import type { Graph, GraphEdge, GraphNode } from './types.js';
import { outcomeOfNodes } from './walk.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
// An operation keeps what it does not change by reference (configs, edges): no text to compare then.
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);
const sameContent = (a: GraphNode, b: GraphNode) => a.type === b.type && (a.label ?? null) === (b.label ?? null) && same(a.config, b.config);
const samePosition = (a: GraphNode['position'], b: GraphNode['position']) => a === b || (a !== undefined && b !== undefined && a.x === b.x && a.y === b.y);
const names = (nodes: GraphNode[]) => (nodes.length <= 5 ? nodes.map((n) => `${n.id} (${n.type})`).join(', ') : plural(nodes.length, 'node'));

/**
 * A short summary of a write for the version list, from the graphs before and after:
 * `appended 2 nodes to VOICEMAIL`, `deleted n3`, `changed n3 (send-sms)`, `VOICEMAIL now starts at n4`,
 * `moved 3 nodes`, `no change`, or for anything else `replaced graph: 5 nodes, 4 edges`.
 */
export function describeChange(before: Graph, after: Graph): string {
  const old = new Map(before.nodes.map((n) => [n.id, n]));
  const now = new Map(after.nodes.map((n) => [n.id, n]));
  const added = after.nodes.filter((n) => !old.has(n.id));
  const removed = before.nodes.filter((n) => !now.has(n.id));
  const kept = after.nodes.filter((n) => old.has(n.id));
  const changed = kept.filter((n) => !sameContent(n, old.get(n.id)!));
  const moved = kept.filter((n) => !samePosition(n.position, old.get(n.id)!.position));

  const oldEdges = new Map(before.edges.map((e) => [e.id, e]));
  // Every edge of `after` with each id (ids are unique in a valid graph, but a malformed one may repeat them).
  const newEdges = new Map<string, GraphEdge[]>();
  for (const e of after.edges) newEdges.set(e.id, [...(newEdges.get(e.id) ?? []), e]);
  const edgesRemovedOrChanged = before.edges.some((e) => !(newEdges.get(e.id) ?? []).some((x) => same(x, e)));
  const edgesAdded = after.edges.some((e) => !oldEdges.has(e.id));
  const edgesChanged = edgesRemovedOrChanged || edgesAdded;
  const entryChanges = DISPOSITIONS.filter((d) => before.dispositionEntries[d] !== after.dispositionEntries[d]);

  const structural = added.length > 0 || removed.length > 0 || edgesChanged;
  if (!structural && changed.length === 0 && entryChanges.length === 0) {
    return moved.length > 0 ? `moved ${plural(moved.length, 'node')}` : 'no change';
  }

  // Append: only new nodes (and the edges/entry reaching them), all in one outcome's chain.
  if (added.length > 0 && removed.length === 0 && changed.length === 0 && !edgesRemovedOrChanged) {
    const owner = outcomeOfNodes(after);
    const outcomes = new Set(added.map((n) => owner.get(n.id)));
    const [only] = outcomes;
    const entriesOk = entryChanges.every((d) => before.dispositionEntries[d] === undefined && after.dispositionEntries[d] !== undefined && d === only);
    if (outcomes.size === 1 && only !== undefined && entriesOk) return `appended ${plural(added.length, 'node')} to ${only}`;
  }

  // Delete: one node gone, the rest only re-linked.
  if (removed.length === 1 && added.length === 0 && changed.length === 0) return `deleted ${removed[0]!.id}`;

  if (!structural && entryChanges.length === 0) return `changed ${names(changed)}`;
  if (!structural && changed.length === 0) {
    return entryChanges
      .map((d) => (after.dispositionEntries[d] === undefined ? `${d} cleared` : `${d} now starts at ${after.dispositionEntries[d]}`))
      .join('; ');
  }
  return `replaced graph: ${plural(after.nodes.length, 'node')}, ${plural(after.edges.length, 'edge')}`;
}
