/**
 * Pure edits of the working graph: add, insert, connect, disconnect, paste. Each returns a new
 * graph (never mutates) or throws an EditRefusal with a sentence the admin can act on.
 */
import { chainOf } from '../../../engine/graph/walk';
import { relinkAround } from '../../../engine/graph/relink-around';
import type { Disposition, Graph, GraphEdge, GraphNode, InsertPoint, NodeType } from './types';

export class EditRefusal extends Error {}

/** `n<k>` / `e<k>` one above the highest in use: the same scheme the server uses for appended nodes. */
export function nextId(ids: Iterable<string>, prefix: 'n' | 'e'): string {
  let max = 0;
  const re = new RegExp(`^${prefix}(\\d+)$`);
  for (const id of ids) {
    const m = re.exec(id);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return `${prefix}${max + 1}`;
}

const nodeIds = (g: Graph) => g.nodes.map((n) => n.id);
const edgeIds = (g: Graph) => g.edges.map((e) => e.id);

/** The source handles a node has: `true`/`false` for if, case ids and `default` for switch, one unnamed otherwise. */
export function handlesOf(node: Pick<GraphNode, 'type' | 'config'>): { id: string | undefined; label: string }[] {
  if (node.type === 'if') return [{ id: 'true', label: 'true' }, { id: 'false', label: 'false' }];
  if (node.type === 'switch') {
    const cases = ((node.config as { cases?: { id: string; label: string }[] }).cases ?? []).map((c) => ({ id: c.id, label: c.label || c.id }));
    return [...cases, { id: 'default', label: 'otherwise' }];
  }
  return [{ id: undefined, label: '' }];
}

/** The handle a new branch node continues an existing chain on when inserted in the middle of it. */
function continuationHandle(type: NodeType): string | undefined {
  return type === 'if' ? 'true' : type === 'switch' ? 'default' : undefined;
}

const sameHandle = (a: string | undefined | null, b: string | undefined | null) => (a ?? undefined) === (b ?? undefined);

export function outgoingEdge(g: Graph, nodeId: string, handle: string | undefined): GraphEdge | undefined {
  return g.edges.find((e) => e.source === nodeId && sameHandle(e.sourceHandle, handle));
}

/** Whether `from` can reach `to` by following edges (used to refuse cycles). */
export function reaches(g: Graph, from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const e of g.edges) if (e.source === id) stack.push(e.target);
  }
  return false;
}

export interface NewNode {
  type: NodeType;
  label?: string;
  config: Record<string, unknown>;
  position?: { x: number; y: number };
}

export interface AddResult {
  graph: Graph;
  nodeId: string;
  /** set when the server's append endpoint would produce exactly this graph: the node ends the outcome's main chain */
  appendedTo?: Disposition;
}

/** The last step of a lane's main chain (following unnamed handles from its entry). */
export function chainTail(g: Graph, lane: string): string | undefined {
  return chainOf(g, lane).at(-1);
}

