import { defaultPayloadConverter } from '@temporalio/common';
import type { VoicePlatform } from '../../engine/ports.js';
import { leadWorkflowId, type LeadCadenceInput, type PlaceLeadCallInput } from '../../engine/workflows/lead-cadence-types.js';
import { AGENCY_HEADER, SIGNATURE_HEADER, signPayload } from '../../server/domain/event-signature.js';
import { createProjectAgentCampaign } from './fixtures.js';
import type { Harness } from './harness.js';

/** Polls until `probe` returns a value other than undefined/false, or fails after `timeoutMs` naming what it waited for. */
export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Posts a signed CRM contact event through the real endpoint. */
export async function postContactEvent(h: Harness, event: unknown, opts: { agencyId?: string; secret?: string } = {}) {
  const agencyId = opts.agencyId ?? h.agencyId;
  const secret = opts.secret ?? (await h.store.agencies.get(agencyId))!.signingSecret;
  const raw = JSON.stringify(event);
  return h.api('POST', '/api/events/contacts', {
    key: null,
    rawBody: raw,
    headers: { 'content-type': 'application/json', [AGENCY_HEADER]: agencyId, [SIGNATURE_HEADER]: signPayload(secret, raw) },
  });
}

export interface PlacedCall {
  agencyId: string;
  callId: string;
  campaignId: string;
  contactId: string;
  leadId?: string;
  to: string;
  from: string | null;
}

/**
 * A voice platform the test drives: it records each call it is asked to place and reports
 * nothing by itself; the test decides each outcome by posting the call.ended event.
 */
export function fakeVoice() {
  const calls: PlacedCall[] = [];
  const platform: VoicePlatform = {
    async placeCall(req) {
      // No time is recorded here: when an attempt was made is the workflow's to say (`leadHistory`).
      if (!calls.some((c) => c.callId === req.callId)) calls.push({ ...req });
      return { callId: req.callId };
    },
  };
  return {
    platform,
    calls,
    callsOf: (leadId: string) => calls.filter((c) => c.leadId === leadId),
    /** the lead's n-th call (1-based), once it is placed */
    call: (leadId: string, n: number, timeoutMs?: number) =>
      waitFor(`call ${n} of lead ${leadId}`, () => calls.filter((c) => c.leadId === leadId)[n - 1], timeoutMs),
  };
}

let n = 0;
const sharedProject = new WeakMap<Harness, Awaited<ReturnType<typeof createProjectAgentCampaign>>>();

/** A new agent (and so a new campaign) in the harness's shared live project: the plan allows only 3 live projects. */
async function campaignInSharedProject(h: Harness) {
  const shared = sharedProject.get(h);
  if (!shared) {
    const made = await createProjectAgentCampaign(h);
    sharedProject.set(h, made);
    return made;
  }
  const agent = await h.api('POST', '/api/agent-builder/agents', {
    body: { name: `Dialer agent ${++n}`, agentType: 'outreach', locationId: shared.locationId, capabilityIds: ['appointment_booking'] },
  });
  if (agent.status !== 200) throw new Error(`create agent: ${agent.status} ${agent.text}`);
  return { ...shared, agent: agent.body.data, agentId: agent.body.data.id as string, campaignId: agent.body.data.campaignId as string };
}

/**
 * A live project with an active dialer campaign: a saved cadence (when `steps` is given) and the
 * campaign's tags, dialing mode and window set over the API. The project is shared by the
 * harness's dialer campaigns unless `freshProject` (for tests that stop or delete it).
 */
