import type { Harness } from './harness.js';

let n = 0;

/** A project, an outreach agent with appointment booking, and its primary campaign, over the API. */
export async function createProjectAgentCampaign(h: Harness, opts: { key?: string; capabilityIds?: string[]; timezone?: string; locationId?: string } = {}) {
  const locationId = opts.locationId ?? `loc_${++n}_${Date.now()}`;
  const project = await h.api('POST', '/api/v2/projects', {
    key: opts.key,
    body: { crm: 'crm_a', locationId, timezone: opts.timezone ?? 'America/Chicago', businessName: 'Bright Smile Dental', crm_a: { name: 'Bright Smile Dental' } },
  });
  if (project.status !== 200) throw new Error(`create project: ${project.status} ${project.text}`);
  const agent = await h.api('POST', '/api/agent-builder/agents', {
    key: opts.key,
    body: { name: 'Front desk', agentType: 'outreach', locationId, capabilityIds: opts.capabilityIds ?? ['appointment_booking'] },
  });
  if (agent.status !== 200) throw new Error(`create agent: ${agent.status} ${agent.text}`);
  return {
    project: project.body.data,
    agent: agent.body.data,
    locationId,
    projectId: project.body.data.id as string,
    agentId: agent.body.data.id as string,
    campaignId: agent.body.data.campaignId as string,
  };
}
