/**
 * Unsaved changes, and the one request that saves them. Edits are recorded as a short log; Save
 * picks the narrowest endpoint that says exactly what changed:
 *
 * - steps added at the end of one outcome's chain, nothing else  -> POST .../outcomes/{o}/nodes
 * - one step deleted, nothing else                                 -> DELETE .../nodes/{id}
 * - labels or settings of existing steps changed, nothing else     -> PATCH (merge)
 * - anything else (insert, re-wire, branch, move, paste, undo...)  -> PUT the whole graph
 *
 * Each of those is one atomic write carrying `expectedVersion`. Pure: no I/O, no React.
 */
import type { AppendRequestNode, GraphBody, PatchNodeBody as PatchNode } from '../api/types';
import type { Disposition, Graph, GraphNode } from './types';
import { isDraft } from './types';

export type PendingOp =
  | { kind: 'append'; lane: Disposition; nodeIds: string[] }
  | { kind: 'delete'; nodeId: string }
  | { kind: 'patch'; nodeIds: string[] }
  | { kind: 'graph'; what: string };

/** Adds an edit to the log, folding it into the previous one where the result is the same request. */
export function recordOp(ops: readonly PendingOp[], op: PendingOp): PendingOp[] {
  const last = ops.at(-1);
  if (op.kind === 'append' && last?.kind === 'append' && last.lane === op.lane) {
    return [...ops.slice(0, -1), { ...last, nodeIds: [...last.nodeIds, ...op.nodeIds] }];
  }
  if (op.kind === 'patch') {
    // Settings of a step that is itself still unsaved travel with the step that adds it.
    const appended = new Set(ops.flatMap((o) => (o.kind === 'append' ? o.nodeIds : [])));
    const rest = op.nodeIds.filter((id) => !appended.has(id));
    if (rest.length === 0) return [...ops];
    const patch = ops.find((o) => o.kind === 'patch');
    if (patch && patch === last) return [...ops.slice(0, -1), { kind: 'patch', nodeIds: [...new Set([...patch.nodeIds, ...rest])] }];
    return [...ops, { kind: 'patch', nodeIds: rest }];
  }
  if (op.kind === 'delete') {
    // Deleting a step that was only added in this session: it simply is not added.
    const i = ops.findIndex((o) => o.kind === 'append' && o.nodeIds.includes(op.nodeId));
    if (i >= 0 && i === ops.length - 1) {
      const a = ops[i] as Extract<PendingOp, { kind: 'append' }>;
      const nodeIds = a.nodeIds.filter((id) => id !== op.nodeId);
      // Only the tail of an append can go without changing what the append would produce.
      if (a.nodeIds.at(-1) === op.nodeId) return nodeIds.length ? [...ops.slice(0, i), { ...a, nodeIds }] : ops.slice(0, i);
    }
  }
  return [...ops, op];
}

export type SavePlan =
  | { kind: 'none' }
  | { kind: 'append'; lane: Disposition; nodes: AppendRequestNode[] }
  | { kind: 'delete'; nodeId: string }
  | { kind: 'patch'; nodes: PatchNode[] }
  | { kind: 'put'; graph: GraphBody };

/** The request body of a PUT: the graph as the API takes it, positions rounded. */
export function toGraphBody(g: Graph): GraphBody {
  return {
    nodes: g.nodes.map((n) => ({
      id: n.id,
      type: n.type,
      ...(n.label ? { label: n.label } : {}),
      config: n.config,
      position: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
    })),
    edges: g.edges.map((e) => ({ id: e.id, source: e.source, target: e.target, ...(e.sourceHandle !== undefined && e.sourceHandle !== null && { sourceHandle: e.sourceHandle }) })),
    dispositionEntries: { ...g.dispositionEntries },
  };
}

/** A PATCH that turns `before` into `after`: keys sent replace, keys gone are sent as null. */
export function patchFor(before: GraphNode, after: GraphNode): PatchNode | null {
  const config: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(after.config)) if (JSON.stringify(before.config[k]) !== JSON.stringify(v)) config[k] = v;
  for (const k of Object.keys(before.config)) if (!(k in after.config)) config[k] = null;
  const labelChanged = (before.label ?? '') !== (after.label ?? '');
  if (!labelChanged && Object.keys(config).length === 0) return null;
  return { id: after.id, ...(labelChanged && { label: after.label ? after.label : null }), ...(Object.keys(config).length > 0 && { config }) };
}

/**
 * The request for the logged edits. `working` is the graph to save (PUT positions already chosen),
 * `base` the stored graph the edits started from.
 */
export function planSave(ops: readonly PendingOp[], working: Graph, base: Graph): SavePlan {
  if (ops.length === 0) return { kind: 'none' };
  const byId = new Map(working.nodes.map((n) => [n.id, n]));
  const baseById = new Map(base.nodes.map((n) => [n.id, n]));
  if (ops.length === 1) {
    const op = ops[0]!;
    if (op.kind === 'append') {
      const nodes = op.nodeIds.map((id) => byId.get(id)!).filter(Boolean);
      if (nodes.length === op.nodeIds.length && nodes.every((n) => n.type !== 'if' && n.type !== 'switch')) {
        // The request types each step's settings by its type; the forms check them against the same
        // schemas (model/validation.ts) and the server refuses what does not match, naming the step.
        return { kind: 'append', lane: op.lane, nodes: nodes.map((n) => ({ type: n.type, ...(n.label && { label: n.label }), config: n.config }) as AppendRequestNode) };
      }
    }
    if (op.kind === 'delete' && baseById.has(op.nodeId)) return { kind: 'delete', nodeId: op.nodeId };
  }
  if (ops.every((o) => o.kind === 'patch')) {
    const ids = [...new Set(ops.flatMap((o) => (o.kind === 'patch' ? o.nodeIds : [])))];
    const patches: PatchNode[] = [];
    let mergeable = true;
    for (const id of ids) {
      const before = baseById.get(id);
      const after = byId.get(id);
      if (!before || !after) {
        mergeable = false;
        break;
      }
      // PATCH cannot turn a configured step back into a draft; PUT can.
      if (isDraft(after.config) && !isDraft(before.config)) {
        mergeable = false;
        break;
      }
      const p = patchFor(before, after);
      if (p) patches.push(p);
    }
    if (mergeable) return patches.length ? { kind: 'patch', nodes: patches } : { kind: 'none' };
  }
  return { kind: 'put', graph: toGraphBody(working) };
}

/** A sentence for the save button's tooltip and the status line. */
export function describePlan(p: SavePlan): string {
  switch (p.kind) {
    case 'none':
      return 'nothing to save';
    case 'append':
      return `add ${p.nodes.length} step${p.nodes.length === 1 ? '' : 's'} to the end of ${p.lane}`;
    case 'delete':
      return `delete ${p.nodeId}`;
    case 'patch':
      return `update ${p.nodes.length} step${p.nodes.length === 1 ? '' : 's'}`;
    case 'put':
      return 'save the whole graph';
  }
}
