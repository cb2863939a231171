import { WorkflowNotFoundError } from '@temporalio/client';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { memoize } from '../../../engine/memo.js';
import { isValidZone, resolveWindows, resolveZoneOptions } from '../../../engine/cadence/index.js';
import type { Contact } from '../../../engine/ports.js';
import { firstMove } from '../../../engine/workflows/lead-cadence-plan.js';
import {
  CALL_ENDED_SIGNAL,
  STOP_SIGNAL,
  leadWorkflowId,
  type CadenceSnapshot,
  type CallEndedSignal,
  type LeadCadenceInput,
  type StopReason,
} from '../../../engine/workflows/lead-cadence-types.js';
import type { CallingWindowSetting } from '../../../schemas/cadence.js';
import type { ContactEvent } from '../../../schemas/lead.js';
import { unavailable } from '../errors.js';
import type { Services } from '../../services.js';
import { newId } from '../../ids.js';
import { isLive, type CampaignRecord, type LeadContactFields, type LeadRecord, type ProjectRecord, type Store } from '../../store/index.js';

/** A campaign that names no cadence: one attempt, as soon as the calling window allows. */
export const DEFAULT_CADENCE: CadenceSnapshot = { id: null, steps: [{ delayMinutes: 0 }] };

/** Signals sent at once when a campaign or project stops: enough to be quick, few enough not to flood Temporal. */
const STOP_CONCURRENCY = 16;

const norm = (tag: string) => tag.trim().toLowerCase();

/** The first of the campaign's `inactiveTags` the contact carries (tags compare case-insensitively), if any. */
export function exclusionTag(contactTags: readonly string[], campaign: Pick<CampaignRecord, 'inactiveTags'>): string | undefined {
  const have = new Set(contactTags.map(norm));
  return campaign.inactiveTags.find((t) => have.has(norm(t)));
}

/**
 * libphonenumber's parse and validation took ~0.2 ms, and an enrolment asks twice (the check, then
 * the lead's copy): a sixth of an enrolment's own work (bench/README.md).
 */
const e164Of = memoize((phone: string) => {
  const parsed = parsePhoneNumberFromString(phone, 'US');
  return parsed?.isValid() ? parsed.number : null;
}, 1000);

/** The contact's phone in E.164, read as a NANP number when written without a country code; null when not dialable. */
export function dialablePhone(phone: string | undefined): string | null {
  return phone ? e164Of(phone) : null;
}

/**
 * Why the contact cannot enter the campaign's queue, or null when it can: the campaign is active
 * with a dialing mode, its project is live, the contact carries one of the `activeTags` and none
 * of the `inactiveTags`, and it has a dialable phone.
 */
export function enrolmentProblem(project: ProjectRecord, campaign: CampaignRecord, contact: Contact): string | null {
  if (!project.active || project.status !== 'live') return `project ${project.id} is not live (status ${project.status})`;
  if (!campaign.active) return `campaign ${campaign.id} is not active`;
  if (!campaign.dialing) return `campaign ${campaign.id} has no dialing mode`;
  const excluded = exclusionTag(contact.tags, campaign);
  if (excluded) return `contact ${contact.id} carries the campaign's exclusion tag "${excluded}"`;
  const have = new Set(contact.tags.map(norm));
  if (!campaign.activeTags.some((t) => have.has(norm(t)))) {
    return `contact ${contact.id} carries none of the campaign's activeTags (${campaign.activeTags.join(', ') || 'none set'})`;
  }
  if (!dialablePhone(contact.phone)) return `contact ${contact.id} has no dialable phone number`;
  return null;
}

/** The lead's copy of the contact's data. */
export function contactFields(contact: Contact, project: ProjectRecord): LeadContactFields {
  const fullName = contact.fullName || [contact.firstName, contact.lastName].filter(Boolean).join(' ');
  return {
    firstName: contact.firstName ?? '',
    fullName,
    email: contact.email ?? '',
    phone: dialablePhone(contact.phone) ?? contact.phone ?? '',
    timezone: isValidZone(contact.timezone) ? contact.timezone : (project.timezone ?? ''),
    tags: [...contact.tags],
    pipeline: contact.pipelineId ?? '',
  };
}

/** The cadence a campaign's leads follow: `config.cadenceId`, or the default one-step cadence. */
async function cadenceOf(store: Store, campaign: CampaignRecord): Promise<CadenceSnapshot> {
  const id = campaign.config.cadenceId;
  const cadence = typeof id === 'string' ? await store.cadences.get(campaign.agencyId, id) : undefined;
  return cadence ? { id: cadence.id, steps: cadence.steps } : DEFAULT_CADENCE;
}

