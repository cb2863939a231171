import { defineRoute, type RouteDef } from '../http/route.js';
import type { Services } from '../services.js';
import { IdParams } from '../../schemas/common.js';
import { CustomField, CustomValue } from '../../schemas/crm.js';
import { loadAgent } from './agents.js';
import { assertCrmUsable } from './projects.js';
import { notFound } from '../http/errors.js';

const access = { scope: 'crm:read', roles: ['agency_admin'] } as const;

export function crmRoutes(s: Services): RouteDef[] {
  const projectOf = (agencyId: string, projectId: string) => {
    const p = s.repos.projects.get(agencyId, projectId);
    if (!p) throw notFound('the project of this agent no longer exists');
    assertCrmUsable(p);
    return p;
  };
  return [
    defineRoute({
      method: 'get', path: '/api/agent-builder/agents/:id/crm-custom-values', operationId: 'listCrmCustomValues', tag: 'CRM',
      summary: "Location-wide CRM custom values of the agent's project (template tokens)",
      access, params: IdParams,
      responses: { 200: { description: 'values', schema: { type: 'object', required: ['success', 'values'], properties: { success: { const: true }, values: { type: 'array', items: CustomValue } } } } },
      handler: async ({ caller, params }) => {
        const agent = loadAgent(s, caller, params.id);
        const project = projectOf(caller.agencyId, agent.projectId);
        return { success: true, values: await s.ports.crm.customValues(caller.agencyId, project.locationId) };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/agent-builder/agents/:id/crm-custom-fields', operationId: 'listCrmCustomFields', tag: 'CRM',
      summary: "Contact-level CRM custom fields of the agent's project",
      access, params: IdParams,
      responses: { 200: { description: 'fields', schema: { type: 'object', required: ['success', 'fields'], properties: { success: { const: true }, fields: { type: 'array', items: CustomField } } } } },
      handler: async ({ caller, params }) => {
        const agent = loadAgent(s, caller, params.id);
        const project = projectOf(caller.agencyId, agent.projectId);
        return { success: true, fields: await s.ports.crm.customFields(caller.agencyId, project.locationId) };
      },
    }),
  ];
}
