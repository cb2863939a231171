import { AGENT_TYPE_CATALOG } from '../catalog.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import { presentAgent } from '../http/present.js';
import type { Services } from '../services.js';
import { Agent, CreateAgentBody, ListAgentsQuery, PatchAgentBody } from '../../schemas/agent.js';
import { IdParams, ok } from '../../schemas/common.js';
import { AgentTypeEntry, SkillEntry } from '../../schemas/catalog.js';
import { agentView, createAgent, listAgents, loadAgent, skillsOf, updateAgent, type AgentView } from '../domain/agents.js';

const admin = ['agency_admin'] as const;
const anyRole = ['agency_admin', 'project_user'] as const;

const present = (v: AgentView) => presentAgent(v.agent, v.campaign);

export function agentRoutes(_s: Services): RouteDef[] {
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
      body: CreateAgentBody, idempotent: 'atomic',
      responses: { 200: { description: 'the agent', schema: ok(Agent) } },
      handler: async ({ caller, body, services }) => ({ success: true, data: present(await createAgent(services.store, caller, body)) }),
    }),
    defineRoute({
      method: 'get', path: '/api/agent-builder/agents', operationId: 'listAgents', tag: 'Agents',
      summary: 'List agents, optionally of one agentType or project',
      access: { scope: 'agents:read', roles: anyRole },
      query: ListAgentsQuery,
      responses: { 200: { description: 'agents', schema: ok({ type: 'array', items: Agent }) } },
      handler: async ({ caller, query, services }) => ({ success: true, data: (await listAgents(services.store, caller, query)).map(present) }),
    }),
    defineRoute({
      method: 'get', path: '/api/agent-builder/agents/:id', operationId: 'getAgent', tag: 'Agents',
      summary: 'Get an agent',
      access: { scope: 'agents:read', roles: anyRole },
      params: IdParams,
      responses: { 200: { description: 'the agent', schema: ok(Agent) } },
      handler: async ({ caller, params, services }) => ({ success: true, data: present(await agentView(services.store, await loadAgent(services.store, caller, params.id))) }),
    }),
    defineRoute({
      method: 'patch', path: '/api/agent-builder/agents/:id', operationId: 'updateAgent', tag: 'Agents',
      summary: 'Update an agent; platform-managed post-call fields are always kept',
      access: { scope: 'agents:write', roles: admin },
      params: IdParams, body: PatchAgentBody,
      responses: { 200: { description: 'the agent', schema: ok(Agent) } },
      handler: async ({ caller, params, body, services }) => ({ success: true, data: present(await updateAgent(services.store, caller, params.id, body)) }),
    }),
    defineRoute({
      method: 'get', path: '/api/agent-builder/agents/:id/skills/library', operationId: 'getSkillsLibrary', tag: 'Agents',
      summary: 'The skills that can be installed on the agent, and which are installed',
      access: { scope: 'agents:read', roles: anyRole },
      params: IdParams,
      responses: { 200: { description: 'skills', schema: ok({ type: 'array', items: SkillEntry }) } },
      handler: async ({ caller, params, services }) => ({ success: true, data: skillsOf(await loadAgent(services.store, caller, params.id)) }),
    }),
  ];
}
