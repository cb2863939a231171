import type { AgentRecord } from '../store/agents.js';
import type { CampaignRecord } from '../store/campaigns.js';
import type { ProjectRecord } from '../store/projects.js';
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
