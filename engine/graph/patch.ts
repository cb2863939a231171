import type { PatchNode } from '../../schemas/workflow.js';
import { GraphRefusal, type GraphProblem } from './errors.js';
import type { Graph, GraphNode } from './types.js';
import { isDraft, isNodeType } from './types.js';
import { checkNodeConfig, validateGraph } from './validate.js';

export type NodePatch = PatchNode;

/**
 * Merges changes into existing nodes without touching the wiring (PATCH):
 * - `label`: replaces the label; `null` removes it.
 * - `config`: merged key by key into the node's config (a top-level merge: a key sent replaces the
 *   stored value whole, arrays included; a key sent as `null` is removed). The merged config must be
 *   complete for the node's type (or stay exactly as the draft it was); emptying a configured node
 *   into a draft is refused (drafts are saved with PUT).
 * Refusals: an unknown id is NOT_FOUND; the same id twice, a bad merged config or a stand-in is
 * VALIDATION, named by the request field (`nodes[1].config.body`). The result is re-validated whole
 * (e.g. removing a switch case that still has a chain is refused). Returns a new graph.
 */
export function patchNodes(graph: Graph, patches: readonly NodePatch[]): Graph {
  if (!Array.isArray(patches) || patches.length === 0) throw new GraphRefusal('VALIDATION', 'nodes: at least one node patch is required', { field: 'nodes' });
  const index = new Map(graph.nodes.map((n, i) => [n.id, i]));
  const seen = new Map<string, number>();
  const nodes = [...graph.nodes];
  const problems: GraphProblem[] = [];

  patches.forEach((p, i) => {
    const field = `nodes[${i}]`;
    const at = index.get(p.id);
    if (at === undefined) {
      throw new GraphRefusal('NOT_FOUND', `${field}.id: node ${JSON.stringify(p.id)} is not in this workflow`, { nodeId: p.id, field: `${field}.id` });
    }
    const twice = seen.get(p.id);
    if (twice !== undefined) {
      problems.push({ field: `${field}.id`, nodeId: p.id, message: `${field}.id: node ${p.id} is already patched by nodes[${twice}]; send one patch per node` });
      return;
    }
    seen.set(p.id, i);
    const before = nodes[at]!;
    let after: GraphNode = { ...before };
    if (p.label === null) {
      const { label: _label, ...rest } = after;
      after = rest;
    } else if (p.label !== undefined) after = { ...after, label: p.label };

    if (p.config !== undefined) {
      if (p.config === null || typeof p.config !== 'object' || Array.isArray(p.config)) {
        problems.push({ field: `${field}.config`, nodeId: p.id, message: `${field}.config: must be an object of settings to merge in node ${p.id} (${before.type})` });
        return;
      }
      const config: Record<string, unknown> = { ...before.config };
      for (const [key, value] of Object.entries(p.config)) {
        if (value === null) delete config[key];
        else config[key] = copy(value);
      }
      after = { ...after, config };
      const becameDraft = isDraft(after) && !isDraft(before);
      if (becameDraft) {
        problems.push({
          field: `${field}.config`,
          nodeId: p.id,
          message: `${field}.config: the merge would leave node ${p.id} (${before.type}) with no settings; an unconfigured draft can only be saved by replacing the graph (PUT)`,
        });
        return;
      }
      if (isNodeType(before.type) && !isDraft(after)) {
        problems.push(...checkNodeConfig(before.type, config, { field: `${field}.config`, nodeId: p.id, allowDraft: false }));
      }
    }
    nodes[at] = after;
  });
  if (problems.length > 0) throw GraphRefusal.fromProblem(problems[0]!, problems);

  const result: Graph = { nodes, edges: [...graph.edges], dispositionEntries: { ...graph.dispositionEntries } };
  validateGraph(result);
  return result;
}

function copy<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}
