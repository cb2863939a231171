/**
 * The product acting on a real CRM: a crm_a project connected with a GoHighLevel token, post-call
 * chains on real Temporal, and a stateful fake of the LeadConnector v2 endpoints (test/fakes) as
 * the CRM. Every action type changes the fake's state as expected; a 401 mid-chain disconnects the
 * project and fails the run at that step; reconnect + retry finishes it with each effect once; a
 * 429 with Retry-After: 2 waits 2 s, and one of 11 s waits on a timer in the run's history (post-call
 * actions are local activities, docs/execution.md); an SMS the vendor accepted before the answer
 * timed out is not sent twice. No token reaches a log line or an API response.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { seedLocation, startGohighlevelFake, type GohighlevelFake } from '../fakes/gohighlevel-fake.js';
import { startTwilioFake, type TwilioFake } from '../fakes/twilio-fake.js';

const TOKEN = 'pit-1f7a2c9e-sunrise-dental-token';
const NEW_TOKEN = 'pit-93be04d1-sunrise-dental-rotated';
const TWILIO_SID = 'AC0123456789abcdef0123456789abcdef';
const TWILIO_AUTH = 'f00dfeedcafe4b1d9e8f7a6b5c4d3e2f';
let fake: GohighlevelFake;
let twilio: TwilioFake;
let h: Harness;
const logs: string[] = [];
const restore: (() => void)[] = [];

beforeAll(async () => {
  fake = await startGohighlevelFake({ token: TOKEN });
  twilio = await startTwilioFake({ accountSid: TWILIO_SID, authToken: TWILIO_AUTH });
  const sink = new Writable({
    write(chunk, _e, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  // The Temporal SDK and anything else writing to the process streams are captured too.
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      logs.push(String(chunk));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    restore.push(() => (stream.write = write));
  }
  h = await createHarness({ temporal: true, logSink: sink, config: { logLevel: 'debug', gohighlevelBaseUrl: fake.url, twilioBaseUrl: twilio.url, vendorTimeoutMs: 1500, actionTimeoutSeconds: 10, defaultPlanLimit: 20 } });
});
afterAll(async () => {
  await h?.close();
  await fake?.close();
  await twilio?.close();
  for (const r of restore) r();
});

/** A crm_a project on a seeded fake location, connected with the token, with an agent and its campaign. */
async function connected(token = TOKEN) {
  const seeded = seedLocation(fake);
  const project = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: seeded.locationId, credentials: { token } } });
  expect(project.status, project.text).toBe(200);
  const agent = await h.api('POST', '/api/agent-builder/agents', { body: { name: 'Front desk', agentType: 'outreach', locationId: seeded.locationId, capabilityIds: ['appointment_booking'] } });
  expect(agent.status, agent.text).toBe(200);
  const campaignId = agent.body.data.campaignId as string;
  const patched = await h.api('PATCH', `/api/agent-builder/projects/${seeded.locationId}/campaigns/${campaignId}`, { body: { fromNumbers: ['+15125550100'], config: { calendarId: seeded.calendar.id } } });
  expect(patched.status, patched.text).toBe(200);
  return { ...seeded, project: project.body.data, projectId: project.body.data.id as string, agentId: agent.body.data.id as string, campaignId };
}

async function append(agentId: string, outcome: string, nodes: object[]) {
  const r = await h.api('POST', `/api/agent-builder/agents/${agentId}/campaign/workflow/outcomes/${outcome}/nodes`, { body: { nodes } });
  expect(r.status, r.text).toBe(200);
}

/** A slot the fake calendar has free: two days out at 15:00 UTC. */
const freeSlot = () => {
  const d = new Date(Date.now() + 2 * 86_400_000);
  d.setUTCHours(15, 0, 0, 0);
  return d.toISOString();
};