/** Everything the lead's workflow runs on, pinned now: later edits apply to leads enrolled later. */
export async function leadWorkflowInput(s: Services, lead: LeadRecord, campaign: CampaignRecord, project: ProjectRecord, contact: Contact, enrolledAt: number): Promise<LeadCadenceInput> {
  const windowSources = {
    campaign: { callingWindow: campaign.callingWindow as CallingWindowSetting | undefined },
    project: { callingWindowOverride: project.callingWindowOverride as CallingWindowSetting | undefined, timezone: project.timezone },
  };
  return {
    agencyId: lead.agencyId,
    leadId: lead.id,
    campaignId: campaign.id,
    lead: { phone: lead.phone },
    dialing: campaign.dialing!,
    cadence: await cadenceOf(s.store, campaign),
    windows: resolveWindows(windowSources),
    zoneOpts: resolveZoneOptions({
      campaign: { multipleTimezoneCheck: campaign.multipleTimezoneCheck },
      project: { multipleTimezoneCheck: project.multipleTimezoneCheck, timezone: project.timezone },
      lead: { timezone: contact.timezone ?? null },
    }),
    dropOutsideWindow: campaign.dropOutsideWindow ?? false,
    fromNumbers: [...campaign.fromNumbers],
    enrolledAt,
    callTimeoutSeconds: s.config.dialerCallTimeoutSeconds,
    timeScale: s.config.cadenceTimeScale,
  };
}

function temporalOf(s: Services) {
  if (!s.temporal) throw unavailable('the workflow engine is not connected; retry shortly', 5);
  return s.temporal;
}

/**
 * Puts the contact in the campaign's queue and starts its cadence workflow `lead:<leadId>`. The
 * caller has checked `enrolmentProblem` and found no lead of the contact in the campaign; one that
 * a concurrent enrolment stored since is returned as it is (`created: false`): never twice.
 */
export async function enrol(s: Services, project: ProjectRecord, campaign: CampaignRecord, contact: Contact): Promise<{ lead: LeadRecord; created: boolean }> {
  const temporal = temporalOf(s);
  const now = Date.now();
  const at = new Date(now).toISOString();
  const lead: LeadRecord = {
    id: newId('lead'),
    agencyId: campaign.agencyId,
    projectId: project.id,
    campaignId: campaign.id,
    contactId: contact.id,
    queueId: `queue_${campaign.id}`,
    cadenceId: null,
    cadenceStep: 0,
    callStatus: 'scheduled',
    nextCallTime: at,
    ...contactFields(contact, project),
    live: true,
    callerPreference: '',
    locationId: project.locationId,
    businessName: project.businessName ?? '',
    campaignName: campaign.name,
    createdAt: at,
    updatedAt: at,
  };
  const input = await leadWorkflowInput(s, lead, campaign, project, contact, now);
  // The row shows the lead's first state at once (the workflow computes the same from the same input).
  const first = firstMove(input, now);
  Object.assign(lead, {
    cadenceId: input.cadence.id,
    cadenceStep: first.step,
    callStatus: first.status,
    live: isLive(first.status),
    ...(first.kind === 'call' && { nextCallTime: new Date(first.at).toISOString() }),
  });
  if (!(await s.store.leads.insert(lead))) {
    // A concurrent enrolment of the same contact won the race.
    return { lead: (await s.store.leads.inCampaign(campaign.agencyId, campaign.id, contact.id))!, created: false };
  }
  try {
    // The lead's id is new, so a run already under it can only come from a retried start: it is the lead's.
    await temporal.startLeadCadence(leadWorkflowId(lead.id), input);
  } catch (err) {
    // Without its workflow the lead would sit in the queue forever: take it out, let the caller retry.
    await s.store.leads.remove(lead.agencyId, lead.id);
    s.logger.error({ err, leadId: lead.id }, 'starting the lead cadence workflow failed');
    throw unavailable('the lead could not be scheduled yet; retry shortly', 5);
  }
  return { lead, created: true };
}

/** Signals `stop` to the leads' workflows; one that already ended is fine. */
export async function stopLeadWorkflows(s: Services, leadIds: readonly string[], reason: StopReason): Promise<void> {
  if (!s.temporal || leadIds.length === 0) return;
  const client = s.temporal.client;
  const queue = [...leadIds];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      try {
        await client.workflow.getHandle(leadWorkflowId(id)).signal(STOP_SIGNAL, { reason });
      } catch (err) {
        // A lead whose row is gone never places another call (the call activity checks the row), so a
        // lost signal only lets its workflow run until its next attempt is due.
        if (!(err instanceof WorkflowNotFoundError)) s.logger.warn({ err, leadId: id }, 'stopping a lead workflow failed');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(STOP_CONCURRENCY, queue.length) }, worker));
}

