import type { Services } from '../../services.js';
import type { LeadPageQuery, LeadRecord, Store } from '../../store/index.js';
import type { EnrolLeadBody } from '../../../schemas/lead.js';
import { canAccessProject, NO_PROJECT_ACCESS, type Actor } from '../actor.js';
import { conflict, forbidden, invalid, notFound } from '../errors.js';
import { enrol, enrolmentProblem, removeLead, upsertContact } from './dialer.js';

/** A lead the actor may see; absent and not visible look the same (as calls do). */
export async function loadLead(store: Store, actor: Actor, id: string): Promise<LeadRecord> {
  const lead = await store.leads.get(actor.agencyId, id);
  if (!lead || !canAccessProject(actor, lead.projectId)) throw notFound(`lead ${id} not found`);
  return lead;
}

export interface LeadListRequest {
  cadenceStep?: number;
  page?: number;
  limit?: number;
  search?: string;
  locationId?: string;
  campaignId?: string;
  campaignIds?: string;
  scheduleId?: string;
}

/** Both lists (spec 4.7, 4.8): the actor's visible projects, then the optional filters, then one page. */
export async function listLeads(store: Store, actor: Actor, q: LeadListRequest, mode: LeadPageQuery['mode']): Promise<{ leads: LeadRecord[]; total: number; page: number; totalPages: number }> {
  const limit = q.limit ?? 25;
  const page = q.page ?? 1;
  const query: LeadPageQuery = { agencyId: actor.agencyId, mode, limit, offset: (page - 1) * limit };
  if (mode === 'pipeline') query.cadenceStep = q.cadenceStep!;
  if (q.locationId !== undefined) {
    const project = await store.projects.find(actor.agencyId, q.locationId);
    // An unknown location answers as an inaccessible one: the list never says what exists elsewhere.
    if (!project || !canAccessProject(actor, project.id)) throw forbidden(NO_PROJECT_ACCESS);
    query.projectId = project.id;
  } else if (actor.projectIds) {
    query.projectIds = [...actor.projectIds];
  }
  if (q.campaignIds !== undefined) {
    const ids = [...new Set(q.campaignIds.split(',').map((id) => id.trim()).filter(Boolean))];
    if (ids.length === 0) throw invalid('campaignIds must list at least one campaign id, comma-separated');
    if (ids.length > 100) throw invalid('campaignIds may list at most 100 campaign ids');
    // Both given: the one campaign, if it is part of the combined view.
    query.campaignIds = q.campaignId !== undefined ? ids.filter((id) => id === q.campaignId) : ids;
  } else if (q.campaignId !== undefined) {
    query.campaignIds = [q.campaignId];
  }
  if (q.scheduleId !== undefined) query.cadenceId = q.scheduleId;
  const search = q.search?.trim().toLowerCase();
  if (search) query.search = search;
  const result = query.campaignIds?.length === 0 ? { leads: [], total: 0 } : await store.leadSearch.page(query);
  return { leads: result.leads, total: result.total, page, totalPages: Math.ceil(result.total / limit) };
}

/** Puts a contact in a campaign's queue (by id, or by its fields); a contact already there is returned as is. */
export async function enrolLead(s: Services, actor: Actor, body: EnrolLeadBody): Promise<{ lead: LeadRecord; created: boolean }> {
  const campaign = await s.store.campaigns.get(actor.agencyId, body.campaignId);
  const project = campaign && (await s.store.projects.get(actor.agencyId, campaign.projectId));
  if (!campaign || !project) throw notFound(`campaign ${body.campaignId} not found`);
  let contact = body.contactId !== undefined ? await s.store.crm.getContact(actor.agencyId, project.locationId, body.contactId) : undefined;
  if (body.contactId !== undefined && !contact) throw notFound(`contact ${body.contactId} not found in location ${project.locationId}`);
  contact ??= await upsertContact(s.store, actor.agencyId, project.locationId, body.contact!);
  const existing = await s.store.leads.inCampaign(actor.agencyId, campaign.id, contact.id);
  if (existing) return { lead: existing, created: false };
  const problem = enrolmentProblem(project, campaign, contact);
  if (problem) throw conflict(problem, 'NotEnrollable');
  return enrol(s, project, campaign, contact);
}

/** Takes a lead out of its campaign's queue; its cadence stops. */
export async function removeLeadOf(s: Services, actor: Actor, id: string): Promise<LeadRecord> {
  const lead = await loadLead(s.store, actor, id);
  await removeLead(s, lead, 'removed');
  return lead;
}
