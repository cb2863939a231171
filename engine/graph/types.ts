/**
 * The graph as the pure operations see it. The shapes come from schemas/workflow.ts (the single
 * source of truth); the server adds the agent/campaign/version metadata of a Workflow.
 * Type-only imports plus a few constants: safe for the Temporal workflow bundle.
 */
import type {
  Condition as ConditionShape,
  IfConfig as IfConfigShape,
  PutEdge,
  PutNode,
  SwitchCase as SwitchCaseShape,
  SwitchConfig as SwitchConfigShape,
  WorkflowEdge,
  WorkflowNode,
} from '../../schemas/workflow.js';
import { ACTION_TYPES, BRANCH_TYPES, NODE_TYPES as ALL_NODE_TYPES, REMOVED_NODE_TYPES as REMOVED } from '../../schemas/workflow.js';

export type { ActionType, BranchType, ConditionOperator, NodeType, WarningCode } from '../../schemas/workflow.js';

/** A stored node: `{ id, type, label?, config, position }`; `config` `{}` is a draft. */
export type GraphNode = WorkflowNode;
/** `{ id, source, target, sourceHandle? }` */
export type GraphEdge = WorkflowEdge;

export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** outcome (raw disposition, upper case) -> entry node id */
  dispositionEntries: Record<string, string>;
}

/**
 * A graph as a client sends it (PUT): any node `type` string, `position` optional, a `null`
 * sourceHandle for "none". `validateGraph` checks it; `prepareGraph` turns it into a `Graph`.
 */
export interface GraphInput {
  nodes: readonly PutNode[];
  edges: readonly PutEdge[];
  dispositionEntries: Readonly<Record<string, string>>;
}

export type Condition = ConditionShape;
export type IfConfig = IfConfigShape;
export type SwitchCase = SwitchCaseShape;
export type SwitchConfig = SwitchConfigShape;

export const ACTION_NODE_TYPES = ACTION_TYPES;
export const BRANCH_NODE_TYPES = BRANCH_TYPES;
export const NODE_TYPES = ALL_NODE_TYPES;
export const REMOVED_NODE_TYPES = REMOVED;

export const isBranch = (type: string): type is 'if' | 'switch' => type === 'if' || type === 'switch';
export const isActionType = (type: string): type is (typeof ACTION_TYPES)[number] => (ACTION_TYPES as readonly string[]).includes(type);
export const isNodeType = (type: string): type is (typeof ALL_NODE_TYPES)[number] => (ALL_NODE_TYPES as readonly string[]).includes(type);

/** An empty config is an unfinished draft: stored, but skipped at run time. */
export const isDraft = (n: { config?: unknown }): boolean =>
  n.config === undefined || n.config === null || (typeof n.config === 'object' && Object.keys(n.config).length === 0);