/** Explicit removal: the row goes, the workflow stops. */
export async function removeLead(s: Services, lead: LeadRecord, reason: StopReason): Promise<void> {
  await s.store.leads.remove(lead.agencyId, lead.id);
  if (lead.live) await stopLeadWorkflows(s, [lead.id], reason);
}

/**
 * A campaign stopped (or its project did): the leads it was still working leave the queue, in the
 * transaction that stops it (`tx`). The ids it answers are the workflows to stop once that has
 * committed (`stopInBackground`): a large queue takes a while, and a lead without its row places
 * no further call anyway. Finished leads stay as a record.
 */
export const campaignStopped = (tx: Store, agencyId: string, campaignId: string) => tx.leads.removeLiveOfCampaign(agencyId, campaignId);
export const projectStopped = (tx: Store, agencyId: string, projectId: string) => tx.leads.removeLiveOfProject(agencyId, projectId);

/** Stop signals to the workflows of leads that left the queue, sent after the fact. */
export function stopInBackground(s: Services, leadIds: readonly string[], reason: StopReason): void {
  void stopLeadWorkflows(s, leadIds, reason);
}

/**
 * A call.ended event of a dialer call: signal the lead's workflow. A lead of another agency, a
 * removed lead, or a workflow that already ended is ignored; any other failure propagates, so the
 * event is answered 503 and re-delivered.
 */
export async function signalCallEnded(s: Services, agencyId: string, leadId: string, signal: CallEndedSignal): Promise<void> {
  if (!s.temporal || !(await s.store.leads.get(agencyId, leadId))) return;
  try {
    await s.temporal.client.workflow.getHandle(leadWorkflowId(leadId)).signal(CALL_ENDED_SIGNAL, signal);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return;
    s.logger.error({ err, leadId, callId: signal.callId }, 'signalling the lead cadence workflow failed');
    throw unavailable("the call is stored but its lead's cadence could not be told yet; retry the event", 5);
  }
}

/** The CRM's view of a contact merged over the stored one: the fields sent replace the stored ones. */
export async function upsertContact(store: Store, agencyId: string, locationId: string, given: Partial<Contact>): Promise<Contact> {
  const stored = given.id ? await store.crm.getContact(agencyId, locationId, given.id) : undefined;
  const { locationId: _l, fields, ...rest } = given;
  const merged: Contact = {
    ...(stored ?? {}),
    ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
    id: given.id ?? stored?.id ?? newId('ct'),
    locationId,
    tags: [...(given.tags ?? stored?.tags ?? [])],
    fields: { ...(stored?.fields ?? {}), ...(fields ?? {}) },
  };
  if (!merged.fullName && (merged.firstName || merged.lastName)) merged.fullName = [merged.firstName, merged.lastName].filter(Boolean).join(' ');
  await store.crm.saveContact(agencyId, merged);
  return merged;
}

/**
 * A CRM contact event: upsert the contact, copy its data onto its leads, then per campaign of its
 * project: an exclusion tag takes a lead out of the queue; a contact that meets the rules enters.
 * `contact.deleted` takes the contact out of every queue.
 */
export async function applyContactEvent(s: Services, agencyId: string, event: ContactEvent): Promise<{ contactId: string; enrolled: string[]; removed: string[] }> {
  const given = event.contact;
  const enrolled: string[] = [];
  const removed: string[] = [];
  if (event.type === 'contact.deleted') {
    for (const lead of await s.store.leads.ofContact(agencyId, given.locationId, given.id)) {
      await removeLead(s, lead, 'contact_deleted');
      removed.push(lead.id);
    }
    return { contactId: given.id, enrolled, removed };
  }
  // The contact and its leads' copy of it change together.
  const { contact, project } = await s.store.withTransaction(async (tx) => {
    const contact = await upsertContact(tx, agencyId, given.locationId, given);
    const project = await tx.projects.find(agencyId, given.locationId);
    if (project) await tx.leads.refreshContact(agencyId, given.locationId, contact.id, contactFields(contact, project));
    return { contact, project };
  });
  if (!project) return { contactId: contact.id, enrolled, removed };
  for (const campaign of await s.store.campaigns.listByProject(agencyId, project.id)) {
    const lead = await s.store.leads.inCampaign(agencyId, campaign.id, contact.id);
    if (lead) {
      if (lead.live && exclusionTag(contact.tags, campaign)) {
        await removeLead(s, lead, 'excluded');
        removed.push(lead.id);
      }
      continue;
    }
    if (enrolmentProblem(project, campaign, contact)) continue;
    const result = await enrol(s, project, campaign, contact);
    if (result.created) enrolled.push(result.lead.id);
  }
  return { contactId: contact.id, enrolled, removed };
}