/** Adds one node at an insert point: the end of a lane, after a node (on a handle), or on an edge. */
export function addNode(g: Graph, at: InsertPoint, node: NewNode): AddResult {
  const id = nextId(nodeIds(g), 'n');
  const created: GraphNode = { id, type: node.type, ...(node.label && { label: node.label }), config: node.config, position: node.position ?? { x: 0, y: 0 } };
  const edges = [...g.edges];
  const entries = { ...g.dispositionEntries };
  const newEdgeId = () => nextId(edges.map((e) => e.id), 'e');
  let appendedTo: Disposition | undefined;

  if (at.kind === 'lane') {
    const chain = chainOf(g, at.lane);
    const tail = chain.at(-1);
    if (!tail) {
      entries[at.lane] = id;
      appendedTo = node.type === 'if' || node.type === 'switch' ? undefined : at.lane;
    } else {
      const tailNode = g.nodes.find((n) => n.id === tail)!;
      if (tailNode.type === 'if' || tailNode.type === 'switch') {
        throw new EditRefusal(`the ${at.lane} chain ends in a branch; add the step on one of its handles`);
      }
      edges.push({ id: newEdgeId(), source: tail, target: id });
      appendedTo = node.type === 'if' || node.type === 'switch' ? undefined : at.lane;
    }
    return { graph: { nodes: [...g.nodes, created], edges, dispositionEntries: entries }, nodeId: id, ...(appendedTo && { appendedTo }) };
  }

  if (at.kind === 'after') {
    const source = g.nodes.find((n) => n.id === at.nodeId);
    if (!source) throw new EditRefusal(`node ${at.nodeId} is not in this workflow`);
    const existing = outgoingEdge(g, at.nodeId, at.handle);
    if (existing) return addNode(g, { kind: 'edge', edgeId: existing.id }, node);
    edges.push({ id: newEdgeId(), source: at.nodeId, target: id, ...(at.handle !== undefined && { sourceHandle: at.handle }) });
    // The server's append goes to the end of the outcome's main chain: same result when this node is that end.
    if (at.handle === undefined && node.type !== 'if' && node.type !== 'switch') {
      for (const [lane, entry] of Object.entries(g.dispositionEntries)) {
        const chain = chainOf(g, lane);
        if (entry && chain.at(-1) === at.nodeId) appendedTo = lane as Disposition;
      }
    }
    return { graph: { nodes: [...g.nodes, created], edges, dispositionEntries: entries }, nodeId: id, ...(appendedTo && { appendedTo }) };
  }

  const edge = g.edges.find((e) => e.id === at.edgeId);
  if (!edge) throw new EditRefusal(`edge ${at.edgeId} is not in this workflow`);
  const rest = edges.filter((e) => e.id !== edge.id);
  const into: GraphEdge = { ...edge, target: id };
  const handle = continuationHandle(node.type);
  const out: GraphEdge = { id: nextId([...edgeIds(g)], 'e'), source: id, target: edge.target, ...(handle !== undefined && { sourceHandle: handle }) };
  return { graph: { nodes: [...g.nodes, created], edges: [...rest, into, out], dispositionEntries: entries }, nodeId: id };
}

/** Inserts a node before the entry of a lane (the new node becomes the entry). */
export function insertAtLaneStart(g: Graph, lane: Disposition, node: NewNode): AddResult {
  const entry = g.dispositionEntries[lane];
  if (!entry) return addNode(g, { kind: 'lane', lane }, node);
  const id = nextId(nodeIds(g), 'n');
  const handle = continuationHandle(node.type);
  const created: GraphNode = { id, type: node.type, ...(node.label && { label: node.label }), config: node.config, position: node.position ?? { x: 0, y: 0 } };
  return {
    graph: {
      nodes: [...g.nodes, created],
      edges: [...g.edges, { id: nextId(edgeIds(g), 'e'), source: id, target: entry, ...(handle !== undefined && { sourceHandle: handle }) }],
      dispositionEntries: { ...g.dispositionEntries, [lane]: id },
    },
    nodeId: id,
  };
}

/**
 * Removes a node and re-links around it by the rule DELETE .../nodes/{id} applies
 * (engine/graph/relink-around.ts), worded for the canvas; the server re-validates on save.
 */
export function deleteNode(g: Graph, nodeId: string): Graph {
  const r = relinkAround(g, nodeId);
  if (r.ok) return r.graph;
  if (r.reason === 'unknown-node') throw new EditRefusal(`step ${nodeId} is not in this workflow`);
  throw new EditRefusal(`${nodeId} is a branch with ${r.handles.length} connected chains; delete the steps of the chains you no longer want first, so that at most one is left`);
}

/**
 * Wires `source` (on `handle`) to `target`, replacing whatever that handle pointed at: a chain is
 * linear, one edge per handle. Refuses a cycle.
 */
export function connect(g: Graph, source: string, handle: string | undefined, target: string): Graph {
  if (source === target) throw new EditRefusal('a step cannot lead to itself');
  if (reaches(g, target, source)) throw new EditRefusal(`connecting ${source} to ${target} would make a loop; a run must always end`);
  const kept = g.edges.filter((e) => !(e.source === source && sameHandle(e.sourceHandle, handle)));
  const replaced = g.edges.find((e) => e.source === source && sameHandle(e.sourceHandle, handle));
  const id = replaced?.id ?? nextId(edgeIds(g), 'e');
  return { ...g, edges: [...kept, { id, source, target, ...(handle !== undefined && { sourceHandle: handle }) }] };
}

