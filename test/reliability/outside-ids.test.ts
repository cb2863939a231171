/**
 * Ids that come from outside (CRM contact ids, voice-platform call ids, Idempotency-Key values) are
 * unique only per agency, and contact ids only per CRM location. Two agencies that connect the same
 * location and see the same contact and call ids — interleaved and concurrent — each keep exactly
 * their own contacts, leads, calls, executions, effects and lists; every post-call chain runs once
 * for each; no response or step output carries the other's data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { postContactEvent } from '../helpers/power-dialer.js';
import { postCallWorkflowId } from '../../engine/workflows/post-call-types.js';

let h: Harness;
const LOCATION = `loc_shared_${Date.now()}`;
const CONTACT = 'ct_same';
const CALL = 'call-1';

interface Tenant {
  name: 'A' | 'B';
  agencyId: string;
  key: string;
  ctx: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
  person: { firstName: string; phone: string; email: string };
}
let A: Tenant;
let B: Tenant;

/** Strings that belong to one tenant only: none may appear in the other's answers or step records. */
const marks = (t: Tenant) => [t.person.firstName, t.person.phone, t.person.email, `tag-${t.name}`, `note ${t.name}`, `sms ${t.name}`];

async function setUp(name: 'A' | 'B', agencyId: string, key: string, person: Tenant['person']): Promise<Tenant> {
  const ctx = await createProjectAgentCampaign(h, { key, locationId: LOCATION });
  const cadence = await h.api('POST', '/api/power-dialer/cadences', { key, body: { name: `cadence ${name}`, steps: [{ delayMinutes: 0 }] } });
  // The calling window never opens: leads wait in the queue, nobody is dialled.
  const patched = await h.api('PATCH', `/api/agent-builder/projects/${LOCATION}/campaigns/${ctx.campaignId}`, {
    key,
    body: {
      active: true, activeTags: [`enrol-${name}`], inactiveTags: [`stop-${name}`], config: { cadenceId: cadence.body.data.id, calendarId: 'cal_main' },
      callingWindow: { days: [1], start: '3:00', end: '3:01', tz: 'Pacific/Kiritimati' },
    },
  });
  expect(patched.status, patched.text).toBe(200);
  const appended = await h.api('POST', `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`, {
    key,
    body: {
      nodes: [
        { type: 'add-tag', config: { tags: [`tag-${name}`] } },
        { type: 'add-note', config: { body: `note ${name} for {{contact.firstName}}` } },
        { type: 'send-sms', config: { body: `sms ${name} to {{contact.firstName}}`, fromNumber: '+15125550100' } },
        { type: 'book-appointment', config: { durationMinutes: 30 } },
      ],
    },
  });
  expect(appended.status, appended.text).toBe(200);
  return { name, agencyId, key, ctx, person };
}

beforeAll(async () => {
  h = await createHarness({ temporal: true, config: { defaultPlanLimit: 10 } });
  A = await setUp('A', h.agencyId, h.adminKey, { firstName: 'Ana', phone: '+15125550101', email: 'ana@a.example' });
  B = await setUp('B', `${h.agencyId}_other`, h.otherAgencyKey, { firstName: 'Bob', phone: '+15125550202', email: 'bob@b.example' });
});
afterAll(async () => h?.close());

const contactEvent = (t: Tenant, type: 'contact.created' | 'contact.updated', tags: string[]) => ({
  type,
  contact: { id: CONTACT, locationId: LOCATION, firstName: t.person.firstName, phone: t.person.phone, email: t.person.email, tags },
});

function expectNone(text: string, of: Tenant, what: string) {
  for (const m of marks(of)) expect(text.includes(m), `${what} carries ${of.name}'s "${m}": ${text.slice(0, 300)}`).toBe(false);
}

