/**
 * What a Temporal workflow may import from the graph model: walking a pinned graph and evaluating
 * its branches. Deterministic and free of ajv, Node built-ins, the clock and randomness (a unit
 * test checks this module's import closure).
 */
export { evaluateCondition, evaluateIf, selectSwitchCase, describeCondition, describeConditions, resolvePath } from './conditions.js';
export { entryOf, successor, nextStep, chainFrom, chainOf, handlesOf, nodeById, outgoing, incoming, reachable } from './walk.js';
export { DISPOSITIONS, OUTCOMES, normalizeOutcome, emittableOutcomes, isDisposition, type Disposition } from './outcomes.js';
export { isDraft, isBranch, isActionType, ACTION_NODE_TYPES } from './types.js';
export type { Graph, GraphNode, GraphEdge, Condition, IfConfig, SwitchConfig, SwitchCase, ActionType, NodeType } from './types.js';
