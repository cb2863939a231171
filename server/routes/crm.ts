import { defineRoute, type RouteDef } from '../http/route.js';
import type { Services } from '../services.js';
import { IdParams } from '../../schemas/common.js';
import { CrmCalendar, CustomField, CustomValue, Pipeline } from '../../schemas/crm.js';
import { ok } from '../../schemas/common.js';
import { readCrmSetup } from '../domain/crm.js';

const access = { scope: 'crm:read', roles: ['agency_admin'] } as const;

export function crmRoutes(_s: Services): RouteDef[] {
  return [
    defineRoute({
      method: 'get', path: '/api/agent-builder/agents/:id/crm-custom-values', operationId: 'listCrmCustomValues', tag: 'CRM',
      summary: "Location-wide CRM custom values of the agent's project (template tokens)",
      access, params: IdParams,
      responses: { 200: { description: 'values', schema: { type: 'object', required: ['success', 'values'], properties: { success: { const: true }, values: { type: 'array', items: CustomValue } } } } },
      handler: async ({ caller, params, services }) => ({ success: true, values: await readCrmSetup(services, caller, params.id, 'customValues') }),
    }),
    defineRoute({
      method: 'get', path: '/api/agent-builder/agents/:id/crm-custom-fields', operationId: 'listCrmCustomFields', tag: 'CRM',
      summary: "Contact-level CRM custom fields of the agent's project",
      access, params: IdParams,
      responses: { 200: { description: 'fields', schema: { type: 'object', required: ['success', 'fields'], properties: { success: { const: true }, fields: { type: 'array', items: CustomField } } } } },
      handler: async ({ caller, params, services }) => ({ success: true, fields: await readCrmSetup(services, caller, params.id, 'customFields') }),
    }),
    defineRoute({
      method: 'get', path: '/api/agent-builder/agents/:id/crm/pipelines', operationId: 'listCrmPipelines', tag: 'CRM',
      summary: "Pipelines of the agent's CRM location, with their stages (for move-stage)",
      description: 'Read from the real CRM when the project is connected to one (cached for CRM_READ_CACHE_SECONDS), else from the sandbox. 409 `Disconnected` when the project must be reconnected.',
      access, params: IdParams,
      responses: { 200: { description: 'pipelines', schema: ok({ type: 'array', items: Pipeline }) } },
      handler: async ({ caller, params, services }) => ({ success: true, data: await readCrmSetup(services, caller, params.id, 'pipelines') }),
    }),
    defineRoute({
      method: 'get', path: '/api/agent-builder/agents/:id/crm/calendars', operationId: 'listCrmCalendars', tag: 'CRM',
      summary: "Calendars of the agent's CRM location (for book-appointment)",
      description: 'Read from the real CRM when the project is connected to one (cached for CRM_READ_CACHE_SECONDS), else from the sandbox. 409 `Disconnected` when the project must be reconnected.',
      access, params: IdParams,
      responses: { 200: { description: 'calendars', schema: ok({ type: 'array', items: CrmCalendar }) } },
      handler: async ({ caller, params, services }) => ({ success: true, data: await readCrmSetup(services, caller, params.id, 'calendars') }),
    }),
  ];
}