describe('the same outside ids in two agencies on one CRM location', () => {
  it('contacts and leads: concurrent contact events keep each agency its own contact and lead', async () => {
    const [ea, eb] = await Promise.all([
      postContactEvent(h, contactEvent(A, 'contact.created', ['enrol-A']), { agencyId: A.agencyId }),
      postContactEvent(h, contactEvent(B, 'contact.created', ['enrol-B']), { agencyId: B.agencyId }),
    ]);
    expect(ea.status, ea.text).toBe(202);
    expect(eb.status, eb.text).toBe(202);
    expect(ea.body.data.enrolled).toHaveLength(1);
    expect(eb.body.data.enrolled).toHaveLength(1);

    for (const [t, other] of [[A, B], [B, A]] as const) {
      expect(await h.store.crm.getContact(t.agencyId, LOCATION, CONTACT)).toMatchObject({ firstName: t.person.firstName, phone: t.person.phone, tags: [`enrol-${t.name}`] });
      const list = await h.api('GET', '/api/power-dialer/pipeline/leads?cadenceStep=0', { key: t.key });
      expect(list.status, list.text).toBe(200);
      expect(list.body.data.total).toBe(1);
      expect(list.body.data.leads[0]).toMatchObject({ firstName: t.person.firstName, phone: t.person.phone, campaignId: t.ctx.campaignId });
      expectNone(list.text, other, `${t.name}'s lead list`);
    }
  });

  it("one agency's update of the shared contact id changes neither the other's contact nor its lead", async () => {
    // B excludes its contact; A's contact keeps A's data and A's lead stays in A's queue.
    const r = await postContactEvent(h, contactEvent(B, 'contact.updated', ['enrol-B', 'stop-B']), { agencyId: B.agencyId });
    expect(r.status, r.text).toBe(202);
    expect(r.body.data.removed).toHaveLength(1);
    expect((await h.store.crm.getContact(A.agencyId, LOCATION, CONTACT))!.tags).toEqual(['enrol-A']);
    expect(await h.store.leads.ofContact(A.agencyId, LOCATION, CONTACT)).toHaveLength(1);
    expect(await h.store.leads.ofContact(B.agencyId, LOCATION, CONTACT)).toHaveLength(0);
    // A's enrolment by contact id reads A's contact, not B's (which carries B's exclusion tag).
    const again = await h.api('POST', '/api/power-dialer/leads', { key: A.key, body: { campaignId: A.ctx.campaignId, contactId: CONTACT } });
    expect(again.status, again.text).toBe(200);
    expect(again.body.data).toMatchObject({ firstName: 'Ana', phone: A.person.phone });
  });

  it('calls: the same call id from both agencies, concurrently, runs each chain once with its own data', async () => {
    const at = new Date(Date.now() + 3 * 86_400_000);
    at.setUTCMinutes(0, 0, 0);
    const event = (t: Tenant) =>
      callEnded(t.ctx.campaignId, { callId: CALL, contactId: CONTACT, phoneNumber: t.person.phone, fields: [{ key: 'appointment_time', value: at.toISOString() }], callSummary: `summary ${t.name}`, leadName: `${t.person.firstName} ${t.name}` });
    const [ra, rb] = await Promise.all([postCallEvent(h, event(A), { agencyId: A.agencyId }), postCallEvent(h, event(B), { agencyId: B.agencyId })]);
    for (const [t, r] of [[A, ra], [B, rb]] as const) {
      expect(r.status, r.text).toBe(202);
      expect(r.body.data).toEqual({ callId: CALL, duplicate: false, workflowId: postCallWorkflowId(t.agencyId, CALL) });
    }
    const results = await Promise.all([awaitRun(h, CALL, A.agencyId), awaitRun(h, CALL, B.agencyId)]);
    expect(results.map((x) => x.status)).toEqual(['succeeded', 'succeeded']);

    for (const [t, other] of [[A, B], [B, A]] as const) {
      const contact = (await h.store.crm.getContact(t.agencyId, LOCATION, CONTACT))!;
      expect(contact.tags).toContain(`tag-${t.name}`);
      expect(contact.tags).not.toContain(`tag-${other.name}`);
      expect(contact.notes!.map((n) => n.body)).toEqual([`note ${t.name} for ${t.person.firstName}`]);
      const sms = h.db.prepare("SELECT recipient, body FROM outbox WHERE agency_id = ? AND channel = 'sms'").all(t.agencyId);
      expect(sms).toEqual([{ recipient: t.person.phone, body: `sms ${t.name} to ${t.person.firstName}` }]);
      // The same calendar id at the same slot in two agencies: two appointments, neither refused.
      const appts = h.db.prepare('SELECT calendar_id, starts_at FROM appointments WHERE agency_id = ?').all(t.agencyId);
      expect(appts).toEqual([{ calendar_id: 'cal_main', starts_at: at.toISOString() }]);
      expect(await h.store.effects.countWithPrefix(t.agencyId, `${postCallWorkflowId(t.agencyId, CALL)}:`)).toBe(4);

      const runs = h.db.prepare('SELECT id, status FROM executions WHERE agency_id = ? AND call_id = ?').all(t.agencyId, CALL) as { id: string; status: string }[];
      expect(runs).toHaveLength(1);
      expect(runs[0]!.status).toBe('succeeded');
      const run = await h.api('GET', `/api/agent-builder/agents/${t.ctx.agentId}/campaign/workflow/executions/${runs[0]!.id}`, { key: t.key });
      expect(run.status, run.text).toBe(200);
      expect(run.body.data.steps.map((s: { status: string }) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
      expectNone(run.text, other, `${t.name}'s execution`);

      const call = await h.api('GET', `/api/call-history/by-call-id/${CALL}`, { key: t.key });
      expect(call.status, call.text).toBe(200);
      expect(call.body.data).toMatchObject({ callId: CALL, phoneNumber: t.person.phone, callSummary: `summary ${t.name}`, campaignId: t.ctx.campaignId });
      expectNone(call.text, other, `${t.name}'s call record`);
    }
  });

  it("a re-delivery of one agency's call is a duplicate for it alone and runs nothing again", async () => {
    const redelivered = await postCallEvent(h, callEnded(B.ctx.campaignId, { callId: CALL, contactId: CONTACT, phoneNumber: B.person.phone }), {
      agencyId: B.agencyId,
      timestamp: Math.floor(Date.now() / 1000) + 1,
    });
    expect(redelivered.status, redelivered.text).toBe(200);
    expect(redelivered.body.data).toEqual({ callId: CALL, duplicate: true, workflowId: postCallWorkflowId(B.agencyId, CALL) });
    for (const t of [A, B]) expect(h.db.prepare('SELECT count(*) AS n FROM executions WHERE agency_id = ? AND call_id = ?').get(t.agencyId, CALL)).toEqual({ n: 1 });
  });

  it('Idempotency-Key: the same key in both agencies, concurrently, makes one write each and replays each its own', async () => {
    const append = (t: Tenant) =>
      h.api('POST', `/api/agent-builder/agents/${t.ctx.agentId}/campaign/workflow/outcomes/CALLBACK/nodes`, {
        key: t.key,
        headers: { 'Idempotency-Key': 'same-key' },
        body: { nodes: [{ type: 'add-tag', config: { tags: [`tag-${t.name}`] } }] },
      });
    const [ra, rb] = await Promise.all([append(A), append(B)]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    for (const [t, r, other] of [[A, ra, B], [B, rb, A]] as const) {
      expect(r.headers.get('idempotent-replayed')).toBeNull();
      const replay = await append(t);
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(r.body);
      expectNone(replay.text, other, `${t.name}'s replay`);
      const graph = (await h.store.workflows.get(t.agencyId, t.ctx.campaignId)).graph;
      expect(graph.nodes.filter((n) => JSON.stringify(n.config) === JSON.stringify({ tags: [`tag-${t.name}`] }))).toHaveLength(2);
    }
  });
});

describe('the same contact id on two locations of one agency', () => {
  it('is two contacts: an update or delete on one location leaves the other alone', async () => {
    const other = `loc_second_${Date.now()}`;
    const second = await createProjectAgentCampaign(h, { locationId: other });
    const patched = await h.api('PATCH', `/api/agent-builder/projects/${other}/campaigns/${second.campaignId}`, {
      body: { active: true, activeTags: ['enrol-A'], callingWindow: { days: [1], start: '3:00', end: '3:01', tz: 'Pacific/Kiritimati' } },
    });
    expect(patched.status, patched.text).toBe(200);
    const created = await postContactEvent(h, { type: 'contact.created', contact: { id: CONTACT, locationId: other, firstName: 'Otto', phone: '+15125550303', tags: ['enrol-A'] } });
    expect(created.status, created.text).toBe(202);
    expect(created.body.data.enrolled).toHaveLength(1);
    expect(await h.store.crm.getContact(A.agencyId, LOCATION, CONTACT)).toMatchObject({ firstName: 'Ana', phone: A.person.phone });
    expect(await h.store.crm.getContact(A.agencyId, other, CONTACT)).toMatchObject({ firstName: 'Otto' });

    const deleted = await postContactEvent(h, { type: 'contact.deleted', contact: { id: CONTACT, locationId: other } });
    expect(deleted.status, deleted.text).toBe(202);
    expect(deleted.body.data.removed).toHaveLength(1);
    expect(await h.store.leads.ofContact(A.agencyId, other, CONTACT)).toHaveLength(0);
    // The first location's lead of the same contact id is still queued.
    expect(await h.store.leads.ofContact(A.agencyId, LOCATION, CONTACT)).toHaveLength(1);
  });
});

describe('a call whose run cannot be started under its id', () => {
  it('is refused with 409 RunIdTaken and leaves nothing stored (never a 202 that runs nothing)', async () => {
    // A run already holds the id in Temporal (a store reset under a kept Temporal history).
    const callId = `call-taken-${Date.now()}`;
    const input = (await h.store.runInputs.get(A.agencyId, postCallWorkflowId(A.agencyId, CALL)))!;
    await h.temporal!.startPostCall(postCallWorkflowId(A.agencyId, callId), { ...input, graph: { ...input.graph, dispositionEntries: {} } });
    const r = await postCallEvent(h, callEnded(A.ctx.campaignId, { callId, contactId: CONTACT, phoneNumber: A.person.phone }), { agencyId: A.agencyId });
    expect(r.status, r.text).toBe(409);
    expect(r.body).toMatchObject({ success: false, error: 'CONFLICT', code: 'RunIdTaken' });
    expect(await h.store.calls.get(A.agencyId, callId)).toBeUndefined();
    expect(await h.store.executions.firstOfCall(A.agencyId, callId)).toBeUndefined();
    expect(h.db.prepare('SELECT count(*) AS n FROM call_events WHERE agency_id = ? AND call_id = ?').get(A.agencyId, callId)).toEqual({ n: 0 });
    expect(await h.store.runInputs.get(A.agencyId, postCallWorkflowId(A.agencyId, callId))).toBeUndefined();
  });
});
