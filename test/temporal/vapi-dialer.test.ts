/**
 * The power dialer on Vapi: an agency whose voice platform is Vapi (its API key and server secret
 * stored sealed, its agent and caller ID mapped to Vapi ids through our API). A lead enrolled on a
 * cadence gets its call placed at a local fake of Vapi's `POST /call` (request bodies validated
 * against Vapi's CreateCallDTO); Vapi's end-of-call report (validated against
 * ServerMessageEndOfCallReport), posted HMAC-signed to the agency's server URL, stores the call,
 * runs the post-call chain on real Temporal and moves the lead to its next step. Bad signatures,
 * stale timestamps, replays, unknown calls and malformed reports: a 4xx, nothing stored or run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { dialerCampaign, postContactEvent, waitFor } from '../helpers/power-dialer.js';
import { startVapiFake, type VapiFake } from '../fakes/vapi-fake.js';

const ASSISTANT = 'c1a2b3c4-0000-4000-8000-00000000a551';
const PHONE_ID = 'd1a2b3c4-0000-4000-8000-0000000000f1';
const CALLER_ID = '+15125550188';
let vapi: VapiFake;
let h: Harness;
let secret: string;
let c: Awaited<ReturnType<typeof dialerCampaign>>;
let leadId: string;
let placed: VapiFake['calls'][number];

beforeAll(async () => {
  vapi = await startVapiFake({ assistants: [ASSISTANT], phoneNumbers: [{ id: PHONE_ID, number: CALLER_ID }] });
  h = await createHarness({ temporal: true, config: { vapiBaseUrl: vapi.url, cadenceTimeScale: 60 } });
  const set = await h.api('PUT', '/api/agency/credentials/vapi', { body: { apiKey: vapi.apiKey } });
  expect(set.status, set.text).toBe(200);
  secret = set.body.data.serverSecret;
  expect(secret).toMatch(/^vsec_/);
  expect(set.body.data.serverUrl).toBe(`${h.url}/api/events/vapi/${h.agencyId}`);
  expect(set.text).not.toContain(vapi.apiKey);
  expect((await h.api('PATCH', '/api/agency', { body: { voicePlatform: 'vapi', vapiOutcomeField: 'call_outcome' } })).status).toBe(200);

  c = await dialerCampaign(h, { dialing: 'pd', steps: [{ delayMinutes: 0 }, { delayMinutes: 60 }] });
  const agent = await h.api('PATCH', `/api/agent-builder/agents/${c.agentId}`, { body: { vapiAssistantId: ASSISTANT } });
  expect(agent.body.data.vapiAssistantId).toBe(ASSISTANT);
  const number = await h.api('PUT', `/api/agent-builder/phone-numbers/${encodeURIComponent(CALLER_ID)}`, { body: { nickname: 'Vapi line', vapiPhoneNumberId: PHONE_ID } });
  expect(number.body.data).toMatchObject({ phoneNumber: CALLER_ID, vapiPhoneNumberId: PHONE_ID });
  expect((await h.api('POST', `/api/agent-builder/phone-numbers/${encodeURIComponent(CALLER_ID)}/assign`, { body: { campaignId: c.campaignId } })).status).toBe(200);
  await h.api('POST', `/api/agent-builder/agents/${c.agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['vm-left'] } }] } });
});
afterAll(async () => {
  await h?.close();
  await vapi?.close();
});

const deliver = (raw: string, headers: Record<string, string>, agencyId = h.agencyId) =>
  h.api('POST', `/api/events/vapi/${agencyId}`, { key: null, rawBody: raw, headers });
const counts = () => Object.fromEntries(['calls', 'executions', 'call_events', 'run_inputs'].map((t) => [t, (h.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]));

describe('the dialer on Vapi', () => {
  it('places the lead\'s call with the mapped assistant and number, the lead\'s number and its variables', async () => {
    const enrolled = await postContactEvent(h, c.event({ phone: '+15125550171', firstName: 'Vera' }));
    leadId = enrolled.body.data.enrolled[0];
    placed = await waitFor('the call at Vapi', () => vapi.calls[0]);
    expect(vapi.violations).toEqual([]);
    expect(placed.request).toMatchObject({
      assistantId: ASSISTANT,
      phoneNumberId: PHONE_ID,
      customer: { number: '+15125550171' },
      assistantOverrides: { variableValues: { firstName: 'Vera', campaignName: c.campaign.name }, metadata: { agencyId: h.agencyId, leadId, campaignId: c.campaignId } },
    });
    const stored = await waitFor('the placed call recorded', () => h.db.prepare('SELECT platform, platform_call_id FROM placed_calls WHERE agency_id = ? AND lead_id = ?').get(h.agencyId, leadId) as { platform: string; platform_call_id: string } | undefined);
    expect(stored).toEqual({ platform: 'vapi', platform_call_id: placed.call.id });
  });

  it('refuses bad signatures, stale timestamps, unknown calls and malformed reports with a 4xx, storing and running nothing', async () => {
    const before = counts();
    const report = vapi.endOfCallReport(placed.call.id, { endedReason: 'voicemail', durationSeconds: 31 });
    const wrong = vapi.sign(report, 'vsec_not_the_secret_of_this_agency');
    expect((await deliver(wrong.raw, wrong.headers)).status).toBe(401);
    const stale = vapi.sign(report, secret, { timestamp: String(Date.now() - 3_600_000) });
    const staleAnswer = await deliver(stale.raw, stale.headers);
    expect(staleAnswer.status).toBe(401);
    expect(staleAnswer.body.message).toMatch(/old, beyond/);
    const tampered = vapi.sign(report, secret);
    expect((await deliver(tampered.raw.replace('voicemail', 'customer-busy'), tampered.headers)).status).toBe(401);
    const unsigned = await deliver(JSON.stringify({ message: report }), { 'content-type': 'application/json' });
    expect(unsigned.status).toBe(401);
    // Another agency's URL with this agency's signature.
    const elsewhere = vapi.sign(report, secret);
    expect((await deliver(elsewhere.raw, elsewhere.headers, `${h.agencyId}_other`)).status).toBe(401);
    // A call this agency's dialer never placed.
    const foreign = { ...report, call: { ...(report.call as object), id: 'e9e9e9e9-0000-4000-8000-000000000000', assistantOverrides: {} } };
    const unknown = vapi.sign(foreign, secret);
    const unknownAnswer = await deliver(unknown.raw, unknown.headers);
    expect(unknownAnswer.status).toBe(404);
    expect(unknownAnswer.body.code).toBe('UnknownCall');
    // A report without what a call needs.
    const call = report.call as { id: string; assistantOverrides: unknown };
    const malformed = vapi.sign({ type: 'end-of-call-report', endedReason: 42, call: { id: call.id, assistantOverrides: call.assistantOverrides } }, secret);
    const malformedAnswer = await deliver(malformed.raw, malformed.headers);
    expect(malformedAnswer.status).toBe(400);
    expect(malformedAnswer.body.message).toMatch(/body\.message/);
    expect(counts()).toEqual(before);
    expect(await h.store.leads.get(h.agencyId, leadId)).toMatchObject({ callStatus: 'calling', cadenceStep: 0 });
  });

  it("Vapi's end-of-call report stores the call, runs the post-call chain and moves the lead to its next step", async () => {
    const report = vapi.endOfCallReport(placed.call.id, {
      endedReason: 'voicemail', durationSeconds: 31, cost: 0.07, summary: 'Reached voicemail.', recording: true,
      turns: [{ role: 'bot', text: 'Hi Vera, this is Sunrise Dental.' }, { role: 'user', text: 'Please leave a message.' }],
    });
    const signed = vapi.sign(report, secret);
    const accepted = await deliver(signed.raw, signed.headers);
    expect(accepted.status, accepted.text).toBe(202);
    const callId = accepted.body.data.callId as string;
    expect(accepted.body.data).toMatchObject({ type: 'end-of-call-report', duplicate: false });

    const record = await h.api('GET', `/api/call-history/by-call-id/${callId}`);
    expect(record.body.data).toMatchObject({
      callId, phoneNumber: '+15125550171', duration: 31, cost: 0.07, callSummary: 'Reached voicemail.', disposition: { type: 'voicemail' },
      recordingUrl: expect.stringContaining(placed.call.id), transcript: expect.stringContaining('Hi Vera, this is Sunrise Dental.'),
    });
    const run = await h.temporal!.client.workflow.getHandle(accepted.body.data.workflowId).result();
    expect(run).toMatchObject({ status: 'succeeded', steps: 1 });
    const contactId = (await h.store.leads.get(h.agencyId, leadId))!.contactId;
    expect((await h.store.crm.getContact(h.agencyId, c.locationId, contactId))!.tags).toContain('vm-left');
    // VOICEMAIL advances the cadence: step 1, an hour later.
    await waitFor('the lead at step 1', async () => {
      const l = (await h.store.leads.get(h.agencyId, leadId))!;
      return l.cadenceStep === 1 && l.callStatus === 'scheduled';
    });

    // A replay of the same delivery is refused; a fresh re-delivery is a duplicate that runs nothing.
    expect((await deliver(signed.raw, signed.headers)).status).toBe(401);
    const again = vapi.sign(report, secret);
    const duplicate = await deliver(again.raw, again.headers);
    expect(duplicate.status).toBe(200);
    expect(duplicate.body.data.duplicate).toBe(true);
    expect(h.db.prepare('SELECT count(*) AS n FROM executions WHERE agency_id = ? AND call_id = ?').get(h.agencyId, callId)).toEqual({ n: 1 });
  });

  it('other server messages are acknowledged and ignored', async () => {
    const signed = vapi.sign({ type: 'status-update', status: 'in-progress', call: placed.call }, secret);
    const r = await deliver(signed.raw, signed.headers);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ type: 'status-update', ignored: true });
  });
});