describe('a crm_a project connected to GoHighLevel', () => {
  it('connecting verifies the token and fills crm_a, timezone and business name from the real location', async () => {
    const c = await connected();
    expect(c.project).toMatchObject({ crm: 'crm_a', status: 'live', timezone: 'America/Chicago', businessName: 'Sunrise Dental', crm_a: { id: c.locationId, name: 'Sunrise Dental', timezone: 'America/Chicago', country: 'US', city: 'Austin' } });
    expect(JSON.stringify(c.project)).not.toContain(TOKEN);
    const refused = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: seedLocation(fake).locationId, credentials: { token: 'pit-not-a-valid-token' } } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/body\.credentials was rejected by GoHighLevel/);
    // The editor's pickers read the real location.
    const pipelines = await h.api('GET', `/api/agent-builder/agents/${c.agentId}/crm/pipelines`);
    expect(pipelines.body.data).toEqual([{ id: c.pipeline.id, name: 'Sales', stages: c.pipeline.stages }]);
    const calendars = await h.api('GET', `/api/agent-builder/agents/${c.agentId}/crm/calendars`);
    expect(calendars.body.data).toEqual([{ id: c.calendar.id, name: 'Consultations' }]);
    const fields = await h.api('GET', `/api/agent-builder/agents/${c.agentId}/crm-custom-fields`);
    expect(fields.body.fields.map((f: { fieldKey: string }) => f.fieldKey).sort()).toEqual(['contact.callback_time', 'contact.insurance_provider']);
    const values = await h.api('GET', `/api/agent-builder/agents/${c.agentId}/crm-custom-values`);
    expect(values.body.values).toEqual([expect.objectContaining({ name: 'Business name', value: 'Sunrise Dental', fieldKey: '{{custom_values.business_name}}' })]);
  });

  it('a chain of every action type changes the CRM as expected, each step recording the vendor response', async () => {
    const c = await connected();
    const booked = c.pipeline.stages[1]!;
    await append(c.agentId, 'VOICEMAIL', [
      { type: 'add-tag', config: { tags: ['vm-left'] } },
      { type: 'remove-tag', config: { tags: ['lead'] } },
      { type: 'set-field', config: { field: 'contact.callback_time', value: '{{call.fields.callback_time}}' } },
      { type: 'move-stage', config: { pipelineId: c.pipeline.id, stageId: booked.id } },
      { type: 'add-note', config: { body: 'Called {{contact.firstName}} from {{custom_values.business_name}}' } },
      { type: 'send-sms', config: { body: 'Hi {{contact.firstName}}, sorry we missed you!' } },
      { type: 'send-email', config: { subject: 'We called', body: 'Hello {{contact.firstName}}' } },
      { type: 'book-appointment', config: { durationMinutes: 30 } },
    ]);
    const slot = freeSlot();
    const event = callEnded(c.campaignId, { contactId: c.contact.id, fields: [{ key: 'callback_time', value: '2030-01-02T15:00:00Z' }, { key: 'appointment_time', value: slot }] });
    expect((await postCallEvent(h, event)).status).toBe(202);
    expect(await awaitRun(h, event.call.callId)).toMatchObject({ status: 'succeeded', steps: 8 });

    const contact = fake.state.contacts.get(c.contact.id)!;
    expect(contact.tags).toEqual(['vm-left']);
    expect(contact.customFields).toContainEqual({ id: c.callbackField.id, value: '2030-01-02T15:00:00Z' });
    expect(contact.notes.map((n) => n.body)).toEqual(['Called Ana from Sunrise Dental']);
    const opps = [...fake.state.opportunities.values()].filter((o) => o.contactId === c.contact.id);
    expect(opps).toEqual([expect.objectContaining({ pipelineId: c.pipeline.id, pipelineStageId: booked.id })]);
    const messages = fake.state.messages.filter((m) => m.contactId === c.contact.id);
    expect(messages.map((m) => [m.messageType, m.body])).toEqual([['TYPE_SMS', 'Hi Ana, sorry we missed you!'], ['TYPE_EMAIL', 'Hello Ana']]);
    expect(fake.state.appointments.filter((a) => a.contactId === c.contact.id).map((a) => a.startTime)).toEqual([slot]);

    const run = (await h.store.executions.firstOfCall(h.agencyId, event.call.callId))!;
    expect(run.steps.map((s) => [s.nodeType, s.status, s.attempts])).toEqual([
      ['add-tag', 'succeeded', 1], ['remove-tag', 'succeeded', 1], ['set-field', 'succeeded', 1], ['move-stage', 'succeeded', 1],
      ['add-note', 'succeeded', 1], ['send-sms', 'succeeded', 1], ['send-email', 'succeeded', 1], ['book-appointment', 'succeeded', 1],
    ]);
    // Each step's output is what the vendor answered (its ids).
    const out = Object.fromEntries(run.steps.map((s) => [s.nodeType, s.output as Record<string, unknown>]));
    expect(out['add-note']!.noteId).toBe(contact.notes[0]!.id);
    expect(out['send-sms']!.messageId).toBe(messages[0]!.id);
    expect(out['book-appointment']!.appointmentId).toBe(fake.state.appointments.find((a) => a.contactId === c.contact.id)!.id);
  });

  it('a 401 mid-chain disconnects the project and fails the run at that step; reconnect + retry finishes it, each effect once', async () => {
    const c = await connected();
    await append(c.agentId, 'VOICEMAIL', [
      { type: 'add-tag', config: { tags: ['vm-left'] } },
      { type: 'add-note', config: { body: 'left a voicemail' } },
      { type: 'send-sms', config: { body: 'Sorry we missed you' } },
    ]);
    // The location's token is revoked between the first step and the second.
    fake.inject({ method: 'POST', path: /\/contacts\/[^/]+\/notes$/, kind: 'status', status: 401, message: 'Invalid JWT' });
    const event = callEnded(c.campaignId, { contactId: c.contact.id });
    await postCallEvent(h, event);
    expect(await awaitRun(h, event.call.callId)).toMatchObject({ status: 'failed' });
    const failed = (await h.store.executions.firstOfCall(h.agencyId, event.call.callId))!;
    expect(failed.steps.map((s) => [s.nodeType, s.status, s.attempts])).toEqual([['add-tag', 'succeeded', 1], ['add-note', 'failed', 1]]);
    expect(failed.error).toMatch(/disconnected: reconnect it/);
    const project = await h.api('GET', `/api/v2/projects/${c.projectId}`);
    expect(project.body.data).toMatchObject({ status: 'disconnected', crm_a: null });
    // Reads that need the CRM say so.
    const reads = await h.api('GET', `/api/agent-builder/agents/${c.agentId}/crm/pipelines`);
    expect(reads.status).toBe(409);
    expect(reads.body.code).toBe('Disconnected');

    fake.token = NEW_TOKEN;
    const reconnected = await h.api('POST', `/api/v2/projects/${c.projectId}/reconnect`, { body: { credentials: { token: NEW_TOKEN } } });
    expect(reconnected.status, reconnected.text).toBe(200);
    expect(reconnected.body.data).toMatchObject({ id: c.projectId, status: 'live', crm_a: { name: 'Sunrise Dental' } });
    expect(reconnected.body.data.disconnectedReason).toBeUndefined();
    // Campaign, agent and workflow are the same ones.
    expect(reconnected.body.data.campaigns.map((x: { id: string }) => x.id)).toContain(c.campaignId);

    const retry = await h.api('POST', `/api/agent-builder/agents/${c.agentId}/campaign/workflow/executions/${failed.id}/retry`);
    expect(retry.status, retry.text).toBe(202);
    expect(await h.temporal!.client.workflow.getHandle(retry.body.data.workflowId).result()).toMatchObject({ status: 'succeeded', steps: 2 });
    const contact = fake.state.contacts.get(c.contact.id)!;
    expect(contact.tags.filter((t) => t === 'vm-left')).toHaveLength(1);
    expect(contact.notes).toHaveLength(1);
    expect(fake.state.messages.filter((m) => m.contactId === c.contact.id && m.messageType === 'TYPE_SMS')).toHaveLength(1);
    fake.token = TOKEN;
  });

  /** A one-tag chain whose first tag request the fake refuses with 429 and `Retry-After`; run to its end. */
  async function tagRefusedOnce(retryAfter: string) {
    const c = await connected();
    await append(c.agentId, 'VOICEMAIL', [{ type: 'add-tag', config: { tags: ['vm-left'] } }]);
    fake.inject({ method: 'POST', path: /\/contacts\/[^/]+\/tags$/, kind: 'status', status: 429, retryAfter });
    const from = fake.requests.length;
    const event = callEnded(c.campaignId, { contactId: c.contact.id });
    await postCallEvent(h, event);
    expect(await awaitRun(h, event.call.callId)).toMatchObject({ status: 'succeeded' });
    return {
      c,
      event,
      step: (await h.store.executions.firstOfCall(h.agencyId, event.call.callId))!.steps[0]!,
      tagCalls: fake.requests.slice(from).filter((r) => r.method === 'POST' && /\/tags$/.test(r.path)),
    };
  }

  it("a 429 with Retry-After: 2 is retried after the vendor's 2 s, not the policy's 1 s", async () => {
    const { c, step, tagCalls } = await tagRefusedOnce('2');
    expect(step).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(tagCalls).toHaveLength(2);
    // The gap between the refused attempt and the next honours Retry-After (the policy alone waits 1 s).
    expect(tagCalls[1]!.receivedAt - tagCalls[0]!.receivedAt).toBeGreaterThanOrEqual(1900);
    expect(fake.state.contacts.get(c.contact.id)!.tags).toContain('vm-left');
  });

  it('a Retry-After longer than the local retry threshold (10 s) waits on a durable timer in the run, not in the worker', async () => {
    const { event, step, tagCalls } = await tagRefusedOnce('11');
    expect(step).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(tagCalls).toHaveLength(2);
    expect(tagCalls[1]!.receivedAt - tagCalls[0]!.receivedAt).toBeGreaterThanOrEqual(10_900);
    // The wait is in the run's history (a timer of the vendor's 11 s), so a worker restart during it
    // loses nothing and no workflow task stays open through it.
    const history = await h.temporal!.client.workflow.getHandle(`post-call:${h.agencyId}:${event.call.callId}`).fetchHistory();
    const timers = history.events!.filter((e) => e.timerStartedEventAttributes).map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds));
    expect(timers).toEqual([11]);
  });

  it('an SMS the vendor accepted before the answer timed out is not sent again by the retry', async () => {
    const c = await connected();
    await append(c.agentId, 'VOICEMAIL', [{ type: 'send-sms', config: { body: 'Only once, {{contact.firstName}}' } }]);
    fake.inject({ method: 'POST', path: '/conversations/messages', kind: 'hang' });
    const event = callEnded(c.campaignId, { contactId: c.contact.id });
    await postCallEvent(h, event);
    expect(await awaitRun(h, event.call.callId)).toMatchObject({ status: 'succeeded' });
    expect(fake.state.messages.filter((m) => m.contactId === c.contact.id).map((m) => m.body)).toEqual(['Only once, Ana']);
    const step = (await h.store.executions.firstOfCall(h.agencyId, event.call.callId))!.steps[0]!;
    expect(step).toMatchObject({ status: 'succeeded', attempts: 2 });
    // One send reached the vendor; the retry asked the vendor (listed the conversation) instead of sending again.
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/conversations/messages' && (r.body as { contactId?: string }).contactId === c.contact.id)).toHaveLength(1);
  });

  it("with Twilio as the project's SMS carrier, SMS go through Twilio from the campaign caller ID; email stays with the CRM", async () => {
    const c = await connected();
    const refused = await h.api('PUT', `/api/v2/projects/${c.projectId}`, { body: { smsCarrier: 'twilio' } });
    // A conflict with the agency's state (no Twilio credentials yet), not a malformed request.
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, error: 'CONFLICT', code: 'CredentialsMissing', message: expect.stringContaining('Twilio credentials') });
    expect((await h.store.projects.get(h.agencyId, c.projectId))!.smsCarrier ?? 'crm').toBe('crm');
    const wrong = await h.api('PUT', '/api/agency/credentials/twilio', { body: { accountSid: TWILIO_SID, authToken: 'not-the-auth-token-0000' } });
    expect(wrong.status).toBe(400);
    const set = await h.api('PUT', '/api/agency/credentials/twilio', { body: { accountSid: TWILIO_SID, authToken: TWILIO_AUTH } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data).toEqual({ provider: 'twilio', owner: 'agency', hint: 'account …cdef', updatedAt: expect.any(String) });
    expect((await h.api('PUT', `/api/v2/projects/${c.projectId}`, { body: { smsCarrier: 'twilio' } })).body.data.smsCarrier).toBe('twilio');
    await append(c.agentId, 'VOICEMAIL', [{ type: 'send-sms', config: { body: 'Via Twilio, {{contact.firstName}}' } }, { type: 'send-email', config: { subject: 'Hi', body: 'Via the CRM' } }]);
    const event = callEnded(c.campaignId, { contactId: c.contact.id });
    await postCallEvent(h, event);
    expect(await awaitRun(h, event.call.callId)).toMatchObject({ status: 'succeeded' });
    expect(twilio.messages.filter((m) => m.to === c.contact.phone).map((m) => [m.from, m.body])).toEqual([['+15125550100', 'Via Twilio, Ana']]);
    expect(fake.state.messages.filter((m) => m.contactId === c.contact.id).map((m) => m.messageType)).toEqual(['TYPE_EMAIL']);
    const agency = await h.api('GET', '/api/agency');
    expect(agency.body.data.credentials).toEqual([expect.objectContaining({ provider: 'twilio', hint: 'account …cdef' })]);
  });

  it('no token appears in any log line or API response', async () => {
    const project = await h.api('GET', '/api/v2/projects');
    const agency = await h.api('GET', '/api/agency');
    for (const text of [project.text, agency.text, ...logs]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(NEW_TOKEN);
      expect(text).not.toContain(TWILIO_AUTH);
    }
    // The logs did record the work (they are not empty because logging was off).
    expect(logs.join('')).toMatch(/disconnected/);
  });
});