export async function dialerCampaign(
  h: Harness,
  opts: { dialing?: string; steps?: object[]; callingWindow?: unknown; activeTags?: string[]; inactiveTags?: string[]; dropOutsideWindow?: boolean; fromNumbers?: string[]; freshProject?: boolean } = {},
) {
  const base = opts.freshProject ? await createProjectAgentCampaign(h) : await campaignInSharedProject(h);
  let cadenceId: string | undefined;
  if (opts.steps) {
    const cadence = await h.api('POST', '/api/power-dialer/cadences', { body: { name: `cadence ${++n}`, steps: opts.steps } });
    if (cadence.status !== 200) throw new Error(`create cadence: ${cadence.status} ${cadence.text}`);
    cadenceId = cadence.body.data.id;
  }
  // Campaigns share the project, so each gets its own active tag: a contact enters only the test's campaign.
  const activeTag = opts.activeTags?.[0] ?? `new-lead-${++n}`;
  const patch = await h.api('PATCH', `/api/agent-builder/projects/${base.locationId}/campaigns/${base.campaignId}`, {
    body: {
      name: `Dialer campaign ${n}`,
      activeTags: opts.activeTags ?? [activeTag],
      inactiveTags: opts.inactiveTags ?? ['do-not-call'],
      dialing: opts.dialing ?? 'pd',
      active: true,
      ...(opts.callingWindow !== undefined && { callingWindow: opts.callingWindow }),
      ...(opts.dropOutsideWindow !== undefined && { dropOutsideWindow: opts.dropOutsideWindow }),
      ...(opts.fromNumbers && { fromNumbers: opts.fromNumbers }),
      ...(cadenceId && { config: { cadenceId } }),
    },
  });
  if (patch.status !== 200) throw new Error(`update campaign: ${patch.status} ${patch.text}`);
  return {
    ...base,
    cadenceId,
    activeTag,
    campaign: patch.body.data,
    /** a contact event for this campaign's location, carrying its active tag unless `tags` says otherwise */
    event: (over: Parameters<typeof contactEvent>[1] = {}) => contactEvent(base.locationId, { tags: [activeTag], ...over }),
  };
}

let contacts = 0;
/** A contact event body for the campaign's location. */
export function contactEvent(locationId: string, over: { id?: string; tags?: string[]; phone?: string; firstName?: string; type?: string } = {}) {
  const i = ++contacts;
  return {
    type: over.type ?? 'contact.updated',
    contact: {
      id: over.id ?? `ct_${process.pid}_${i}_${Date.now()}`,
      locationId,
      firstName: over.firstName ?? `Pat${i}`,
      lastName: 'Lee',
      email: `pat${i}@example.net`,
      phone: over.phone ?? `+1512555${String(1000 + (i % 9000)).padStart(4, '0')}`,
      timezone: 'America/Chicago',
      tags: over.tags ?? ['new-lead'],
    },
  };
}

type Timestamp = { seconds?: unknown; nanos?: number | null } | null | undefined;
const msOf = (t: Timestamp) => (t ? Number(t.seconds ?? 0) * 1000 + Math.floor((t.nanos ?? 0) / 1e6) : NaN);

export interface LeadTimer {
  /**
   * When the timer fires, bounded by what the history records: the workflow set it for
   * `now + duration`, with its `now` between the start of the workflow task that set it and the
   * timer's own event.
   */
  dueFrom: number;
  dueTo: number;
  /** attempts placed before this timer was set */
  afterAttempts: number;
}

/**
 * What a lead's workflow recorded in the history of its current run: each attempt's input, with
 * the workflow's own time of the attempt (`at`), and each durable timer it set. Tests assert on
 * these instead of on their own clock, so a loaded machine changes nothing they check.
 */
export async function leadHistory(h: Harness, leadId: string): Promise<{ attempts: PlaceLeadCallInput[]; timers: LeadTimer[] }> {
  const events = (await h.temporal!.client.workflow.getHandle(leadWorkflowId(leadId)).fetchHistory()).events ?? [];
  const attempts: PlaceLeadCallInput[] = [];
  const timers: LeadTimer[] = [];
  let taskStarted = NaN;
  for (const e of events) {
    if (e.workflowTaskStartedEventAttributes) taskStarted = msOf(e.eventTime as Timestamp);
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name === 'placeLeadCall') attempts.push(defaultPayloadConverter.fromPayload(scheduled.input!.payloads![0]!) as PlaceLeadCallInput);
    const timer = e.timerStartedEventAttributes;
    if (timer) {
      const duration = msOf(timer.startToFireTimeout as Timestamp);
      timers.push({ dueFrom: taskStarted + duration, dueTo: msOf(e.eventTime as Timestamp) + duration, afterAttempts: attempts.length });
    }
  }
  return { attempts, timers };
}

/** The workflow input a lead's workflow was started with (its current run's). */
export async function startedInput(h: Harness, leadId: string): Promise<LeadCadenceInput> {
  const first = (await h.temporal!.client.workflow.getHandle(leadWorkflowId(leadId)).fetchHistory()).events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
  return defaultPayloadConverter.fromPayload(first) as LeadCadenceInput;
}

/**
 * The history of a lead's workflow once it has taken its first step, which ends on its first
 * durable timer: from then on it sleeps, and only the test changes anything.
 */
export function firstStepTaken(h: Harness, workflowId: string, timeoutMs?: number) {
  return waitFor(
    `the first step of ${workflowId}`,
    async () => {
      const events = (await h.temporal!.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
      return events.some((e) => e.timerStartedEventAttributes) && events;
    },
    timeoutMs,
  );
}
