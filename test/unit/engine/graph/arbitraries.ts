/**
 * fast-check generators of workflow graphs and of the operations on them, shared by the engine's
 * property tests and the editor's parity tests.
 */
import fc from 'fast-check';
import { appendNodes, type AppendNode } from '../../../../engine/graph/append.js';
import { emptyGraph } from '../../../../engine/graph/empty.js';
import { GraphRefusal } from '../../../../engine/graph/errors.js';
import { DISPOSITIONS, OUTCOMES } from '../../../../engine/graph/outcomes.js';
import type { Graph, GraphEdge, GraphNode } from '../../../../engine/graph/types.js';
import { handlesOf } from '../../../../engine/graph/walk.js';

export const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);

export const action: fc.Arbitrary<AppendNode> = fc.oneof(
  fc.record({ type: fc.constant('add-tag'), config: fc.record({ tags: fc.uniqueArray(word, { minLength: 1, maxLength: 3 }) }) }),
  fc.record({ type: fc.constant('remove-tag'), config: fc.record({ tags: fc.uniqueArray(word, { minLength: 1, maxLength: 2 }) }) }),
  fc.record({ type: fc.constant('add-note'), config: fc.record({ body: word }) }),
  fc.record({ type: fc.constant('send-sms'), label: word, config: fc.record({ body: word }) }),
  fc.record({ type: fc.constant('set-field'), config: fc.record({ field: word, value: fc.oneof(word, fc.integer(), fc.boolean()) }) }),
  fc.record({ type: fc.constant('move-stage'), config: fc.record({ pipelineId: word, stageId: word }) }),
  fc.record({ type: fc.constant('send-email'), config: fc.record({ subject: word, body: word }) }),
  fc.record({ type: fc.constant('book-appointment'), config: fc.record({ durationMinutes: fc.integer({ min: 5, max: 480 }) }) }),
) as fc.Arbitrary<AppendNode>;

export const condition = fc.oneof(
  fc.record({ field: word.map((w) => `call.fields.${w}`), op: fc.constantFrom('exists', 'not_exists') }),
  fc.record({ field: word.map((w) => `call.fields.${w}`), op: fc.constantFrom('eq', 'neq', 'contains'), value: word }),
  fc.record({ field: fc.constant('call.duration'), op: fc.constantFrom('gt', 'lte'), value: fc.integer({ min: 0, max: 600 }) }),
);

/** A router as the append endpoint takes it: cases with their own action chains, an optional default chain. */
export const router: fc.Arbitrary<AppendNode> = fc
  .record({
    cases: fc.array(fc.record({ label: word, conditions: fc.array(condition, { minLength: 1, maxLength: 2 }), nodes: fc.array(action, { maxLength: 3 }) }), {
      minLength: 1,
      maxLength: 3,
    }),
    withDefault: fc.boolean(),
    defaultNodes: fc.array(action, { maxLength: 2 }),
  })
  .map(({ cases, withDefault, defaultNodes }) => ({ type: 'switch', config: { cases, ...(withDefault && { default: { nodes: defaultNodes } }) } }) as AppendNode);

export const outcome = fc.constantFrom(...DISPOSITIONS);
/** An outcome as a client might spell it. */
export const spelledOutcome = outcome.chain((d) => fc.constantFrom(d, OUTCOMES[d].type, OUTCOMES[d].label, OUTCOMES[d].label.toLowerCase()));

export type Op =
  | { kind: 'append'; outcome: string; nodes: AppendNode[] }
  | { kind: 'delete'; pick: number }
  | { kind: 'patch'; pick: number; text: string }
  | { kind: 'switch'; outcome: string; pick: number | null };

export const appendOp: fc.Arbitrary<Op> = fc
  .record({ outcome: spelledOutcome, nodes: fc.array(action, { minLength: 0, maxLength: 3 }), tail: fc.option(router, { freq: 3 }) })
  .filter(({ nodes, tail }) => nodes.length > 0 || tail !== null)
  .map(({ outcome, nodes, tail }) => ({ kind: 'append', outcome, nodes: tail ? [...nodes, tail] : nodes }));
export const deleteOp: fc.Arbitrary<Op> = fc.nat().map((pick) => ({ kind: 'delete', pick }));
export const patchOp: fc.Arbitrary<Op> = fc.record({ pick: fc.nat(), text: word }).map(({ pick, text }) => ({ kind: 'patch', pick, text }));
export const switchOp: fc.Arbitrary<Op> = fc
  .record({ outcome: spelledOutcome, pick: fc.option(fc.nat(), { freq: 4 }) })
  .map(({ outcome, pick }) => ({ kind: 'switch', outcome, pick }));

