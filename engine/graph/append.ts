import type { AppendActionNode, AppendRouterNode } from '../../schemas/workflow.js';
import { GraphRefusal, type GraphProblem } from './errors.js';
import { idAllocator } from './ids.js';
import { layoutGraph, type LayoutInput } from './layout.js';
import { normalizeOutcome, OUTCOMES } from './outcomes.js';
import type { Graph, GraphEdge, NodeType } from './types.js';
import { isBranch } from './types.js';
import { checkNodeConfig, checkNodeType, checkRouterConfig, validateGraph } from './validate.js';
import { chainOf, nodeById } from './walk.js';

/** An action to append: `{ type, label?, config }`. */
export type AppendAction = AppendActionNode;
/** A router: `{ type: 'switch', label?, config: { match?, cases: [{ id?, label, match?, conditions, nodes }], default?: { nodes } } }`. */
export type AppendRouter = AppendRouterNode;
export type AppendNode = AppendAction | AppendRouter;

type NewNode = LayoutInput['nodes'][number];
type Attach = { id: string; handle?: string } | null;

/**
 * Appends nodes, in order, to the end of an outcome's chain (the last node reached by following
 * the single outgoing edge from the entry); when the outcome has no entry, the first new node
 * becomes it. Returns a new graph; the input is never changed.
 *
 * - Ids are derived: nodes `n<k>`, edges `e<k>`, counting up from the highest such id in use
 *   (skipping any id already taken), so they never collide and read in creation order.
 * - A router (`type: "switch"`) becomes one `switch` node (cases without ids get `case-1`, `case-2`…;
 *   the stored config keeps `id, label, match, conditions` per case) plus a linear chain per case
 *   off the handle named by the case id, and the `default` chain off handle `default`. Nothing
 *   may follow a router in the same request.
 * - Refused (VALIDATION): unknown or removed types, an `if` (built with PUT), nested branches in a
 *   case, empty configs (drafts are saved with PUT), config errors and stand-ins, an unknown outcome.
 * - Refused (CONFLICT): the chain already ends in a branch, where "the end" is ambiguous (use PUT).
 * - New nodes are placed by the layout below their predecessor; existing positions are kept.
 */
