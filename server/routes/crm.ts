import { defineRoute, type RouteDef } from '../http/route.js';
import type { Services } from '../services.js';
import { IdParams } from '../../schemas/common.js';
import { CrmCalendar, CustomField, CustomValue, Pipeline } from '../../schemas/crm.js';
import { ok } from '../../schemas/common.js';
import { vendorFailure } from '../providers/vendor-errors.js';
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
  /** A read of the project's CRM: the real location when connected to one, the sandbox otherwise. */
  const read = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      throw vendorFailure(err, `reading the CRM's ${what}`);
    }
  };
  const forAgent = (caller: Parameters<typeof loadAgent>[1], id: string) => projectOf(caller.agencyId, loadAgent(s, caller, id).projectId);
  return [
    defineRoute({
      method: 'get', path: '/api/agent-builder/agents/:id/crm-custom-values', operationId: 'listCrmCustomValues', tag: 'CRM',
      summary: "Location-wide CRM custom values of the agent's project (template tokens)",
      access, params: IdParams,
      responses: { 200: { description: 'values', schema: { type: 'object', required: ['success', 'values'], properties: { success: { const: true }, values: { type: 'array', items: CustomValue } } } } },
      handler: async ({ caller, params }) => {
        const agent = loadAgent(s, caller, params.id);
        const project = projectOf(caller.agencyId, agent.projectId);
        return { success: true, values: await read('custom values', () => s.providers.directory.customValues(caller.agencyId, project.locationId)) };
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
        return { success: true, fields: await read('custom fields', () => s.providers.directory.customFields(caller.agencyId, project.locationId)) };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/agent-builder/agents/:id/crm/pipelines', operationId: 'listCrmPipelines', tag: 'CRM',
      summary: "Pipelines of the agent's CRM location, with their stages (for move-stage)",
      description: 'Read from the real CRM when the project is connected to one (cached for CRM_READ_CACHE_SECONDS), else from the sandbox. 409 `Disconnected` when the project must be reconnected.',
      access, params: IdParams,
      responses: { 200: { description: 'pipelines', schema: ok({ type: 'array', items: Pipeline }) } },
      handler: async ({ caller, params }) => {
        const project = forAgent(caller, params.id);
        return { success: true, data: await read('pipelines', () => s.providers.directory.pipelines(caller.agencyId, project.locationId)) };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/agent-builder/agents/:id/crm/calendars', operationId: 'listCrmCalendars', tag: 'CRM',
      summary: "Calendars of the agent's CRM location (for book-appointment)",
      description: 'Read from the real CRM when the project is connected to one (cached for CRM_READ_CACHE_SECONDS), else from the sandbox. 409 `Disconnected` when the project must be reconnected.',
      access, params: IdParams,
      responses: { 200: { description: 'calendars', schema: ok({ type: 'array', items: CrmCalendar }) } },
      handler: async ({ caller, params }) => {
        const project = forAgent(caller, params.id);
        return { success: true, data: await read('calendars', () => s.providers.directory.calendars(caller.agencyId, project.locationId)) };
      },
    }),
  ];
}
