/**
 * Signed webhooks in (call events and CRM contact events), with signatures computed here from
 * node:crypto, independently of the product's own signing code. Every bad delivery is refused
 * with 401 and stores nothing: no call, call event, execution, run input, contact, lead change,
 * and no Temporal workflow. A good delivery is accepted once; its replay — and the replay of a
 * re-delivery — is refused.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { postCallWorkflowId } from '../../engine/workflows/post-call-types.js';

let h: Harness;
let ctx: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
let n = 0;

beforeAll(async () => {
  h = await createHarness({ temporal: true });
  for (const id of [h.agencyId, `${h.agencyId}_other`]) secrets.set(id, (await h.store.agencies.get(id))!.signingSecret);
  ctx = await createProjectAgentCampaign(h);
  const patched = await h.api('PATCH', `/api/agent-builder/projects/${ctx.locationId}/campaigns/${ctx.campaignId}`, { body: { active: true, activeTags: ['hook-lead'], callingWindow: { days: [1], start: '3:00', end: '3:01', tz: 'Pacific/Kiritimati' } } });
  expect(patched.status, patched.text).toBe(200);
});
afterAll(async () => h?.close());

const now = () => Math.floor(Date.now() / 1000);
const hmac = (secret: string, t: number | string, raw: string) => createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex');
/** The agencies' signing secrets, read once (the refusal builders below sign synchronously). */
const secrets = new Map<string, string>();
const secretOf = (agencyId: string) => secrets.get(agencyId)!;

function callEvent() {
  return JSON.stringify({
    type: 'call.ended',
    call: { callId: `hook-call-${++n}-${Date.now()}`, campaignId: ctx.campaignId, phoneNumber: '+15125550140', dateTime: new Date().toISOString(), disposition: 'VOICEMAIL', callSummary: 'hook' },
  });
}
function contactEvent() {
  return JSON.stringify({ type: 'contact.created', contact: { id: `hook-ct-${++n}`, locationId: ctx.locationId, firstName: 'Hook', phone: '+15125550141', tags: ['hook-lead'] } });
}

async function deliver(path: '/api/events/calls' | '/api/events/contacts', raw: string, headers: Record<string, string>) {
  return h.api('POST', path, { key: null, rawBody: raw, headers: { 'content-type': 'application/json', ...headers } });
}

