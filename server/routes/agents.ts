import { applyTemplate } from './workflow-tools.js';
import { findTemplate } from '../workflow-templates.js';
import { AGENT_TYPE_CATALOG, SKILL_TYPES, fixedTemplateOf, legacyAgentType } from '../catalog.js';
import { AppError, notFound } from '../http/errors.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import type { Caller } from '../http/request-context.js';
import { assertProjectAccess, canAccessProject } from '../http/request-context.js';
import type { Services } from '../services.js';
import type { AgentRecord, PostCallFieldRecord } from '../store/agents.js';
import { AGENT_TYPES, Agent, CreateAgentBody, ListAgentsQuery, PatchAgentBody } from '../../schemas/agent.js';
import { IdParams, ok } from '../../schemas/common.js';
import { AgentTypeEntry, SkillEntry } from '../../schemas/catalog.js';
import { loadProject } from './projects.js';
import { presentAgent } from './present.js';

const admin = ['agency_admin'] as const;
const anyRole = ['agency_admin', 'project_user'] as const;

/** Fields the platform manages: every agent has them and an update never removes them (spec 2.11). */
export const PLATFORM_FIELDS: PostCallFieldRecord[] = [
  { name: 'call_outcome', type: 'enum', description: 'standard call outcome', platformManaged: true },
  { name: 'call_summary', type: 'text', description: 'summary of the call', platformManaged: true },
  { name: 'callback_time', type: 'datetime', description: 'time the contact asked to be called back', platformManaged: true },
];

export function assertAgentType(value: string): asserts value is (typeof AGENT_TYPES)[number] {
  if (!(AGENT_TYPES as readonly string[]).includes(value)) {
    throw new AppError('VALIDATION', `agentType "${value}" is not valid; valid types: ${AGENT_TYPES.join(', ')}`);
  }
}

export function loadAgent(s: Services, caller: Caller, id: string): AgentRecord {
  const agent = s.repos.agents.get(caller.agencyId, id);
  if (!agent) throw notFound(`agent ${id} not found`);
  assertProjectAccess(caller, agent.projectId);
  return agent;
}

/**
 * Spec 4.13: a Reminder agent resolves to its single fixed template, whose capabilities it always
 * has (so it can end calls in the outcomes its campaign system lists). Sending other capabilities
 * for it is a 400, not a silent replacement.
 */
function capabilitiesFor(agentType: string, sent: readonly string[] | undefined, field: string): string[] {
  const fixed = fixedTemplateOf(agentType);
  if (!fixed) return [...(sent ?? [])];
  if (sent !== undefined && !(sent.length === fixed.capabilityIds.length && sent.every((c) => fixed.capabilityIds.includes(c)))) {
    throw new AppError('VALIDATION', `${field}: a ${agentType} agent has the fixed template ${fixed.id} with the capabilities [${fixed.capabilityIds.join(', ')}]; omit ${field} or send exactly those`);
  }
  return [...fixed.capabilityIds];
}

function mergePostCallFields(current: PostCallFieldRecord[], sent: PostCallFieldRecord[] | undefined): PostCallFieldRecord[] {
  const managed = current.filter((f) => f.platformManaged);
  if (!sent) return current;
  const custom = sent.filter((f) => !managed.some((m) => m.name === f.name)).map((f) => ({ ...f, platformManaged: false }));
  return [...managed, ...custom];
}

