/**
 * A refused call-event delivery leaves one warn line saying why and for which agency, so an
 * operator whose platform signs with the wrong secret (or whose clock drifts) can tell from the log
 * alone. The line never holds the secret or the signature the delivery carried.
 */
import { createHmac } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { AGENCY_HEADER, SIGNATURE_HEADER, signPayload } from '../../server/domain/event-signature.js';

const VAPI_SECRET = 'vsec_refusal-log-test-secret-0123';
const VAPI_KEY = 'vapi-private-key-refusal-log-test';
let h: Harness;
let secret: string;
const lines: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _e, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  h = await createHarness({ temporal: true, logSink: sink, config: { logLevel: 'info' } });
  secret = (await h.store.agencies.get(h.agencyId))!.signingSecret;
  await h.services.credentials.put(h.agencyId, 'agency', 'vapi', { apiKey: VAPI_KEY, serverSecret: VAPI_SECRET, secretKind: 'hmac' });
});
afterAll(async () => h?.close());

type Line = { level: number; msg: string; reason?: string; agencyId?: string; source?: string; status?: number };

/** Sends one delivery and returns its answer and the warn lines it left. */
async function refused(send: () => Promise<{ status: number }>) {
  const from = lines.length;
  const answer = await send();
  const logged = lines.slice(from);
  const warns = logged.map((l) => JSON.parse(l) as Line).filter((l) => l.level === 40);
  return { status: answer.status, warns, text: logged.join('\n') };
}

const callStarted = (callId: string) => JSON.stringify({ type: 'call.started', call: { callId, campaignId: 'cmp_x', phoneNumber: '+15125550100' } });
const postCalls = (raw: string, headers: Record<string, string>) => h.api('POST', '/api/events/calls', { key: null, rawBody: raw, headers: { 'content-type': 'application/json', ...headers } });

describe('POST /api/events/calls: each refusal is one warn line with its reason and agency', () => {
  it('a signature made with another secret', async () => {
    const raw = callStarted('refused-1');
    const signature = signPayload('whsec_not_the_agency_secret', raw);
    const r = await refused(() => postCalls(raw, { [AGENCY_HEADER]: h.agencyId, [SIGNATURE_HEADER]: signature }));
    expect(r.status).toBe(401);
    expect(r.warns).toEqual([expect.objectContaining({ msg: 'call event refused', source: 'calls', agencyId: h.agencyId, status: 401, reason: 'signature does not match the body' })]);
    expect(r.text).not.toContain(signature.split('v1=')[1]);
    expect(r.text).not.toContain(secret);
  });

  it('a stale timestamp', async () => {
    const raw = callStarted('refused-2');
    const signature = signPayload(secret, raw, Math.floor(Date.now() / 1000) - 3600);
    const r = await refused(() => postCalls(raw, { [AGENCY_HEADER]: h.agencyId, [SIGNATURE_HEADER]: signature }));
    expect(r.status).toBe(401);
    expect(r.warns).toEqual([expect.objectContaining({ agencyId: h.agencyId, reason: expect.stringMatching(/outside the 300s tolerance/) })]);
    expect(r.text).not.toContain(signature.split('v1=')[1]);
    expect(r.text).not.toContain(secret);
  });

  it('a replayed signature: the first delivery is accepted and logs no warning, the second is refused', async () => {
    const raw = callStarted('refused-3');
    const signature = signPayload(secret, raw);
    const first = await refused(() => postCalls(raw, { [AGENCY_HEADER]: h.agencyId, [SIGNATURE_HEADER]: signature }));
    expect(first.status).toBe(202);
    expect(first.warns).toEqual([]);
    const again = await refused(() => postCalls(raw, { [AGENCY_HEADER]: h.agencyId, [SIGNATURE_HEADER]: signature }));
    expect(again.status).toBe(401);
    expect(again.warns).toEqual([expect.objectContaining({ agencyId: h.agencyId, reason: expect.stringMatching(/already used \(replay\)/) })]);
    expect(again.text).not.toContain(signature.split('v1=')[1]);
    expect(again.text).not.toContain(secret);
  });

  it('an unknown agency', async () => {
    const raw = callStarted('refused-4');
    const r = await refused(() => postCalls(raw, { [AGENCY_HEADER]: 'agency_nobody', [SIGNATURE_HEADER]: signPayload(secret, raw) }));
    expect(r.status).toBe(401);
    expect(r.warns).toEqual([expect.objectContaining({ agencyId: 'agency_nobody', reason: expect.stringMatching(/headers are required/) })]);
    expect(r.text).not.toContain(secret);
  });
});

