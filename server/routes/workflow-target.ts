import { GraphRefusal } from '../../engine/graph/errors.js';
import { AppError, notFound } from '../http/errors.js';
import type { Caller } from '../http/request-context.js';
import type { Services } from '../services.js';
import type { AgentRecord } from '../store/agents.js';
import type { CampaignRecord } from '../store/campaigns.js';
import type { ProjectRecord } from '../store/projects.js';
import type { StoredWorkflow } from '../store/workflows.js';
import { campaignWarningContext, computeWarnings } from '../../engine/graph/warnings.js';
import { emittableOutcomes } from '../../engine/graph/outcomes.js';
import { loadAgent } from './agents.js';
import { Id } from '../../schemas/common.js';

export interface WorkflowTarget {
  agent: AgentRecord;
  campaign: CampaignRecord;
  project: ProjectRecord;
}

/**
 * The workflow an agent-scoped path names: the `locationId`+`campaignId` pair when given (both or
 * neither), otherwise the agent's primary campaign.
 */
/** The query of agent-scoped workflow routes. */
export const TargetQuery = {
  type: 'object',
  properties: {
    locationId: { ...Id, description: "the agent's location (its CRM location id or project id); with campaignId (spec 4.12), or alone for the primary campaign" },
    campaignId: { ...Id, description: 'a campaign of the agent; omitted: its primary campaign' },
  },
} as const;

export function resolveTarget(s: Services, caller: Caller, agentId: string, query: { locationId?: string; campaignId?: string }): WorkflowTarget {
  const agent = loadAgent(s, caller, agentId);
  // Spec 4.12 has clients send both or neither; each alone is accepted too (a rule OpenAPI can
  // state): locationId alone checks the agent's location and selects its primary campaign,
  // campaignId alone selects that campaign of the agent.
  const project = s.repos.projects.get(caller.agencyId, agent.projectId);
  if (!project) throw notFound(`agent ${agentId} not found`);
  if (query.locationId !== undefined && query.locationId !== project.locationId && query.locationId !== project.id) {
    throw notFound(`agent ${agentId} does not belong to location ${query.locationId}`);
  }
  const campaignId = query.campaignId ?? agent.campaignId;
  const campaign = campaignId ? s.repos.campaigns.get(caller.agencyId, campaignId) : undefined;
  if (!campaign || campaign.agentId !== agent.id) throw notFound(`campaign ${campaignId ?? '(primary)'} not found for agent ${agentId}`);
  return { agent, campaign, project };
}

export function warningsFor(t: WorkflowTarget, stored: StoredWorkflow) {
  return computeWarnings(stored.graph, { emittable: emittableOutcomes(t.agent.capabilities), ...campaignWarningContext(t.campaign) });
}

export function presentWorkflow(t: WorkflowTarget, stored: StoredWorkflow) {
  return {
    agentId: t.agent.id,
    campaignId: t.campaign.id,
    locationId: t.project.locationId,
    version: stored.version,
    nodes: stored.graph.nodes,
    edges: stored.graph.edges,
    dispositionEntries: stored.graph.dispositionEntries,
    updatedAt: stored.updatedAt,
  };
}

/** Pure graph refusals become API errors with the same message. */
export function asAppError(err: unknown): unknown {
  if (err instanceof GraphRefusal) {
    const refusal: GraphRefusal = err;
    if (refusal.code === 'CONFLICT') return new AppError('CONFLICT', refusal.message, { detailCode: refusal.reason ?? 'GraphConflict' });
    return new AppError(refusal.code === 'NOT_FOUND' ? 'NOT_FOUND' : 'VALIDATION', refusal.message);
  }
  return err;
}
