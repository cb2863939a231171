/**
 * Node and edge component maps for React Flow. Module-level constants: React Flow warns (and
 * re-mounts every node) when these objects change identity between renders.
 */
import type { EdgeTypes, NodeTypes } from '@xyflow/react';
import { EntryEdgeView, FlowEdgeView } from '../edges/FlowEdgeView';
import { LaneNodeView } from './LaneNodeView';
import { STEP_TYPES } from './registry';
import { StepNodeView } from './StepNodeView';

export const nodeTypes: NodeTypes = {
  ...Object.fromEntries(STEP_TYPES.map((t) => [t, StepNodeView])),
  lane: LaneNodeView,
};

export const edgeTypes: EdgeTypes = {
  flow: FlowEdgeView,
  entry: EntryEdgeView,
};
