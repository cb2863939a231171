import { SKILL_TYPES, fixedTemplateOf, legacyAgentType } from '../catalog.js';
import type { AgentRecord, CampaignRecord, PostCallFieldRecord, ReadOptions, Store } from '../store/index.js';
import type { CreateAgentBody, PatchAgentBody } from '../../schemas/agent.js';
import { assertProjectAccess, canAccessProject, type Actor } from './actor.js';
import { invalid, notFound } from './errors.js';
import { loadProject } from './projects.js';
import { applyTemplate, templateNamed } from './templates.js';

/** Fields the platform manages: every agent has them and an update never removes them (spec 2.11). */
export const PLATFORM_FIELDS: PostCallFieldRecord[] = [
  { name: 'call_outcome', type: 'enum', description: 'standard call outcome', platformManaged: true },
  { name: 'call_summary', type: 'text', description: 'summary of the call', platformManaged: true },
  { name: 'callback_time', type: 'datetime', description: 'time the contact asked to be called back', platformManaged: true },
];

/** An agent with its primary campaign, as every agent answer shows it. */
export interface AgentView {
  agent: AgentRecord;
  campaign: CampaignRecord | undefined;
}

export const agentView = async (store: Store, agent: AgentRecord): Promise<AgentView> => ({ agent, campaign: agent.campaignId ? await store.campaigns.get(agent.agencyId, agent.campaignId) : undefined });

export async function loadAgent(store: Store, actor: Actor, id: string, opts?: ReadOptions): Promise<AgentRecord> {
  const agent = await store.agents.get(actor.agencyId, id, opts);
  if (!agent) throw notFound(`agent ${id} not found`);
  assertProjectAccess(actor, agent.projectId);
  return agent;
}

/**
 * Spec 4.13: a Reminder agent resolves to its single fixed template, whose capabilities it always
 * has (so it can end calls in the outcomes its campaign system lists). Sending other capabilities
 * for it is invalid input, not a silent replacement.
 */
function capabilitiesFor(agentType: string, sent: readonly string[] | undefined, field: string): string[] {
  const fixed = fixedTemplateOf(agentType);
  if (!fixed) return [...(sent ?? [])];
  if (sent !== undefined && !(sent.length === fixed.capabilityIds.length && sent.every((c) => fixed.capabilityIds.includes(c)))) {
    throw invalid(`${field}: a ${agentType} agent has the fixed template ${fixed.id} with the capabilities [${fixed.capabilityIds.join(', ')}]; omit ${field} or send exactly those`);
  }
  return [...fixed.capabilityIds];
}

function mergePostCallFields(current: PostCallFieldRecord[], sent: PostCallFieldRecord[] | undefined): PostCallFieldRecord[] {
  const managed = current.filter((f) => f.platformManaged);
  if (!sent) return current;
  const custom = sent.filter((f) => !managed.some((m) => m.name === f.name)).map((f) => ({ ...f, platformManaged: false }));
  return [...managed, ...custom];
}

/** An agent and its primary campaign, created together (and its workflow from a template, when named). */
export async function createAgent(store: Store, actor: Actor, body: CreateAgentBody): Promise<AgentView> {
  return store.withTransaction(async (tx) => {
    const project = await loadProject(tx, actor, body.locationId);
    const capabilities = capabilitiesFor(body.agentType, body.capabilityIds, 'body.capabilityIds');
    const template = templateNamed(body.workflowTemplateId, 'body.workflowTemplateId');
    const agent = await tx.agents.insert({
      agencyId: actor.agencyId,
      projectId: project.id,
      locationId: project.locationId,
      name: body.name,
      agentType: body.agentType as AgentRecord['agentType'],
      capabilities,
      campaignId: null,
      postCallFields: mergePostCallFields(PLATFORM_FIELDS, (body.postCallFields ?? []) as PostCallFieldRecord[]),
      ...(body.voice !== undefined && { voice: body.voice }),
      ...(body.prompt !== undefined && { prompt: body.prompt }),
      ...(body.vapiAssistantId !== undefined && { vapiAssistantId: body.vapiAssistantId }),
    });
    const campaign = await tx.campaigns.insert({
      agencyId: actor.agencyId,
      projectId: project.id,
      agentId: agent.id,
      name: `${body.name} campaign`,
      activeTags: [],
      inactiveTags: [],
      // Spec 9: outbound types default to `pd`; an inbound receptionist has no dispatch mode.
      dialing: body.agentType === 'inbound' ? null : 'pd',
      agentType: legacyAgentType(body.agentType, capabilities),
      fromNumbers: [],
      active: false,
      config: {},
    });
    const saved = await tx.agents.save({ ...agent, campaignId: campaign.id });
    if (template) await applyTemplate(tx, actor.agencyId, { agent: saved, campaign, project }, template, 0, actor.keyId);
    return { agent: saved, campaign };
  });
}

export async function listAgents(store: Store, actor: Actor, query: { agentType?: string; locationId?: string }): Promise<AgentView[]> {
  const project = query.locationId ? await loadProject(store, actor, query.locationId) : undefined;
  const agents = (await store.agents.list(actor.agencyId))
    .filter((a) => canAccessProject(actor, a.projectId))
    .filter((a) => !query.agentType || a.agentType === query.agentType)
    .filter((a) => !project || a.projectId === project.id);
  return Promise.all(agents.map((a) => agentView(store, a)));
}

/** Platform-managed post-call fields are always kept. */
export async function updateAgent(store: Store, actor: Actor, id: string, body: PatchAgentBody): Promise<AgentView> {
  return store.withTransaction(async (tx) => {
    const agent = await loadAgent(tx, actor, id, { forUpdate: true });
    const { vapiAssistantId: _v, ...kept } = agent;
    const next: AgentRecord = {
      ...(body.vapiAssistantId === null ? kept : agent),
      ...(typeof body.vapiAssistantId === 'string' && { vapiAssistantId: body.vapiAssistantId }),
      ...(body.name !== undefined && { name: body.name }),
      ...(body.voice !== undefined && { voice: body.voice }),
      ...(body.prompt !== undefined && { prompt: body.prompt }),
      ...(body.capabilityIds !== undefined && { capabilities: capabilitiesFor(agent.agentType, body.capabilityIds, 'body.capabilityIds') }),
      postCallFields: mergePostCallFields(agent.postCallFields, body.postCallFields as PostCallFieldRecord[] | undefined),
    };
    return agentView(tx, await tx.agents.save(next));
  });
}

/** The skills that can be installed on the agent, and which are installed. */
export const skillsOf = (agent: AgentRecord) => SKILL_TYPES.map((t) => ({ ...t, installed: agent.capabilities.includes(t.capabilityId) }));
