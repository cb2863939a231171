import { stepProblems, windowSettingProblems } from '../../engine/cadence/index.js';
import { Cadence, CreateCadenceBody, PatchCadenceBody } from '../../schemas/cadence.js';
import { Id, IdParams, ok } from '../../schemas/common.js';
import { EnrolLeadBody, LeadPage, ParkedLeadsQuery, PipelineLead, PipelineLeadsQuery } from '../../schemas/lead.js';
import { AppError, notFound } from '../http/errors.js';
import type { Caller } from '../http/request-context.js';
import { canAccessProject } from '../http/request-context.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import { enrol, enrolmentProblem, removeLead, upsertContact } from '../power-dialer/dialer.js';
import type { Services } from '../services.js';
import type { CadenceRecord } from '../store/cadences.js';
import type { LeadPageQuery, LeadRecord } from '../store/leads.js';

const admin = ['agency_admin'] as const;
const anyRole = ['agency_admin', 'project_user'] as const;
const read = { scope: 'power_dialer:read', roles: anyRole } as const;
const write = { scope: 'power_dialer:write', roles: admin } as const;

// Spec 7: the power-dialer 403 says, in so many words, that the caller has no access to the project.
import { NO_PROJECT_ACCESS } from '../http/error-envelope.js';

const LeadParams = { type: 'object', required: ['leadId'], properties: { leadId: Id } } as const;

/** Ranges and zones the schema cannot check, as a 400 naming the field (`body.steps[1].callingWindow.tz ...`). */
export function assertStepsUsable(steps: readonly unknown[], path = 'body.steps'): void {
  const problems = steps.flatMap((step, i) => [
    ...stepProblems(step, `${path}[${i}]`),
    ...windowSettingProblems((step as { callingWindow?: unknown }).callingWindow, `${path}[${i}].callingWindow`),
  ]);
  if (problems.length > 0) throw new AppError('VALIDATION', problems.join('; '));
}

/** The same for a calling-window setting of a campaign or project. */
export function assertWindowsUsable(setting: unknown, path: string): void {
  const problems = windowSettingProblems(setting, path);
  if (problems.length > 0) throw new AppError('VALIDATION', problems.join('; '));
}

/** Campaign writes (minimal hook in campaigns.ts): windows usable, `config.cadenceId` a cadence of the agency. */
export function assertCampaignDialerSettings(s: Services, agencyId: string, body: { callingWindow?: unknown; config?: { cadenceId?: string } }): void {
  if (body.callingWindow !== undefined) assertWindowsUsable(body.callingWindow, 'body.callingWindow');
  const cadenceId = body.config?.cadenceId;
  if (cadenceId !== undefined && !s.repos.cadences.get(agencyId, cadenceId)) {
    throw new AppError('VALIDATION', `body.config.cadenceId "${cadenceId}" is not a cadence of this agency`);
  }
}

const presentCadence = (c: CadenceRecord) => ({ id: c.id, name: c.name, steps: c.steps, createdAt: c.createdAt, updatedAt: c.updatedAt });

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

interface ListQuery {
  cadenceStep?: number;
  page?: number;
  limit?: number;
  search?: string;
  locationId?: string;
  campaignId?: string;
  campaignIds?: string;
  scheduleId?: string;
}

