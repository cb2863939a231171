/** The one request that saves the logged edits (model/pending.ts chose which), on a stored version. */
import type { WorkflowApi } from './endpoints';
import type { Workflow } from './types';
import type { SavePlan } from '../model/pending';

/** Sends `plan` with `expectedVersion`; a plan with nothing in it answers `stored` without a request. */
export function sendSavePlan(api: WorkflowApi, plan: SavePlan, expectedVersion: number, stored: Workflow): Promise<Workflow> {
  switch (plan.kind) {
    case 'append':
      return api.append(plan.lane, plan.nodes, expectedVersion);
    case 'delete':
      return api.remove(plan.nodeId, expectedVersion);
    case 'patch':
      return api.patch(plan.nodes, expectedVersion);
    case 'put':
      return api.put(plan.graph, expectedVersion);
    case 'none':
      return Promise.resolve(stored);
  }
}
