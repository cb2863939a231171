/**
 * The editor's node and edge types. Node data is typed per node type and joined in a union, so a
 * `send-sms` node's `config` is a SendSmsConfig (or `{}`, a draft) and nothing else.
 */
import type { Edge, Node } from '@xyflow/react';
import type {
  AddNoteConfig,
  AddTagConfig,
  BookAppointmentConfig,
  Condition,
  Disposition,
  IfConfig,
  MoveStageConfig,
  NodeType,
  RemoveTagConfig,
  SendEmailConfig,
  SendSmsConfig,
  SetFieldConfig,
  SwitchCase,
  SwitchConfig,
} from '../../../schemas/workflow';

export type { Condition, Disposition, NodeType, SwitchCase };

export interface NodeConfigs {
  'add-tag': AddTagConfig;
  'remove-tag': RemoveTagConfig;
  'set-field': SetFieldConfig;
  'move-stage': MoveStageConfig;
  'add-note': AddNoteConfig;
  'send-sms': SendSmsConfig;
  'send-email': SendEmailConfig;
  'book-appointment': BookAppointmentConfig;
  if: IfConfig;
  switch: SwitchConfig;
}

/** `{}`: an unfinished draft, stored but skipped at run time. */
export type DraftConfig = Record<string, never>;

export type StepData<T extends NodeType> = { label?: string; config: NodeConfigs[T] | DraftConfig };

/** A workflow step on the canvas, one member per node type. */
export type StepNode<T extends NodeType = NodeType> = T extends NodeType ? Node<StepData<T>, T> : never;

export const LANE_PREFIX = 'lane:';
export const ORPHAN_LANE = 'ORPHANS';

export interface LaneData {
  [k: string]: unknown;
  /** a disposition, or ORPHAN_LANE for nodes no outcome reaches */
  lane: string;
  title: string;
  color: string;
  /** false when the agent can no longer end a call in this outcome */
  emittable: boolean;
  /** no entry node */
  empty: boolean;
}
/** A lane header: not draggable, not selectable, not saved. */
export type LaneNode = Node<LaneData, 'lane'>;

export type AppNode = StepNode | LaneNode;

export type FlowEdge = Edge<{ handleLabel?: string }, 'flow'>;
/** From a lane header to its entry node: shows where the outcome starts; not saved as an edge. */
export type EntryEdge = Edge<{ lane: string }, 'entry'>;
export type AppEdge = FlowEdge | EntryEdge;

export const isStepNode = (n: AppNode): n is StepNode => n.type !== 'lane';
export const isFlowEdge = (e: AppEdge): e is FlowEdge => e.type === 'flow';
export const laneNodeId = (lane: string) => `${LANE_PREFIX}${lane}`;
export const entryEdgeId = (lane: string) => `entry:${lane}`;

/** The graph as the API sees it: steps, edges and entries, no lanes. */
export interface GraphNode {
  id: string;
  type: NodeType;
  label?: string;
  config: Record<string, unknown>;
  position: { x: number; y: number };
}
export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle?: string;
}
export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  dispositionEntries: Record<string, string>;
}

/** Where a new node goes. */
export type InsertPoint =
  | { kind: 'lane'; lane: Disposition }
  | { kind: 'after'; nodeId: string; handle?: string }
  | { kind: 'edge'; edgeId: string };

export const isDraft = (config: unknown): boolean => !config || (typeof config === 'object' && Object.keys(config as object).length === 0);