/** What a refused delivery must not leave behind, and what it must not start. */
async function expectNothingStored(raw: string) {
  const body = JSON.parse(raw) as { call?: { callId: string }; contact?: { id: string } };
  const counts = () =>
    Object.fromEntries(
      ['calls', 'call_events', 'executions', 'run_inputs', 'crm_contacts', 'leads', 'contact_events', 'outbox'].map((t) => [t, (h.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]),
    );
  expect(counts()).toEqual(baseline);
  if (body.call) {
    await expect(h.temporal!.client.workflow.getHandle(postCallWorkflowId(h.agencyId, body.call.callId)).describe()).rejects.toThrow(/not found/i);
  }
  if (body.contact) expect(await h.store.crm.getContact(h.agencyId, ctx.locationId, body.contact.id)).toBeUndefined();
}
let baseline: Record<string, number>;
const snapshotCounts = () => {
  baseline = Object.fromEntries(
    ['calls', 'call_events', 'executions', 'run_inputs', 'crm_contacts', 'leads', 'contact_events', 'outbox'].map((t) => [t, (h.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]),
  );
};

describe.each([
  ['call events', '/api/events/calls' as const, callEvent],
  ['contact events', '/api/events/contacts' as const, contactEvent],
])('%s: refused deliveries store nothing', (_name, path, make) => {
  const refused: [string, () => { raw: string; headers: Record<string, string> }][] = [
    ['a timestamp in the future (beyond the tolerance)', () => { const raw = make(); const t = now() + 3600; return { raw, headers: { 'x-agency-id': h.agencyId, 'x-signature': `t=${t},v1=${hmac(secretOf(h.agencyId), t, raw)}` } }; }],
    ['a stale timestamp', () => { const raw = make(); const t = now() - 3600; return { raw, headers: { 'x-agency-id': h.agencyId, 'x-signature': `t=${t},v1=${hmac(secretOf(h.agencyId), t, raw)}` } }; }],
    ['a malformed timestamp', () => { const raw = make(); return { raw, headers: { 'x-agency-id': h.agencyId, 'x-signature': `t=yesterday,v1=${hmac(secretOf(h.agencyId), 'yesterday', raw)}` } }; }],
    ['a fractional timestamp', () => { const raw = make(); const t = `${now()}.5`; return { raw, headers: { 'x-agency-id': h.agencyId, 'x-signature': `t=${t},v1=${hmac(secretOf(h.agencyId), t, raw)}` } }; }],
    ['a malformed signature header', () => ({ raw: make(), headers: { 'x-agency-id': h.agencyId, 'x-signature': 'sha256=deadbeef' } })],
    ['a signature that is not hex of the right length', () => { const raw = make(); return { raw, headers: { 'x-agency-id': h.agencyId, 'x-signature': `t=${now()},v1=${hmac(secretOf(h.agencyId), now(), raw).slice(0, 20)}` } }; }],
    ['no signature header', () => ({ raw: make(), headers: { 'x-agency-id': h.agencyId } })],
    ['no agency header', () => { const raw = make(); const t = now(); return { raw, headers: { 'x-signature': `t=${t},v1=${hmac(secretOf(h.agencyId), t, raw)}` } }; }],
    ['an unknown agency', () => { const raw = make(); const t = now(); return { raw, headers: { 'x-agency-id': 'agency_nobody', 'x-signature': `t=${t},v1=${hmac(secretOf(h.agencyId), t, raw)}` } }; }],
    ["another agency's secret", () => { const raw = make(); const t = now(); return { raw, headers: { 'x-agency-id': h.agencyId, 'x-signature': `t=${t},v1=${hmac(secretOf(`${h.agencyId}_other`), t, raw)}` } }; }],
    ["another agency's header with this agency's signature", () => { const raw = make(); const t = now(); return { raw, headers: { 'x-agency-id': `${h.agencyId}_other`, 'x-signature': `t=${t},v1=${hmac(secretOf(h.agencyId), t, raw)}` } }; }],
    ['a tampered body', () => { const raw = make(); const t = now(); return { raw: raw.replace('"+1512555014', '"+1737555014'), headers: { 'x-agency-id': h.agencyId, 'x-signature': `t=${t},v1=${hmac(secretOf(h.agencyId), t, raw)}` } }; }],
    ['the signature over another timestamp', () => { const raw = make(); const t = now(); return { raw, headers: { 'x-agency-id': h.agencyId, 'x-signature': `t=${t},v1=${hmac(secretOf(h.agencyId), t - 1, raw)}` } }; }],
  ];
  for (const [what, build] of refused) {
    it(`${what}: 401, nothing stored or started`, async () => {
      snapshotCounts();
      const { raw, headers } = build();
      const r = await deliver(path, raw, headers);
      expect(r.status, r.text).toBe(401);
      expect(r.body).toMatchObject({ success: false, error: 'Unauthorized' });
      await expectNothingStored(raw);
    });
  }

  it('a good delivery is accepted; its byte-identical replay and the replay of a re-delivery are refused and add nothing', async () => {
    const raw = make();
    const t = now();
    const first = { 'x-agency-id': h.agencyId, 'x-signature': `t=${t},v1=${hmac(secretOf(h.agencyId), t, raw)}` };
    const ok = await deliver(path, raw, first);
    expect(ok.status, ok.text).toBe(202);
    snapshotCounts();
    const replay = await deliver(path, raw, first);
    expect(replay.status).toBe(401);
    expect(replay.body.message).toContain('replay');
    // A re-delivery is signed afresh (a later timestamp): accepted as a duplicate, not re-applied ...
    const later = { 'x-agency-id': h.agencyId, 'x-signature': `t=${t + 1},v1=${hmac(secretOf(h.agencyId), t + 1, raw)}` };
    const again = await deliver(path, raw, later);
    expect([200, 202]).toContain(again.status);
    if (path === '/api/events/calls') expect(again.body.data.duplicate).toBe(true);
    else expect(again.body.data).toMatchObject({ enrolled: [], removed: [] });
    // ... and the replay of that re-delivery is refused too.
    const replayAgain = await deliver(path, raw, later);
    expect(replayAgain.status, replayAgain.text).toBe(401);
    expect(replayAgain.body.message).toContain('replay');
    expect(Object.fromEntries(Object.entries(baseline).filter(([k]) => k !== 'contact_events'))).toEqual(
      Object.fromEntries(['calls', 'call_events', 'executions', 'run_inputs', 'crm_contacts', 'leads', 'outbox'].map((tb) => [tb, (h.db.prepare(`SELECT count(*) AS n FROM ${tb}`).get() as { n: number }).n])),
    );
  });
});