export function powerDialerRoutes(s: Services): RouteDef[] {
  const { cadences, leads, campaigns, projects, crm } = s.repos;

  const loadCadence = (agencyId: string, id: string) => {
    const c = cadences.get(agencyId, id);
    if (!c) throw notFound(`cadence ${id} not found`);
    return c;
  };

  const loadLead = (caller: Caller, id: string) => {
    const lead = leads.get(caller.agencyId, id);
    // Like calls: absent and not visible to this key look the same.
    if (!lead || !canAccessProject(caller, lead.projectId)) throw notFound(`lead ${id} not found`);
    return lead;
  };

  /** Both lists: the caller's visible projects, then the optional filters, then one page. */
  function listLeads(caller: Caller, q: ListQuery, mode: LeadPageQuery['mode']) {
    const limit = q.limit ?? 25;
    const page = q.page ?? 1;
    const query: LeadPageQuery = { agencyId: caller.agencyId, mode, limit, offset: (page - 1) * limit };
    if (mode === 'pipeline') query.cadenceStep = q.cadenceStep!;
    if (q.locationId !== undefined) {
      const project = projects.find(caller.agencyId, q.locationId);
      // An unknown location answers as an inaccessible one: the list never says what exists elsewhere.
      if (!project || !canAccessProject(caller, project.id)) throw new AppError('FORBIDDEN', NO_PROJECT_ACCESS);
      query.projectId = project.id;
    } else if (caller.projectIds) {
      query.projectIds = [...caller.projectIds];
    }
    if (q.campaignIds !== undefined) {
      const ids = [...new Set(q.campaignIds.split(',').map((id) => id.trim()).filter(Boolean))];
      if (ids.length === 0) throw new AppError('VALIDATION', 'campaignIds must list at least one campaign id, comma-separated');
      if (ids.length > 100) throw new AppError('VALIDATION', 'campaignIds may list at most 100 campaign ids');
      // Both given: the one campaign, if it is part of the combined view.
      query.campaignIds = q.campaignId !== undefined ? ids.filter((id) => id === q.campaignId) : ids;
    } else if (q.campaignId !== undefined) {
      query.campaignIds = [q.campaignId];
    }
    if (q.scheduleId !== undefined) query.cadenceId = q.scheduleId;
    const search = q.search?.trim().toLowerCase();
    if (search) query.search = search;
    const result = query.campaignIds?.length === 0 ? { leads: [], total: 0 } : leads.page(query);
    return {
      success: true,
      data: { leads: result.leads.map(presentLead), total: result.total, page, totalPages: Math.ceil(result.total / limit) },
    };
  }

  return [
    defineRoute({
      method: 'get', path: '/api/power-dialer/cadences', operationId: 'listCadences', tag: 'Power dialer',
      summary: "The agency's saved cadences",
      access: read,
      responses: { 200: { description: 'cadences', schema: ok({ type: 'array', items: Cadence }) } },
      handler: ({ caller }) => ({ success: true, data: cadences.list(caller.agencyId).map(presentCadence) }),
    }),
    defineRoute({
      method: 'post', path: '/api/power-dialer/cadences', operationId: 'createCadence', tag: 'Power dialer',
      summary: 'Save a cadence: ordered call attempts, each a delay after the previous one and an optional calling window',
      access: write, body: CreateCadenceBody, idempotent: true,
      responses: { 200: { description: 'the cadence', schema: ok(Cadence) } },
      handler: ({ caller, body }) => {
        assertStepsUsable(body.steps);
        return { success: true, data: presentCadence(cadences.insert({ agencyId: caller.agencyId, name: body.name, steps: [...body.steps] })) };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/power-dialer/cadences/:id', operationId: 'getCadence', tag: 'Power dialer',
      summary: 'One cadence',
      access: read, params: IdParams,
      responses: { 200: { description: 'the cadence', schema: ok(Cadence) } },
      handler: ({ caller, params }) => ({ success: true, data: presentCadence(loadCadence(caller.agencyId, params.id)) }),
    }),
    defineRoute({
      method: 'patch', path: '/api/power-dialer/cadences/:id', operationId: 'updateCadence', tag: 'Power dialer',
      summary: 'Rename a cadence or replace its steps; leads already enrolled keep the steps they started with',
      access: write, params: IdParams, body: PatchCadenceBody,
      responses: { 200: { description: 'the cadence', schema: ok(Cadence) } },
      handler: ({ caller, params, body }) => {
        const current = loadCadence(caller.agencyId, params.id);
        if (body.steps) assertStepsUsable(body.steps);
        const next = { ...current, ...(body.name !== undefined && { name: body.name }), ...(body.steps !== undefined && { steps: [...body.steps] }) };
        return { success: true, data: presentCadence(cadences.save(next)) };
      },
    }),
    defineRoute({
      method: 'post', path: '/api/power-dialer/leads', operationId: 'enrolLead', tag: 'Power dialer',
      summary: "Put a contact in a campaign's queue (by id, or by its fields); a contact already there is returned as is",
      access: write, body: EnrolLeadBody, idempotent: true,
      responses: {
        200: {
          description: 'the lead; `created` is false when the contact was already in the queue',
          schema: { type: 'object', required: ['success', 'data', 'created'], properties: { success: { const: true }, data: PipelineLead, created: { type: 'boolean' } } },
        },
      },
      handler: async ({ caller, body }) => {
        if ((body.contactId === undefined) === (body.contact === undefined)) {
          throw new AppError('VALIDATION', 'send exactly one of body.contactId and body.contact');
        }
        const campaign = campaigns.get(caller.agencyId, body.campaignId);
        const project = campaign && projects.get(caller.agencyId, campaign.projectId);
        if (!campaign || !project) throw notFound(`campaign ${body.campaignId} not found`);
        let contact = body.contactId !== undefined ? crm.getContact(caller.agencyId, project.locationId, body.contactId) : undefined;
        if (body.contactId !== undefined && !contact) throw notFound(`contact ${body.contactId} not found in location ${project.locationId}`);
        contact ??= upsertContact(s, caller.agencyId, project.locationId, body.contact!);
        const existing = leads.inCampaign(caller.agencyId, campaign.id, contact.id);
        if (existing) return { success: true, data: presentLead(existing), created: false };
        const problem = enrolmentProblem(project, campaign, contact);
        if (problem) throw new AppError('CONFLICT', problem, { detailCode: 'NotEnrollable' });
        const { lead, created } = await enrol(s, project, campaign, contact);
        return { success: true, data: presentLead(lead), created };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/power-dialer/leads/:leadId', operationId: 'getLead', tag: 'Power dialer',
      summary: 'One lead',
      access: read, params: LeadParams,
      responses: { 200: { description: 'the lead', schema: ok(PipelineLead) } },
      handler: ({ caller, params }) => ({ success: true, data: presentLead(loadLead(caller, params.leadId)) }),
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
      handler: async ({ caller, params }) => {
        const lead = loadLead(caller, params.leadId);
        await removeLead(s, lead, 'removed');
        return { success: true, data: { _id: lead.id, removed: true } };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/power-dialer/pipeline/leads', operationId: 'listPipelineLeads', tag: 'Power dialer',
      summary: 'Leads being worked at one cadence step (scheduled, calling or called back), oldest first',
      access: read, query: PipelineLeadsQuery,
      responses: { 200: { description: 'a page of leads', schema: ok(LeadPage) } },
      handler: ({ caller, query }) => {
        if (query.cadenceStep === undefined) throw new AppError('VALIDATION', 'cadenceStep is required');
        return listLeads(caller, query, 'pipeline');
      },
    }),
    defineRoute({
      method: 'get', path: '/api/power-dialer/pipeline/s2l-parked', operationId: 'listParkedLeads', tag: 'Power dialer',
      summary: 'Speed-to-lead leads waiting for the calling window to open, oldest first',
      access: read, query: ParkedLeadsQuery,
      responses: { 200: { description: 'a page of leads', schema: ok(LeadPage) } },
      handler: ({ caller, query }) => listLeads(caller, query, 'parked'),
    }),
  ];
}
