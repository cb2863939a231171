import type { AgentRecord, CadenceRecord, CampaignRecord, LeadRecord, ProjectRecord, StoredWorkflow } from '../store/index.js';
import { warningsFor, type WorkflowTarget } from '../domain/workflow-target.js';
import { emittableOutcomes } from '../../engine/graph/outcomes.js';
import { legacyAgentType } from '../catalog.js';

/** Storage records to the spec's response shapes: internal fields (agency id, soft-delete) stay inside. */
export function presentCampaign(c: CampaignRecord) {
  const { agencyId: _a, projectId: _p, ...rest } = c;
  // Spec 9: the retired `confirmation` reads as nothing; `reactivation` reads back as stored.
  return { ...rest, dialing: (rest.dialing as string | null) === 'confirmation' ? null : rest.dialing };
}

export function presentProject(p: ProjectRecord, campaigns: CampaignRecord[]) {
  const { agencyId, extra, deletedAt: _d, crm_a, crm_b, ...rest } = p;
  return {
    ...(extra ?? {}),
    ...rest,
    agencyId,
    ...(p.crm === 'crm_a' ? { crm_a: crm_a ?? null } : {}),
    ...(p.crm === 'crm_b' && crm_b ? { crm_b } : {}),
    campaigns: campaigns.map(presentCampaign),
  };
}

/**
 * Spec 2.11: capabilities on the campaign facet (the agent's primary campaign: its id, its legacy
 * template id, and what the agent can do there). The top-level `capabilities` stays for the
 * clients that read it (docs/decisions.md).
 */
export function presentAgent(a: AgentRecord, campaign?: CampaignRecord) {
  const { agencyId: _a, ...rest } = a;
  return {
    ...rest,
    outcomes: emittableOutcomes(a.capabilities),
    campaign: {
      id: a.campaignId,
      agentType: campaign?.agentType ?? legacyAgentType(a.agentType, a.capabilities),
      capabilities: [...a.capabilities],
    },
  };
}

export const presentCadence = (c: CadenceRecord) => ({ id: c.id, name: c.name, steps: c.steps, createdAt: c.createdAt, updatedAt: c.updatedAt });

/** Spec 2.5, field for field. */
export const presentLead = (l: LeadRecord) => ({
  _id: l.id,
  queueId: l.queueId,
  cadenceStep: l.cadenceStep,
  callStatus: l.callStatus,
  nextCallTime: l.nextCallTime,
  timezone: l.timezone,
  firstName: l.firstName,
  fullName: l.fullName,
  email: l.email,
  phone: l.phone,
  live: l.live,
  callerPreference: l.callerPreference,
  createdAt: l.createdAt,
  tags: l.tags,
  locationId: l.locationId,
  businessName: l.businessName,
  pipeline: l.pipeline,
  campaignId: l.campaignId,
  campaignName: l.campaignName,
});

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

/** A workflow answer: the graph and what will not act as expected. */
export const presentWorkflowWithWarnings = (t: WorkflowTarget, stored: StoredWorkflow) => ({ ...presentWorkflow(t, stored), warnings: warningsFor(t, stored) });
