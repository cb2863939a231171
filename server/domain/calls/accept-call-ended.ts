import { calendarDate } from './calendar-date.js';
import { normalizeOutcome, OUTCOMES } from '../../../engine/graph/outcomes.js';
import { legacyAgentType } from '../../catalog.js';
import { postCallWorkflowId, type PostCallInput } from '../../../engine/workflows/post-call-types.js';
import { conflict, invalid, unavailable } from '../errors.js';
import type { Services } from '../../services.js';
import type { CallEndedEvent } from '../../../schemas/call.js';
import { newId } from '../../ids.js';
import { signalCallEnded } from '../power-dialer/dialer.js';
import type { Store } from '../../store/index.js';
import { CredentialRejectedError, type Contact } from '../../../engine/ports.js';
import { vendorFailure } from '../../providers/vendor-errors.js';

/** The call's contact in the project's real CRM: by the id the platform sent, else by phone. */
async function contactInCrm(s: Services, agencyId: string, locationId: string, c: CallEndedEvent['call']): Promise<Contact | null> {
  const crm = await s.providers.forLocation(agencyId, locationId);
  try {
    if (c.contactId) return await s.ports.crm.getContact(agencyId, locationId, c.contactId);
    return await crm.directory.findContactByPhone(agencyId, locationId, c.phoneNumber);
  } catch (err) {
    // A refused credential will not heal by re-delivery: keep the call (the project is now
    // disconnected, and its run fails at its first action until a reconnect and a retry).
    if (err instanceof CredentialRejectedError) return null;
    throw vendorFailure(err, "reading the call's contact from the CRM (nothing was stored; deliver the event again)");
  }
}

export interface AcceptResult {
  callId: string;
  duplicate: boolean;
  workflowId: string;
}

/**
 * `call.ended`: store the call record and the execution row in one transaction (the event is
 * durable before it is acknowledged), then start `post-call:<agencyId>:<callId>` with the graph
 * pinned at the version current now. Call ids are the voice platform's, unique per agency only, so
 * the agency is part of every key and of the run's id.
 *
 * A duplicate event stores nothing new and only makes sure the call's run exists, from the input
 * the first delivery stored (under the workflow id stored with its execution, so runs started
 * before agency-scoped ids are found too). A fresh event whose run cannot be started is never a
 * silent success: Temporal down is a 503 with the call kept for the re-delivery; a run id already
 * taken in Temporal (a store reset under a kept Temporal history) is a 409 with nothing kept.
 */
