import { GraphRefusal } from '../../engine/graph/errors.js';
import { emittableOutcomes } from '../../engine/graph/outcomes.js';
import { campaignWarningContext, computeWarnings } from '../../engine/graph/warnings.js';
import { StoreConflict, type AgentRecord, type CampaignRecord, type ProjectRecord, type StoredWorkflow } from '../store/index.js';
import { DomainError, conflict } from './errors.js';

/** The campaign whose workflow an operation names, with its agent and project. */
export interface WorkflowTarget {
  agent: AgentRecord;
  campaign: CampaignRecord;
  project: ProjectRecord;
}

export function warningsFor(t: WorkflowTarget, stored: StoredWorkflow) {
  return computeWarnings(stored.graph, { emittable: emittableOutcomes(t.agent.capabilities), ...campaignWarningContext(t.campaign) });
}

/** A pure graph operation's refusal, or a stale version, in the domain's words (the same message). */
export function graphError(err: unknown): unknown {
  if (err instanceof GraphRefusal) {
    const refusal: GraphRefusal = err;
    if (refusal.code === 'CONFLICT') return conflict(refusal.message, refusal.reason ?? 'GraphConflict');
    return new DomainError(refusal.code === 'NOT_FOUND' ? 'NOT_FOUND' : 'VALIDATION', refusal.message);
  }
  if (err instanceof StoreConflict) return conflict(err.message, err.reason);
  return err;
}

