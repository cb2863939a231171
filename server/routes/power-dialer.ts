import { Cadence, CreateCadenceBody, PatchCadenceBody } from '../../schemas/cadence.js';
import { Id, IdParams, ok } from '../../schemas/common.js';
import { EnrolLeadBody, LeadPage, ParkedLeadsQuery, PipelineLead, PipelineLeadsQuery } from '../../schemas/lead.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import { presentCadence, presentLead } from '../http/present.js';
import type { Services } from '../services.js';
import { createCadence, loadCadence, updateCadence } from '../domain/power-dialer/cadences.js';
import { enrolLead, listLeads, loadLead, removeLeadOf, type LeadListRequest } from '../domain/power-dialer/leads.js';
import type { Actor } from '../domain/actor.js';
import type { Store } from '../store/index.js';

const admin = ['agency_admin'] as const;
const anyRole = ['agency_admin', 'project_user'] as const;
const read = { scope: 'power_dialer:read', roles: anyRole } as const;
const write = { scope: 'power_dialer:write', roles: admin } as const;

const LeadParams = { type: 'object', required: ['leadId'], properties: { leadId: Id } } as const;

async function leadPage(store: Store, caller: Actor, q: LeadListRequest, mode: 'pipeline' | 'parked') {
  const { leads, ...page } = await listLeads(store, caller, q, mode);
  return { success: true, data: { leads: leads.map(presentLead), ...page } };
}

export function powerDialerRoutes(_s: Services): RouteDef[] {

  return [
    defineRoute({
      method: 'get', path: '/api/power-dialer/cadences', operationId: 'listCadences', tag: 'Power dialer',
      summary: "The agency's saved cadences",
      access: read,
      responses: { 200: { description: 'cadences', schema: ok({ type: 'array', items: Cadence }) } },
      handler: async ({ caller, services }) => ({ success: true, data: (await services.store.cadences.list(caller.agencyId)).map(presentCadence) }),
    }),
    defineRoute({
      method: 'post', path: '/api/power-dialer/cadences', operationId: 'createCadence', tag: 'Power dialer',
      summary: 'Save a cadence: ordered call attempts, each a delay after the previous one and an optional calling window',
      access: write, body: CreateCadenceBody, idempotent: 'atomic',
      responses: { 200: { description: 'the cadence', schema: ok(Cadence) } },
      handler: async ({ caller, body, services }) => ({ success: true, data: presentCadence(await createCadence(services.store, caller.agencyId, body)) }),
    }),
    defineRoute({
      method: 'get', path: '/api/power-dialer/cadences/:id', operationId: 'getCadence', tag: 'Power dialer',
      summary: 'One cadence',
      access: read, params: IdParams,
      responses: { 200: { description: 'the cadence', schema: ok(Cadence) } },
      handler: async ({ caller, params, services }) => ({ success: true, data: presentCadence(await loadCadence(services.store, caller.agencyId, params.id)) }),
    }),
    defineRoute({
      method: 'patch', path: '/api/power-dialer/cadences/:id', operationId: 'updateCadence', tag: 'Power dialer',
      summary: 'Rename a cadence or replace its steps; leads already enrolled keep the steps they started with',
      access: write, params: IdParams, body: PatchCadenceBody,
      responses: { 200: { description: 'the cadence', schema: ok(Cadence) } },
      handler: async ({ caller, params, body, services }) => ({ success: true, data: presentCadence(await updateCadence(services.store, caller.agencyId, params.id, body)) }),
    }),
    defineRoute({
      method: 'post', path: '/api/power-dialer/leads', operationId: 'enrolLead', tag: 'Power dialer',
      summary: "Put a contact in a campaign's queue (by id, or by its fields); a contact already there is returned as is",
      access: write, body: EnrolLeadBody, idempotent: 'claim',
      responses: {
        200: {
          description: 'the lead; `created` is false when the contact was already in the queue',
          schema: { type: 'object', required: ['success', 'data', 'created'], properties: { success: { const: true }, data: PipelineLead, created: { type: 'boolean' } } },
        },
      },
      handler: async ({ caller, body, services }) => {
        const { lead, created } = await enrolLead(services, caller, body);
        return { success: true, data: presentLead(lead), created };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/power-dialer/leads/:leadId', operationId: 'getLead', tag: 'Power dialer',
      summary: 'One lead',
      access: read, params: LeadParams,
      responses: { 200: { description: 'the lead', schema: ok(PipelineLead) } },
      handler: async ({ caller, params, services }) => ({ success: true, data: presentLead(await loadLead(services.store, caller, params.leadId)) }),
    }),
    defineRoute({
      method: 'delete', path: '/api/power-dialer/leads/:leadId', operationId: 'removeLead', tag: 'Power dialer',
      summary: "Take a lead out of its campaign's queue; its cadence stops",
      access: write, params: LeadParams,
      responses: {
        200: {
          description: 'removed',
          schema: ok({ type: 'object', required: ['_id', 'removed'], properties: { _id: { type: 'string' }, removed: { const: true } } }),
        },
      },
      handler: async ({ caller, params, services }) => {
        const lead = await removeLeadOf(services, caller, params.leadId);
        return { success: true, data: { _id: lead.id, removed: true } };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/power-dialer/pipeline/leads', operationId: 'listPipelineLeads', tag: 'Power dialer',
      summary: 'Leads being worked at one cadence step (scheduled, calling or called back), oldest first',
      access: read, query: PipelineLeadsQuery,
      responses: { 200: { description: 'a page of leads', schema: ok(LeadPage) } },
      handler: ({ caller, query, services }) => leadPage(services.store, caller, query, 'pipeline'),
    }),
    defineRoute({
      method: 'get', path: '/api/power-dialer/pipeline/s2l-parked', operationId: 'listParkedLeads', tag: 'Power dialer',
      summary: 'Speed-to-lead leads waiting for the calling window to open, oldest first',
      access: read, query: ParkedLeadsQuery,
      responses: { 200: { description: 'a page of leads', schema: ok(LeadPage) } },
      handler: ({ caller, query, services }) => leadPage(services.store, caller, query, 'parked'),
    }),
  ];
}
