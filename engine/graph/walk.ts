/**
 * Walking a graph: the Temporal post-call workflow uses these on its pinned graph, so this module
 * (like conditions and outcomes) stays free of ajv, Node built-ins, the clock and randomness.
 */
import { evaluateIf, selectSwitchCase } from './conditions.js';
import { DISPOSITIONS, normalizeOutcome, type Disposition } from './outcomes.js';
import type { Graph, GraphEdge, GraphNode, IfConfig, SwitchConfig } from './types.js';

/** The node an outcome's chain starts at (any spelling of the outcome), or null. */
export function entryOf(graph: Graph, outcome: string): string | null {
  const direct = graph.dispositionEntries[outcome];
  if (direct !== undefined) return direct;
  const d = normalizeOutcome(outcome);
  return (d && graph.dispositionEntries[d]) || null;
}

export function nodeById(graph: Graph, nodeId: string): GraphNode | undefined {
  return graph.nodes.find((n) => n.id === nodeId);
}

export function outgoing(graph: Graph, nodeId: string): GraphEdge[] {
  return graph.edges.filter((e) => e.source === nodeId);
}

export function incoming(graph: Graph, nodeId: string): GraphEdge[] {
  return graph.edges.filter((e) => e.target === nodeId);
}

/** The node after `nodeId`: for an action, along its handle-less edge; for a branch, along `handle`. */
export function successor(graph: Graph, nodeId: string, handle?: string): string | null {
  const edge = graph.edges.find((e) => e.source === nodeId && (handle === undefined ? !e.sourceHandle : e.sourceHandle === handle));
  return edge?.target ?? null;
}

/** The handles a branch node offers, in display order: `true`,`false` / case ids then `default`. */
export function handlesOf(node: Pick<GraphNode, 'type' | 'config'>): string[] {
  if (node.type === 'if') return ['true', 'false'];
  if (node.type === 'switch') {
    const cases = (node.config as Partial<SwitchConfig>).cases;
    return [...(Array.isArray(cases) ? cases.map((c) => c.id) : []), 'default'];
  }
  return [];
}

/**
 * One step of a run: the handle a branch takes for this context (none for an action) and the node
 * it leads to. A draft `if` takes `false`, a draft `switch` takes `default`.
 */
export function nextStep(graph: Graph, node: GraphNode, ctx: unknown): { handle?: string; next: string | null } {
  if (node.type === 'if') {
    const handle = String(evaluateIf(node.config as Partial<IfConfig>, ctx));
    return { handle, next: successor(graph, node.id, handle) };
  }
  if (node.type === 'switch') {
    const handle = selectSwitchCase(node.config as Partial<SwitchConfig>, ctx);
    return { handle, next: successor(graph, node.id, handle) };
  }
  return { next: successor(graph, node.id) };
}

/**
 * The linear chain from a node: ids following handle-less edges, ending at the last action or at
 * the first branch node (included). Stops on a repeat, so a malformed graph cannot loop.
 */
export function chainFrom(graph: Graph, start: string | null): string[] {
  // Each node's handle-less successor, as `successor` finds it (the first such edge): one pass over
  // the edges instead of one a step, which made a chain of n steps cost n times the edges.
  const next = new Map<string, string>();
  for (const e of graph.edges) if (!e.sourceHandle && !next.has(e.source)) next.set(e.source, e.target);
  const out: string[] = [];
  const seen = new Set<string>();
  let cur = start;
  while (cur !== null && !seen.has(cur)) {
    seen.add(cur);
    out.push(cur);
    cur = next.get(cur) ?? null;
  }
  return out;
}

/** The linear chain of an outcome (see `chainFrom`); empty when the outcome has no entry. */
export const chainOf = (graph: Graph, outcome: string): string[] => chainFrom(graph, entryOf(graph, outcome));

/** Every node reachable from `starts` along any edge (depth-first, in edge order). */
export function reachableFrom(graph: Graph, starts: Iterable<string>): string[] {
  const next = new Map<string, string[]>();
  for (const e of graph.edges) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
  const seen = new Set<string>();
  const order: string[] = [];
  const stack = [...starts].reverse();
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    order.push(id);
    const targets = next.get(id) ?? [];
    for (let i = targets.length - 1; i >= 0; i--) stack.push(targets[i]!);
  }
  return order;
}

/** Every node reachable from any outcome entry. */
export function reachable(graph: Graph): Set<string> {
  return new Set(reachableFrom(graph, Object.values(graph.dispositionEntries)));
}

/** For each reachable node, the first outcome (canonical order) whose chain reaches it. */
export function outcomeOfNodes(graph: Graph): Map<string, Disposition> {
  const out = new Map<string, Disposition>();
  for (const d of DISPOSITIONS) {
    const entry = graph.dispositionEntries[d];
    if (entry === undefined) continue;
    for (const id of reachableFrom(graph, [entry])) if (!out.has(id)) out.set(id, d);
  }
  return out;
}