export async function acceptCallEnded(s: Services, agencyId: string, event: CallEndedEvent, signature: string): Promise<AcceptResult> {
  const c = event.call;
  const campaign = await s.store.campaigns.get(agencyId, c.campaignId);
  if (!campaign) throw invalid(`call.campaignId ${c.campaignId} is not a campaign of this agency`);
  const project = await s.store.projects.get(agencyId, campaign.projectId);
  const agent = await s.store.agents.get(agencyId, campaign.agentId);
  if (!project || !agent) throw invalid(`campaign ${c.campaignId} has no live project or agent`);
  const outcome = normalizeOutcome(c.disposition);
  if (!outcome) throw invalid(`call.disposition "${c.disposition}" is not a known outcome`);
  // A project on a real CRM: the contact lives there. Read it before the transaction (a re-delivery
  // needs no read); a CRM that cannot answer now is a 503 with nothing stored, so the platform
  // re-delivers. The sandbox CRM is read and written inside the transaction below.
  const realCrm = (await s.providers.forLocation(agencyId, project.locationId)).crmKind !== 'sandbox';
  let realContact: Contact | null = null;
  if (realCrm && !(await s.store.calls.get(agencyId, c.callId))) realContact = await contactInCrm(s, agencyId, project.locationId, c);

  const stored = await s.store.withTransaction(async (tx: Store) => {
    const fresh = await tx.calls.recordEvent(agencyId, c.callId, 'call.ended', signature);
    if (!fresh) return { duplicate: true as const };
    const workflowId = postCallWorkflowId(agencyId, c.callId);
    let contact: Contact;
    let created = false;
    if (realCrm) {
      // No CRM contact has this phone: the call is kept; its run's first action says so.
      contact = realContact ?? ({ id: c.contactId ?? `unknown:${c.phoneNumber}`, locationId: project.locationId, phone: c.phoneNumber, tags: [], fields: {} } satisfies Contact);
    } else {
      const byId = c.contactId ? await tx.crm.getContact(agencyId, project.locationId, c.contactId) : undefined;
      // Found or created atomically: two calls from one new number make one contact.
      ({ contact, created } = byId
        ? { contact: byId, created: false }
        : await tx.crm.findOrCreateByPhone(agencyId, { locationId: project.locationId, phone: c.phoneNumber, fullName: c.leadName ?? '', ...(c.contactId && { id: c.contactId }) }));
    }
    const meta = OUTCOMES[outcome];
    const dateTime = new Date(c.dateTime).toISOString();
    const record = await tx.calls.insert(agencyId, project.id, agent.id, {
      callId: c.callId,
      date: calendarDate(dateTime, project.timezone),
      dateTime,
      leadName: c.leadName ?? contact.fullName ?? '',
      phoneNumber: c.phoneNumber,
      direction: c.direction ?? 'outbound',
      status: c.status ?? 'ended',
      duration: c.duration ?? 0,
      agent: agent.name,
      callSummary: c.callSummary ?? '',
      projectName: project.businessName ?? project.locationId,
      ...(c.recordingUrl !== undefined && { recordingUrl: c.recordingUrl }),
      cost: c.cost ?? 0,
      agentType: campaign.agentType ?? legacyAgentType(agent.agentType, agent.capabilities),
      campaignId: campaign.id,
      campaignName: campaign.name,
      disposition: { type: meta.type, label: meta.label, color: meta.color },
      transcript: c.transcript ?? '',
      fields: (c.fields ?? []).map((f) => ({ key: f.key, value: f.value })),
      transcriptSource: c.transcriptSource ?? 'live',
      contactId: contact.id,
    });
    const workflow = await tx.workflows.get(agencyId, campaign.id);
    const executionId = newId('exe');
    await tx.executions.create({ id: executionId, agencyId, workflowId, campaignId: campaign.id, agentId: agent.id, callId: c.callId, outcome, graphVersion: workflow.version });
    const input: PostCallInput = {
      agencyId,
      locationId: project.locationId,
      executionId,
      campaignId: campaign.id,
      outcome,
      graphVersion: workflow.version,
      graph: workflow.graph,
      call: {
        callId: c.callId,
        contactId: contact.id,
        phoneNumber: c.phoneNumber,
        leadName: record.leadName,
        duration: record.duration,
        disposition: outcome,
        callSummary: record.callSummary,
        transcript: record.transcript,
        fields: Object.fromEntries(record.fields.map((f) => [f.key, f.value])),
        dateTime,
      },
      campaign: { callerId: campaign.fromNumbers[0] ?? null, calendarId: (campaign.config.calendarId as string | undefined) ?? null },
      contact: { ...contact.fields, ...contact, tags: contact.tags },
      actionTimeoutSeconds: s.config.actionTimeoutSeconds,
      effectScope: workflowId,
    };
    await tx.runInputs.put(agencyId, workflowId, input);
    return { duplicate: false as const, workflowId, input, createdContactId: created ? contact.id : null };
  });

  let workflowId: string;
  let input: PostCallInput | undefined;
  if (stored.duplicate) {
    const first = await s.store.executions.firstOfCall(agencyId, c.callId);
    if (!first) throw conflict(`call ${c.callId} was received before but its run was not stored; send it with a new call id`, 'RunNotStored');
    workflowId = first.workflowId;
    input = await s.store.runInputs.get(agencyId, workflowId);
    if (!input) throw conflict(`the input of call ${c.callId}'s run is no longer stored`, 'RunInputGone');
  } else {
    ({ workflowId, input } = stored);
  }
  if (!s.temporal) throw unavailable('the workflow engine is not connected; the call is stored, retry the event');
  // A power-dialer call: its lead's cadence moves on by the outcome (every delivery signals; the workflow takes the first).
  if (c.leadId) await signalCallEnded(s, agencyId, c.leadId, { callId: c.callId, outcome, callerPreference: c.callerPreference ?? null, fields: Object.fromEntries((c.fields ?? []).map((f) => [f.key, f.value])) });
  let started: boolean;
  try {
    started = await s.temporal.startPostCall(workflowId, input);
  } catch (err) {
    s.logger.error({ err, callId: c.callId }, 'starting the post-call workflow failed');
    throw unavailable('the call is stored but its post-call run could not be started yet; retry the event', 5);
  }
  if (!started && !stored.duplicate) {
    await s.store.calls.forgetAccepted(agencyId, c.callId, workflowId, stored.createdContactId ? { locationId: project.locationId, contactId: stored.createdContactId } : null);
    s.logger.error({ callId: c.callId, workflowId }, 'a post-call run with this id already exists in Temporal but not in the store');
    throw conflict(`a post-call run ${workflowId} already exists in the workflow engine but not in this store; nothing was kept`, 'RunIdTaken');
  }
  return { callId: c.callId, duplicate: stored.duplicate, workflowId };
}