describe('POST /api/events/vapi/{agencyId}: each refusal is one warn line with its reason and agency', () => {
  const vapiSign = (message: object, key: string, timestamp = String(Date.now())) => {
    const raw = JSON.stringify({ message });
    const signature = createHmac('sha256', key).update(`${timestamp}.${raw}`).digest('hex');
    return { raw, signature, headers: { 'content-type': 'application/json', 'x-signature': signature, 'x-timestamp': timestamp } };
  };
  const report = (callId: string) => ({
    type: 'end-of-call-report', endedReason: 'voicemail', endedAt: new Date().toISOString(),
    call: { id: callId, type: 'outboundPhoneCall' }, customer: { number: '+15125550171' },
  });
  const deliver = (d: { raw: string; headers: Record<string, string> }, agencyId = h.agencyId) =>
    h.api('POST', `/api/events/vapi/${agencyId}`, { key: null, rawBody: d.raw, headers: d.headers });

  it('a signature made with another secret', async () => {
    const d = vapiSign(report('c0ffee00-0000-4000-8000-000000000001'), 'vsec_someone_else_entirely');
    const r = await refused(() => deliver(d));
    expect(r.status).toBe(401);
    expect(r.warns).toEqual([expect.objectContaining({ msg: 'call event refused', source: 'vapi', agencyId: h.agencyId, status: 401, reason: 'x-signature does not match the body with any configured HMAC secret' })]);
    expect(r.text).not.toContain(d.signature);
    expect(r.text).not.toContain(VAPI_SECRET);
  });

  it('a stale timestamp', async () => {
    const d = vapiSign(report('c0ffee00-0000-4000-8000-000000000002'), VAPI_SECRET, String(Date.now() - 3_600_000));
    const r = await refused(() => deliver(d));
    expect(r.status).toBe(401);
    expect(r.warns).toEqual([expect.objectContaining({ agencyId: h.agencyId, reason: expect.stringMatching(/x-timestamp is 3600s old, beyond the 300s tolerance/) })]);
    expect(r.text).not.toContain(d.signature);
    expect(r.text).not.toContain(VAPI_SECRET);
  });

  it('a report of a call this agency did not place', async () => {
    const d = vapiSign(report('c0ffee00-0000-4000-8000-000000000003'), VAPI_SECRET);
    const r = await refused(() => deliver(d));
    expect(r.status).toBe(404);
    expect(r.warns).toEqual([expect.objectContaining({ agencyId: h.agencyId, status: 404, reason: expect.stringMatching(/was not placed by this agency's dialer/) })]);
    expect(r.text).not.toContain(d.signature);
    expect(r.text).not.toContain(VAPI_SECRET);
  });

  it('a replayed signature: the report is accepted once and logs no warning, the same delivery again is refused', async () => {
    const c = await createProjectAgentCampaign(h);
    const platformCallId = 'c0ffee00-0000-4000-8000-000000000004';
    await h.store.placedCalls.record({ agencyId: h.agencyId, callId: 'refused-vapi-4', platform: 'vapi', platformCallId, campaignId: c.campaignId, contactId: 'ct_refused_4' });
    const d = vapiSign(report(platformCallId), VAPI_SECRET);
    const first = await refused(() => deliver(d));
    expect(first.status).toBe(202);
    expect(first.warns).toEqual([]);
    const again = await refused(() => deliver(d));
    expect(again.status).toBe(401);
    expect(again.warns).toEqual([expect.objectContaining({ agencyId: h.agencyId, reason: expect.stringMatching(/already used \(replay\)/) })]);
    expect(again.text).not.toContain(d.signature);
    expect(again.text).not.toContain(VAPI_SECRET);
  });

  it('an unknown agency', async () => {
    const d = vapiSign(report('c0ffee00-0000-4000-8000-000000000005'), VAPI_SECRET);
    const r = await refused(() => deliver(d, 'agency_nobody'));
    expect(r.status).toBe(401);
    expect(r.warns).toEqual([expect.objectContaining({ agencyId: 'agency_nobody', reason: expect.stringMatching(/does not accept Vapi messages/) })]);
    expect(r.text).not.toContain(d.signature);
    expect(r.text).not.toContain(VAPI_SECRET);
  });
});

describe('POST /api/events/contacts, signed the same way', () => {
  it('a signature made with another secret is one warn line with its reason and agency', async () => {
    const raw = JSON.stringify({ type: 'contact.created', contact: { id: 'ct_refused', locationId: 'loc_nowhere', phone: '+15125550100' } });
    const signature = signPayload('whsec_not_the_agency_secret', raw);
    const r = await refused(() => h.api('POST', '/api/events/contacts', { key: null, rawBody: raw, headers: { 'content-type': 'application/json', [AGENCY_HEADER]: h.agencyId, [SIGNATURE_HEADER]: signature } }));
    expect(r.status).toBe(401);
    expect(r.warns).toEqual([expect.objectContaining({ msg: 'contact event refused', source: 'contacts', agencyId: h.agencyId, reason: 'signature does not match the body' })]);
    expect(r.text).not.toContain(signature.split('v1=')[1]);
    expect(r.text).not.toContain(secret);
  });
});