/** A graph the append endpoint builds: appends to random outcomes (a refused append is skipped). */
export const appendedGraph: fc.Arbitrary<Graph> = fc.array(appendOp, { minLength: 1, maxLength: 8 }).map((ops) => {
  let g = emptyGraph();
  for (const op of ops) {
    if (op.kind !== 'append') continue;
    try {
      g = appendNodes(g, op.outcome, op.nodes);
    } catch (err) {
      if (!(err instanceof GraphRefusal)) throw err;
    }
  }
  return g;
});

const ifConfig = fc.record({ match: fc.constantFrom('all', 'any'), conditions: fc.array(condition, { minLength: 1, maxLength: 2 }) });
const switchConfig = fc
  .uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_-]{0,6}$/).filter((id) => id !== 'default'), { minLength: 1, maxLength: 3 })
  .chain((ids) => fc.tuple(...ids.map((id) => fc.record({ id: fc.constant(id), label: word, match: fc.constantFrom('all', 'any'), conditions: fc.array(condition, { minLength: 1, maxLength: 2 }) }))))
  .map((cases) => ({ cases }));

/** One node's type and config as PUT may store it: a configured action or branch, or an unconfigured draft. */
const storedNode: fc.Arbitrary<Pick<GraphNode, 'type' | 'config'> & { label?: string }> = fc.oneof(
  { arbitrary: action.map((a) => ({ type: a.type, config: a.config, ...(a.label !== undefined && { label: a.label }) }) as Pick<GraphNode, 'type' | 'config'>), weight: 5 },
  { arbitrary: ifConfig.map((config) => ({ type: 'if', config }) as Pick<GraphNode, 'type' | 'config'>), weight: 2 },
  { arbitrary: switchConfig.map((config) => ({ type: 'switch', config }) as Pick<GraphNode, 'type' | 'config'>), weight: 2 },
  { arbitrary: fc.constantFrom('add-tag', 'send-sms', 'if', 'switch').map((type) => ({ type, config: {} }) as Pick<GraphNode, 'type' | 'config'>), weight: 1 },
);

/**
 * A graph as PUT stores it, which append never makes: joins (several edges into one node), one
 * node entered by several outcomes, unreachable nodes, drafts, `if`s and `switch`es with some
 * handles unconnected, ids that are not `n<k>`. Edges only go from a node to a later one in the
 * list, so it is acyclic; each handle has at most one edge. Valid by construction.
 */
export const storedGraph: fc.Arbitrary<Graph> = fc
  .array(storedNode, { minLength: 1, maxLength: 9 })
  .chain((specs) => {
    const ids = specs.map((_, i) => (i % 3 === 2 ? `step-${i}` : `n${i + 1}`));
    const nodes: GraphNode[] = specs.map((s, i) => ({ id: ids[i]!, ...s, position: { x: i * 10, y: i * 20 } }) as GraphNode);
    // every (node, handle) slot that may carry an edge, with the choice of a later node or none
    const slots = nodes.flatMap((n, i) => (i === nodes.length - 1 ? [] : (isBranchType(n.type) ? handlesOf(n) : [undefined]).map((handle) => ({ i, handle }))));
    return fc.record({
      targets: fc.tuple(...slots.map(({ i }) => fc.option(fc.integer({ min: i + 1, max: nodes.length - 1 }), { freq: 2 }))),
      entries: fc.tuple(...DISPOSITIONS.map(() => fc.option(fc.integer({ min: 0, max: nodes.length - 1 }), { freq: 2 }))),
    }).map(({ targets, entries }) => {
      const edges: GraphEdge[] = [];
      slots.forEach(({ i, handle }, k) => {
        const t = targets[k];
        if (t === null || t === undefined) return;
        edges.push({ id: `e${edges.length + 1}`, source: ids[i]!, target: ids[t]!, ...(handle !== undefined && { sourceHandle: handle }) });
      });
      const dispositionEntries: Record<string, string> = {};
      DISPOSITIONS.forEach((d, k) => {
        const at = entries[k];
        if (at !== null && at !== undefined) dispositionEntries[d] = ids[at]!;
      });
      return { nodes, edges, dispositionEntries };
    });
  });

const isBranchType = (type: string) => type === 'if' || type === 'switch';

/** Either kind of valid graph. */
export const validGraph: fc.Arbitrary<Graph> = fc.oneof(appendedGraph, storedGraph);
