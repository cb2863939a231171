/** The path one post-call run took, as canvas highlights: a status per step, the edges it followed. Pure. */
import type { Execution, StepStatus } from '../api/types';
import type { Graph } from './types';
import { entryEdgeId } from './types';

export interface RunView {
  execution: Execution;
  /** the last status each step reached in this run */
  statusByNode: Record<string, StepStatus>;
  /** edges (and the lane's entry edge) the run went along */
  edgeIds: Record<string, true>;
  /** steps the run visited that are not on the canvas (the run used another version) */
  missing: string[];
}

export function runView(execution: Execution, g: Graph): RunView {
  const steps = [...execution.steps].sort((a, b) => a.seq - b.seq);
  const statusByNode: Record<string, StepStatus> = {};
  for (const s of steps) statusByNode[s.nodeId] = s.status;
  const edgeIds: Record<string, true> = {};
  const first = steps[0];
  if (first && g.dispositionEntries[execution.outcome] === first.nodeId) edgeIds[entryEdgeId(execution.outcome)] = true;
  // A retry repeats a step: consecutive distinct nodes are the path.
  const path = steps.map((s) => s.nodeId).filter((id, i, all) => i === 0 || all[i - 1] !== id);
  for (let i = 1; i < path.length; i++) {
    const edge = g.edges.find((e) => e.source === path[i - 1] && e.target === path[i]);
    if (edge) edgeIds[edge.id] = true;
  }
  const ids = new Set(g.nodes.map((n) => n.id));
  return { execution, statusByNode, edgeIds, missing: [...new Set(path.filter((id) => !ids.has(id)))] };
}