export function agentRoutes(s: Services): RouteDef[] {
  const { agents, campaigns } = s.repos;
  const present = (a: AgentRecord) => presentAgent(a, a.campaignId ? campaigns.get(a.agencyId, a.campaignId) : undefined);
  return [
    defineRoute({
      method: 'get', path: '/api/agent-builder/agent-types', operationId: 'listAgentTypes', tag: 'Agents',
      summary: 'The agent types with their starting capability templates',
      access: { scope: 'agents:read', roles: anyRole },
      responses: { 200: { description: 'agent types', schema: ok({ type: 'array', items: AgentTypeEntry }) } },
      handler: () => ({ success: true, data: AGENT_TYPE_CATALOG }),
    }),
    defineRoute({
      method: 'post', path: '/api/agent-builder/agents', operationId: 'createAgent', tag: 'Agents',
      summary: 'Create an agent (and its primary campaign) in a project',
      access: { scope: 'agents:write', roles: admin },
      body: CreateAgentBody, idempotent: true,
      responses: { 200: { description: 'the agent', schema: ok(Agent) } },
      handler: ({ caller, body }) => {
        assertAgentType(body.agentType);
        const project = loadProject(s, caller, body.locationId);
        const capabilities = capabilitiesFor(body.agentType, body.capabilityIds, 'body.capabilityIds');
        const template = body.workflowTemplateId === undefined ? undefined : findTemplate(body.workflowTemplateId);
        if (body.workflowTemplateId !== undefined && !template) throw new AppError('VALIDATION', `body.workflowTemplateId "${body.workflowTemplateId}" is not a template; GET /api/agent-builder/workflow-templates lists them`);
        return s.db.transaction(() => {
          const agent = agents.insert({
            agencyId: caller.agencyId,
            projectId: project.id,
            locationId: project.locationId,
            name: body.name,
            agentType: body.agentType as AgentRecord['agentType'],
            capabilities,
            campaignId: null,
            postCallFields: mergePostCallFields(PLATFORM_FIELDS, body.postCallFields ?? []),
            ...(body.voice !== undefined && { voice: body.voice }),
            ...(body.prompt !== undefined && { prompt: body.prompt }),
            ...(body.vapiAssistantId !== undefined && { vapiAssistantId: body.vapiAssistantId }),
          });
          const campaign = campaigns.insert({
            agencyId: caller.agencyId,
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
          const saved = agents.save({ ...agent, campaignId: campaign.id });
          if (template) applyTemplate(s, caller.agencyId, { agent: saved, campaign, project }, template, 0, caller.keyId);
          return { success: true, data: presentAgent(saved, campaign) };
        }).immediate();
      },
    }),
    defineRoute({
      method: 'get', path: '/api/agent-builder/agents', operationId: 'listAgents', tag: 'Agents',
      summary: 'List agents, optionally of one agentType or project',
      access: { scope: 'agents:read', roles: anyRole },
      query: ListAgentsQuery,
      responses: { 200: { description: 'agents', schema: ok({ type: 'array', items: Agent }) } },
      handler: ({ caller, query }) => {
        if (query.agentType !== undefined) assertAgentType(query.agentType);
        const project = query.locationId ? loadProject(s, caller, query.locationId) : undefined;
        return {
          success: true,
          data: agents
            .list(caller.agencyId)
            .filter((a) => canAccessProject(caller, a.projectId))
            .filter((a) => !query.agentType || a.agentType === query.agentType)
            .filter((a) => !project || a.projectId === project.id)
            .map((a) => present(a)),
        };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/agent-builder/agents/:id', operationId: 'getAgent', tag: 'Agents',
      summary: 'Get an agent',
      access: { scope: 'agents:read', roles: anyRole },
      params: IdParams,
      responses: { 200: { description: 'the agent', schema: ok(Agent) } },
      handler: ({ caller, params }) => ({ success: true, data: present(loadAgent(s, caller, params.id)) }),
    }),
    defineRoute({
      method: 'patch', path: '/api/agent-builder/agents/:id', operationId: 'updateAgent', tag: 'Agents',
      summary: 'Update an agent; platform-managed post-call fields are always kept',
      access: { scope: 'agents:write', roles: admin },
      params: IdParams, body: PatchAgentBody,
      responses: { 200: { description: 'the agent', schema: ok(Agent) } },
      handler: ({ caller, params, body }) => {
        return s.db.transaction(() => {
          const agent = loadAgent(s, caller, params.id);
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
          return { success: true, data: present(agents.save(next)) };
        }).immediate();
      },
    }),
    defineRoute({
      method: 'get', path: '/api/agent-builder/agents/:id/skills/library', operationId: 'getSkillsLibrary', tag: 'Agents',
      summary: 'The skills that can be installed on the agent, and which are installed',
      access: { scope: 'agents:read', roles: anyRole },
      params: IdParams,
      responses: { 200: { description: 'skills', schema: ok({ type: 'array', items: SkillEntry }) } },
      handler: ({ caller, params }) => {
        const agent = loadAgent(s, caller, params.id);
        return { success: true, data: SKILL_TYPES.map((t) => ({ ...t, installed: agent.capabilities.includes(t.capabilityId) })) };
      },
    }),
  ];
}