/** Points a lane at a node (or clears it). */
export function setEntry(g: Graph, lane: string, nodeId: string | null): Graph {
  const entries = { ...g.dispositionEntries };
  if (nodeId) entries[lane] = nodeId;
  else delete entries[lane];
  return { ...g, dispositionEntries: entries };
}

export function removeEdges(g: Graph, ids: ReadonlySet<string>): Graph {
  return { ...g, edges: g.edges.filter((e) => !ids.has(e.id)) };
}

/** Replaces a node's label and config; a switch that lost a case loses the edge on that handle. */
export function updateNode(g: Graph, nodeId: string, change: { label?: string | undefined; config: Record<string, unknown> }): Graph {
  const nodes = g.nodes.map((n) => {
    if (n.id !== nodeId) return n;
    const { label: _old, ...rest } = n;
    return { ...rest, ...(change.label ? { label: change.label } : {}), config: change.config };
  });
  const node = nodes.find((n) => n.id === nodeId)!;
  let edges = g.edges;
  if (node.type === 'switch') {
    const valid = new Set(handlesOf(node).map((h) => h.id));
    edges = edges.filter((e) => e.source !== nodeId || valid.has(e.sourceHandle));
  }
  return { ...g, nodes, edges };
}

/** What Ctrl/Cmd+C keeps: the nodes and the edges between them. */
export interface Clipboard {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export function copyNodes(g: Graph, ids: ReadonlySet<string>): Clipboard | null {
  const nodes = g.nodes.filter((n) => ids.has(n.id));
  if (nodes.length === 0) return null;
  return { nodes: structuredClone(nodes), edges: structuredClone(g.edges.filter((e) => ids.has(e.source) && ids.has(e.target))) };
}

/** The copied nodes in chain order when they form one linear run of action steps, else null. */
function linearOrder(c: Clipboard): GraphNode[] | null {
  if (c.nodes.some((n) => n.type === 'if' || n.type === 'switch')) return null;
  if (c.edges.length !== c.nodes.length - 1) return null;
  const targets = new Set(c.edges.map((e) => e.target));
  const heads = c.nodes.filter((n) => !targets.has(n.id));
  if (heads.length !== 1) return null;
  const order: GraphNode[] = [];
  let cur: GraphNode | undefined = heads[0];
  while (cur) {
    order.push(cur);
    const next = c.edges.find((e) => e.source === cur!.id);
    cur = next ? c.nodes.find((n) => n.id === next.target) : undefined;
  }
  return order.length === c.nodes.length ? order : null;
}

/**
 * Pastes copies with fresh ids. A copied linear chain of actions is spliced in after `after` (a
 * node, on its first handle); anything else lands unconnected beside the originals, to be wired.
 */
export function paste(g: Graph, c: Clipboard, after: string | null): { graph: Graph; ids: string[] } {
  const ids = new Map<string, string>();
  let graph = g;
  const allIds = [...nodeIds(g)];
  for (const n of c.nodes) {
    const id = nextId(allIds, 'n');
    allIds.push(id);
    ids.set(n.id, id);
  }
  const chain = after ? linearOrder(c) : null;
  const afterNode = after ? g.nodes.find((n) => n.id === after) : undefined;
  if (chain && afterNode && afterNode.type !== 'if' && afterNode.type !== 'switch') {
    let at: string = afterNode.id;
    for (const n of chain) {
      const res = addNode(graph, { kind: 'after', nodeId: at }, { type: n.type, ...(n.label && { label: n.label }), config: structuredClone(n.config) });
      graph = res.graph;
      ids.set(n.id, res.nodeId);
      at = res.nodeId;
    }
    return { graph, ids: chain.map((n) => ids.get(n.id)!) };
  }
  const offset = 40;
  const nodes = c.nodes.map((n) => ({ ...structuredClone(n), id: ids.get(n.id)!, position: { x: n.position.x + offset, y: n.position.y + offset } }));
  const edges = [...g.edges];
  for (const e of c.edges) edges.push({ ...e, id: nextId(edges.map((x) => x.id), 'e'), source: ids.get(e.source)!, target: ids.get(e.target)! });
  return { graph: { nodes: [...g.nodes, ...nodes], edges, dispositionEntries: g.dispositionEntries }, ids: nodes.map((n) => n.id) };
}