export function appendNodes(graph: Graph, outcome: string, nodes: readonly AppendNode[]): Graph {
  const disposition = normalizeOutcome(outcome);
  if (!disposition) throw new GraphRefusal('VALIDATION', `outcome: ${JSON.stringify(outcome)} is not a known outcome`, { field: 'outcome' });
  if (!Array.isArray(nodes) || nodes.length === 0) throw new GraphRefusal('VALIDATION', 'nodes: at least one node is required', { field: 'nodes' });

  const newNodeId = idAllocator('n', graph.nodes.map((n) => n.id));
  const newEdgeId = idAllocator('e', graph.edges.map((e) => e.id));

  const problems: GraphProblem[] = [];
  const newNodes: NewNode[] = [];
  const newEdges: GraphEdge[] = [];
  const entries = { ...graph.dispositionEntries };

  const link = (node: NewNode, at: Attach) => {
    newNodes.push(node);
    if (at) newEdges.push({ id: newEdgeId(), source: at.id, target: node.id, ...(at.handle !== undefined && { sourceHandle: at.handle }) });
    else entries[disposition] = node.id;
  };

  /** One action (top level or inside a case): checked, then linked after `at`. */
  const action = (n: AppendAction, field: string, at: Attach, inCase: boolean): Attach => {
    const id = newNodeId();
    if (n === null || typeof n !== 'object') {
      problems.push({ field, nodeId: id, message: `${field}: must be a node object { type, label?, config }` });
      return at;
    }
    const typeProblem = checkNodeType(n.type, field, id);
    if (typeProblem) {
      problems.push(typeProblem);
      return at;
    }
    if (isBranch(n.type)) {
      problems.push({
        field: `${field}.type`,
        nodeId: id,
        message: inCase
          ? `${field}.type: a router case holds actions only (node ${id}); build nested branches by replacing the graph (PUT)`
          : `${field}.type: an if node is built by replacing the graph (PUT) (node ${id}); to branch with append, send a router: type "switch" with cases`,
      });
      return at;
    }
    if (n.label !== undefined && typeof n.label !== 'string') problems.push({ field: `${field}.label`, nodeId: id, message: `${field}.label: must be text (node ${id})` });
    problems.push(...checkNodeConfig(n.type as NodeType, n.config, { field: `${field}.config`, nodeId: id, allowDraft: false }));
    const node: NewNode = { id, type: n.type as NodeType, ...(typeof n.label === 'string' && { label: n.label }), config: structuredCopy(n.config ?? {}) };
    link(node, at);
    return { id };
  };

  /** A router: one switch node plus a chain per case and for `default`. */
  const router = (n: AppendRouter, field: string, at: Attach) => {
    const id = newNodeId();
    const configProblems = checkRouterConfig(n.config, { field: `${field}.config`, nodeId: id });
    if (n.label !== undefined && typeof n.label !== 'string') problems.push({ field: `${field}.label`, nodeId: id, message: `${field}.label: must be text (node ${id})` });
    if (configProblems.length > 0) {
      problems.push(...configProblems);
      return;
    }
    const config = n.config;
    const explicit = new Set(config.cases.flatMap((c) => (c.id === undefined ? [] : [c.id])));
    const generated = new Set<string>();
    const caseIds = config.cases.map((c, k) => {
      if (c.id !== undefined) return c.id;
      let i = k + 1;
      while (explicit.has(`case-${i}`) || generated.has(`case-${i}`)) i++;
      generated.add(`case-${i}`);
      return `case-${i}`;
    });
    const stored = {
      cases: config.cases.map((c, k) => ({
        id: caseIds[k]!,
        label: c.label,
        match: c.match ?? config.match ?? 'all',
        conditions: structuredCopy(c.conditions),
      })),
    };
    link({ id, type: 'switch', ...(typeof n.label === 'string' && { label: n.label }), config: stored }, at);
    const chains: { handle: string; nodes: readonly AppendAction[]; field: string }[] = config.cases.map((c, k) => ({
      handle: caseIds[k]!,
      nodes: c.nodes,
      field: `${field}.config.cases[${k}].nodes`,
    }));
    if (config.default) chains.push({ handle: 'default', nodes: config.default.nodes, field: `${field}.config.default.nodes` });
    for (const chain of chains) {
      let cur: Attach = { id, handle: chain.handle };
      chain.nodes.forEach((a, j) => {
        cur = action(a, `${chain.field}[${j}]`, cur, true);
      });
    }
  };

  // Where the first new node attaches: after the last node of the chain, or as the entry.
  const chain = chainOf(graph, disposition);
  const tailId = chain[chain.length - 1];
  const tail = tailId === undefined ? undefined : nodeById(graph, tailId);
  let at: Attach = tail ? { id: tail.id } : null;
  let routerAt = -1;
  nodes.forEach((n, i) => {
    const field = `nodes[${i}]`;
    if (routerAt >= 0) {
      problems.push({
        field,
        message: `${field}: nothing can follow a router in the same request (nodes[${routerAt}] is a switch); put these actions in its cases or default`,
      });
      return;
    }
    if (n !== null && typeof n === 'object' && n.type === 'switch') {
      routerAt = i;
      router(n as AppendRouter, field, at);
      at = null;
      return;
    }
    at = action(n as AppendAction, field, at, false);
  });
  if (problems.length > 0) throw GraphRefusal.fromProblem(problems[0]!, problems);

  if (tail && isBranch(tail.type)) {
    throw new GraphRefusal(
      'CONFLICT',
      `the ${OUTCOMES[disposition].label} (${disposition}) chain ends in a branch, node ${tail.id} (${tail.type}); where new nodes go after a branch is ambiguous, so re-wire it by replacing the graph (PUT)`,
      { nodeId: tail.id, field: 'outcome', reason: 'ChainEndsInBranch' },
    );
  }

  const next = layoutGraph({ nodes: [...graph.nodes, ...newNodes], edges: [...graph.edges, ...newEdges], dispositionEntries: entries });
  validateGraph(next);
  return next;
}

function structuredCopy<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}
