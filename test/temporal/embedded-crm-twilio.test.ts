/**
 * An agency with Twilio credentials and `smsCarrier: "twilio"`, whose projects keep their contacts
 * in the embedded CRM (crm_b, and a crm_a project connected without credentials, as the demo's):
 * their post-call SMS go out through Twilio (a stateful fake of its Messages resource), from the
 * campaign's caller ID, exactly once even when Twilio's answer to the send is lost; email stays in
 * the embedded outbox, and nothing is texted through the sandbox carrier.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { startTwilioFake, type TwilioFake } from '../fakes/twilio-fake.js';

const TWILIO_SID = 'AC0123456789abcdef0123456789abcdef';
const TWILIO_AUTH = 'f00dfeedcafe4b1d9e8f7a6b5c4d3e2f';
const CALLER_ID = '+15125550100';
let twilio: TwilioFake;
let h: Harness;
let seq = 0;

beforeAll(async () => {
  twilio = await startTwilioFake({ accountSid: TWILIO_SID, authToken: TWILIO_AUTH });
  h = await createHarness({ temporal: true, config: { twilioBaseUrl: twilio.url, vendorTimeoutMs: 1500, actionTimeoutSeconds: 10, defaultPlanLimit: 20 } });
  expect((await h.api('PUT', '/api/agency/credentials/twilio', { body: { accountSid: TWILIO_SID, authToken: TWILIO_AUTH } })).status).toBe(200);
  const agency = await h.api('PATCH', '/api/agency', { body: { smsCarrier: 'twilio' } });
  expect(agency.status, agency.text).toBe(200);
  expect(agency.body.data.settings.smsCarrier).toBe('twilio');
});
afterAll(async () => {
  await h?.close();
  await twilio?.close();
});

/** A project on the embedded CRM with an agent, its campaign (with a caller ID) and a Voicemail chain. */
async function embeddedProject(body: Record<string, unknown>, nodes: object[]) {
  const locationId = `loc_embedded_${++seq}`;
  const project = await h.api('POST', '/api/v2/projects', { body: { locationId, timezone: 'America/Chicago', ...body } });
  expect(project.status, project.text).toBe(200);
  const agent = await h.api('POST', '/api/agent-builder/agents', { body: { name: 'Front desk', agentType: 'outreach', locationId, capabilityIds: ['appointment_booking'] } });
  expect(agent.status, agent.text).toBe(200);
  const campaignId = agent.body.data.campaignId as string;
  expect((await h.api('PATCH', `/api/agent-builder/projects/${locationId}/campaigns/${campaignId}`, { body: { fromNumbers: [CALLER_ID] } })).status).toBe(200);
  const appended = await h.api('POST', `/api/agent-builder/agents/${agent.body.data.id}/campaign/workflow/outcomes/VOICEMAIL/nodes`, { body: { nodes } });
  expect(appended.status, appended.text).toBe(200);
  return { locationId, campaignId };
}

const outbox = (channel: string, recipient: string) =>
  h.db.prepare('SELECT recipient, sender, body FROM outbox WHERE agency_id = ? AND channel = ? AND recipient = ?').all(h.agencyId, channel, recipient);
const posts = (to: string) => twilio.requests.filter((r) => r.method === 'POST' && (r.body as { To?: string } | null)?.To === to);

describe("the agency's Twilio carrier on the embedded CRM", () => {
  it.each([
    ['a crm_b project', { crm: 'crm_b', crm_b: { accountId: 'acct_embedded' } }, '+15125550141'],
    ['a crm_a project without CRM credentials (as the demo)', { crm: 'crm_a' }, '+15125550142'],
  ])('%s sends its SMS through Twilio from the caller ID; email stays in the embedded outbox', async (_name, body, phone) => {
    const c = await embeddedProject(body, [
      { type: 'send-sms', config: { body: 'Hi {{contact.fullName}}, sorry we missed you!' } },
      { type: 'send-email', config: { to: 'ana@example.net', subject: 'We called', body: 'Hello' } },
    ]);
    const event = callEnded(c.campaignId, { phoneNumber: phone, leadName: 'Ana Lopez' });
    expect((await postCallEvent(h, event)).status).toBe(202);
    expect(await awaitRun(h, event.call.callId)).toMatchObject({ status: 'succeeded', steps: 2 });

    const sent = twilio.messages.filter((m) => m.to === phone);
    expect(sent.map((m) => [m.from, m.body])).toEqual([[CALLER_ID, 'Hi Ana Lopez, sorry we missed you!']]);
    expect(outbox('sms', phone)).toEqual([]);
    expect(outbox('email', 'ana@example.net').length).toBeGreaterThan(0);
    const run = (await h.store.executions.firstOfCall(h.agencyId, event.call.callId))!;
    expect(run.steps.map((s) => [s.nodeType, s.status])).toEqual([['send-sms', 'succeeded'], ['send-email', 'succeeded']]);
    expect((run.steps[0]!.output as { messageId: string }).messageId).toBe(sent[0]!.sid);
  });

  it('an SMS Twilio accepted before its answer was lost is not sent again by the retry', async () => {
    const phone = '+15125550143';
    const c = await embeddedProject({ crm: 'crm_b', crm_b: { accountId: 'acct_embedded_2' } }, [{ type: 'send-sms', config: { body: 'Only once, {{contact.fullName}}' } }]);
    twilio.inject({ method: 'POST', path: `/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`, kind: 'hang' });
    const event = callEnded(c.campaignId, { phoneNumber: phone, leadName: 'Ana Lopez' });
    expect((await postCallEvent(h, event)).status).toBe(202);
    expect(await awaitRun(h, event.call.callId)).toMatchObject({ status: 'succeeded' });
    expect(twilio.messages.filter((m) => m.to === phone).map((m) => m.body)).toEqual(['Only once, Ana Lopez']);
    expect(posts(phone)).toHaveLength(1);
    const step = (await h.store.executions.firstOfCall(h.agencyId, event.call.callId))!.steps[0]!;
    expect(step).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(outbox('sms', phone)).toEqual([]);
  });

  it("a project's own smsCarrier \"crm\" keeps its SMS in the embedded outbox", async () => {
    const phone = '+15125550144';
    const c = await embeddedProject({ crm: 'crm_b', crm_b: { accountId: 'acct_embedded_3' }, smsCarrier: 'crm' }, [{ type: 'send-sms', config: { body: 'Sandbox, {{contact.fullName}}' } }]);
    const event = callEnded(c.campaignId, { phoneNumber: phone, leadName: 'Ana Lopez' });
    expect((await postCallEvent(h, event)).status).toBe(202);
    expect(await awaitRun(h, event.call.callId)).toMatchObject({ status: 'succeeded' });
    expect(posts(phone)).toEqual([]);
    expect(outbox('sms', phone)).toEqual([{ recipient: phone, sender: CALLER_ID, body: 'Sandbox, Ana Lopez' }]);
  });
});
