import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { contactEvent, dialerCampaign, firstStepTaken, postContactEvent } from '../helpers/power-dialer.js';
import { rowsOf } from '../helpers/state.js';
import { leadWorkflowId } from '../../engine/workflows/lead-cadence-types.js';

// Enrolment through both doors (CRM contact events, POST /api/power-dialer/leads) and every way
// out. Real Temporal: each lead gets its workflow; the cadence's first step is ten hours away, so
// no call is due while these tests run.

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ temporal: true });
});
afterAll(async () => h?.close());

const LATER = [{ delayMinutes: 600 }, { delayMinutes: 600 }];
const workflowResult = (leadId: string) => h.temporal!.client.workflow.getHandle(leadWorkflowId(leadId)).result();
/**
 * A new lead's workflow takes its first step (it would mirror a first state that differs from what
 * enrolment stored), then sleeps for ten hours on a timer: once that timer is set, only the test
 * can change a row.
 */
const asleep = (leadId: string) => firstStepTaken(h, leadWorkflowId(leadId));

describe('enrolment from CRM contact events', () => {
  it('a contact with an active tag enters the queue once; the event also upserts the contact', async () => {
    const c = await dialerCampaign(h, { steps: LATER });
    const { locationId, campaignId } = c;
    const event = c.event({ firstName: 'Ana' });
    const first = await postContactEvent(h, event);
    expect(first.status).toBe(202);
    expect(first.body.data.enrolled).toHaveLength(1);
    const leadId = first.body.data.enrolled[0];
    const lead = (await h.store.leads.get(h.agencyId, leadId))!;
    expect(lead).toMatchObject({ campaignId, contactId: event.contact.id, cadenceStep: 0, callStatus: 'scheduled', live: true, firstName: 'Ana', fullName: 'Ana Lee', phone: event.contact.phone, tags: [c.activeTag] });
    // Step 0 is timed from enrolment (createdAt), and no calling window applies here.
    expect(Date.parse(lead.nextCallTime) - Date.parse(lead.createdAt)).toBe(600 * 60_000);
    expect(await h.store.crm.getContact(h.agencyId, locationId, event.contact.id)).toMatchObject({ firstName: 'Ana', tags: [c.activeTag] });
    const running = await h.temporal!.client.workflow.getHandle(leadWorkflowId(leadId)).describe();
    expect(running.status.name).toBe('RUNNING');

    // The same contact again (a re-delivery, a later update): never twice.
    const again = await postContactEvent(h, { ...event, contact: { ...event.contact, firstName: 'Ana Maria', tags: [c.activeTag, 'vip'] } });
    expect(again.status).toBe(202);
    expect(again.body.data).toEqual({ contactId: event.contact.id, enrolled: [], removed: [] });
    expect(await h.store.leads.ofContact(h.agencyId, event.contact.locationId, event.contact.id)).toHaveLength(1);
    // ... but the lead shows the contact's new data.
    expect(await h.store.leads.get(h.agencyId, leadId)).toMatchObject({ firstName: 'Ana Maria', tags: [c.activeTag, 'vip'] });
  });

  it('enrols only with an active tag and no inactive tag (case-insensitive), into active campaigns of live projects', async () => {
    const { locationId, campaignId, projectId } = await dialerCampaign(h, { steps: LATER, activeTags: ['New-Lead', 'webform'], inactiveTags: ['DNC'], freshProject: true });
    const none = await postContactEvent(h, contactEvent(locationId, { tags: ['other'] }));
    expect(none.body.data.enrolled).toEqual([]);
    const excluded = await postContactEvent(h, contactEvent(locationId, { tags: ['new-lead', 'dnc'] }));
    expect(excluded.body.data.enrolled).toEqual([]);
    const noPhone = await postContactEvent(h, contactEvent(locationId, { tags: ['webform'], phone: '12' }));
    expect(noPhone.body.data.enrolled).toEqual([]);
    const second = await postContactEvent(h, contactEvent(locationId, { tags: ['WEBFORM'] }));
    expect(second.body.data.enrolled).toHaveLength(1);

    // A stopped campaign and a stopped project enrol nobody.
    await h.api('PATCH', `/api/agent-builder/projects/${locationId}/campaigns/${campaignId}`, { body: { active: false } });
    expect((await postContactEvent(h, contactEvent(locationId))).body.data.enrolled).toEqual([]);
    await h.api('PATCH', `/api/agent-builder/projects/${locationId}/campaigns/${campaignId}`, { body: { active: true } });
    expect((await postContactEvent(h, contactEvent(locationId))).body.data.enrolled).toHaveLength(1);
    await h.api('PUT', `/api/v2/projects/${projectId}`, { body: { active: false } });
    expect((await postContactEvent(h, contactEvent(locationId))).body.data.enrolled).toEqual([]);
    // A location with no project: the contact is stored, nobody is enrolled.
    expect((await postContactEvent(h, contactEvent('loc_unknown'))).body.data.enrolled).toEqual([]);
  });

  it('an exclusion tag takes the lead out and stops its workflow', async () => {
    const c = await dialerCampaign(h, { steps: LATER });
    const { locationId } = c;
    const event = c.event();
    const leadId = (await postContactEvent(h, event)).body.data.enrolled[0];
    const out = await postContactEvent(h, { ...event, contact: { ...event.contact, tags: [c.activeTag, 'do-not-call'] } });
    expect(out.body.data.removed).toEqual([leadId]);
    expect(await h.store.leads.get(h.agencyId, leadId)).toBeUndefined();
    expect(await workflowResult(leadId)).toMatchObject({ status: 'stopped', reason: 'excluded' });
    // While excluded it does not come back; once the tag is gone it may.
    // (each delivery differs: an identical body signed in the same second is a replay)
    expect((await postContactEvent(h, { ...event, contact: { ...event.contact, firstName: 'Still', tags: [c.activeTag, 'do-not-call'] } })).body.data.enrolled).toEqual([]);
    expect((await postContactEvent(h, { ...event, contact: { ...event.contact, firstName: 'Back' } })).body.data.enrolled).toHaveLength(1);
  });

  it('contact.deleted takes the contact out of every queue', async () => {
    const c = await dialerCampaign(h, { steps: LATER });
    const { locationId } = c;
    const event = c.event();
    const leadId = (await postContactEvent(h, event)).body.data.enrolled[0];
    const gone = await postContactEvent(h, { type: 'contact.deleted', contact: { id: event.contact.id, locationId } });
    expect(gone.body.data.removed).toEqual([leadId]);
    expect(await workflowResult(leadId)).toMatchObject({ status: 'stopped', reason: 'contact_deleted' });
  });

  it('is signed like call events: forged, unsigned and replayed deliveries are 401', async () => {
    const c = await dialerCampaign(h, { steps: LATER });
    const { locationId } = c;
    const event = c.event();
    expect((await postContactEvent(h, event, { secret: 'whsec_wrong' })).status).toBe(401);
    const unsigned = await h.api('POST', '/api/events/contacts', { key: null, body: event, headers: { 'x-agency-id': h.agencyId } });
    expect(unsigned.status).toBe(401);
    const raw = JSON.stringify(event);
    const { signPayload } = await import('../../server/domain/event-signature.js');
    const headers = { 'content-type': 'application/json', 'x-agency-id': h.agencyId, 'x-signature': signPayload((await h.store.agencies.get(h.agencyId))!.signingSecret, raw) };
    expect((await h.api('POST', '/api/events/contacts', { key: null, rawBody: raw, headers })).status).toBe(202);
    const replay = await h.api('POST', '/api/events/contacts', { key: null, rawBody: raw, headers });
    expect(replay.status).toBe(401);
    expect(replay.body.message).toContain('replay');
    // Another agency's secret cannot enrol into this agency.
    expect((await postContactEvent(h, contactEvent(locationId), { secret: (await h.store.agencies.get(`${h.agencyId}_other`))!.signingSecret })).status).toBe(401);
  });
});

describe('POST /api/power-dialer/leads and DELETE /api/power-dialer/leads/{leadId}', () => {
  it('enrols an existing contact by id, once; an Idempotency-Key replays; DELETE removes and stops it', async () => {
    const { locationId, campaignId, activeTag } = await dialerCampaign(h, { steps: LATER });
    const contact = await h.store.crm.createContact(h.agencyId, { locationId, firstName: 'Bo', fullName: 'Bo Diaz', phone: '(512) 555-0142', email: 'bo@example.net', tags: [activeTag] });
    const headers = { 'Idempotency-Key': `enrol-${contact.id}` };
    const r = await h.api('POST', '/api/power-dialer/leads', { body: { campaignId, contactId: contact.id }, headers });
    expect(r.status).toBe(200);
    expect(r.body.created).toBe(true);
    expect(r.body.data).toMatchObject({ campaignId, fullName: 'Bo Diaz', phone: '+15125550142', callStatus: 'scheduled', cadenceStep: 0, live: true });
    const replay = await h.api('POST', '/api/power-dialer/leads', { body: { campaignId, contactId: contact.id }, headers });
    expect(replay.body).toEqual(r.body);
    const again = await h.api('POST', '/api/power-dialer/leads', { body: { campaignId, contactId: contact.id } });
    expect(again.status).toBe(200);
    expect(again.body.created).toBe(false);
    expect(again.body.data._id).toBe(r.body.data._id);

    const leadId = r.body.data._id;
    expect((await h.api('GET', `/api/power-dialer/leads/${leadId}`)).body.data._id).toBe(leadId);
    const del = await h.api('DELETE', `/api/power-dialer/leads/${leadId}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true, data: { _id: leadId, removed: true } });
    expect(await workflowResult(leadId)).toMatchObject({ status: 'stopped', reason: 'removed' });
    const after = await h.api('GET', `/api/power-dialer/leads/${leadId}`);
    expect(after.status).toBe(404);
    expect(after.body).toEqual({ success: false, error: `lead ${leadId} not found` });
    expect((await h.api('DELETE', `/api/power-dialer/leads/${leadId}`)).status).toBe(404);
  });

  it('enrols a contact given by its fields (created in the CRM), and refuses what the rules refuse with 409', async () => {
    const { locationId, campaignId, activeTag } = await dialerCampaign(h, { steps: LATER });
    const r = await h.api('POST', '/api/power-dialer/leads', { body: { campaignId, contact: { firstName: 'Cy', phone: '+15125550177', tags: [activeTag] } } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ firstName: 'Cy', fullName: 'Cy', phone: '+15125550177' });
    const stored = (await h.store.leads.get(h.agencyId, r.body.data._id))!;
    expect(await h.store.crm.getContact(h.agencyId, locationId, stored.contactId)).toMatchObject({ firstName: 'Cy' });

    // Each refusal below leaves the queue as it was (a contact given by fields may be stored in the
    // CRM before the rules refuse it: that is the CRM's copy, not a lead).
    await asleep(r.body.data._id);
    const leadsBefore = rowsOf(h.db, ['leads']);
    const untagged = await h.api('POST', '/api/power-dialer/leads', { body: { campaignId, contact: { firstName: 'Di', phone: '+15125550178', tags: [] } } });
    expect(untagged.status).toBe(409);
    expect(untagged.body).toEqual({ success: false, error: expect.stringContaining('activeTags') });
    const excluded = await h.api('POST', '/api/power-dialer/leads', { body: { campaignId, contact: { phone: '+15125550179', tags: [activeTag, 'do-not-call'] } } });
    expect(excluded.status).toBe(409);
    expect(excluded.body.error).toContain('do-not-call');
    const both = await h.api('POST', '/api/power-dialer/leads', { body: { campaignId, contactId: 'x', contact: { phone: '+15125550179' } } });
    expect(both.status).toBe(400);
    expect(both.body.error).toContain('body.contactId');
    expect((await h.api('POST', '/api/power-dialer/leads', { body: { campaignId } })).status).toBe(400);
    const unknown = await h.api('POST', '/api/power-dialer/leads', { body: { campaignId: 'cmp_nope', contactId: 'x' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, error: 'campaign cmp_nope not found' });
    expect((await h.api('POST', '/api/power-dialer/leads', { body: { campaignId, contactId: 'ct_nope' } })).status).toBe(404);
    const foreign = await h.api('POST', '/api/power-dialer/leads', { key: h.otherAgencyKey, body: { campaignId, contact: { phone: '+15125550180', tags: [activeTag] } } });
    expect(foreign.status).toBe(404);
    const reader = await h.key({ role: 'project_user', scopes: ['power_dialer:read', 'power_dialer:write'], projectIds: [] });
    expect((await h.api('POST', '/api/power-dialer/leads', { key: reader, body: { campaignId, contactId: 'x' } })).status).toBe(403);
    expect(rowsOf(h.db, ['leads'])).toEqual(leadsBefore);
  });
});

describe("another agency's enrolment attempts", () => {
  it("by API key, or by contact events signed with the wrong agency's secret: refused, and no lead or contact row of either agency changes", async () => {
    const c = await dialerCampaign(h, { steps: LATER });
    const mine = await h.store.crm.createContact(h.agencyId, { locationId: c.locationId, firstName: 'Eve', fullName: 'Eve Ng', phone: '+15125550190', email: 'eve@example.net', tags: [c.activeTag] });
    const enrolled = (await postContactEvent(h, c.event())).body.data.enrolled;
    expect(enrolled).toHaveLength(1);
    await asleep(enrolled[0]);
    const TABLES = ['leads', 'crm_contacts', 'contact_events', 'idempotency_keys'];
    const before = rowsOf(h.db, TABLES);
    expect(before.leads!.length).toBeGreaterThan(0);

    const byFields = await h.api('POST', '/api/power-dialer/leads', {
      key: h.otherAgencyKey,
      body: { campaignId: c.campaignId, contact: { firstName: 'Mallory', phone: '+15125550191', tags: [c.activeTag] } },
      headers: { 'Idempotency-Key': 'foreign-enrol-1' },
    });
    expect(byFields.status).toBe(404);
    expect(byFields.body).toEqual({ success: false, error: `campaign ${c.campaignId} not found` });
    const byId = await h.api('POST', '/api/power-dialer/leads', { key: h.otherAgencyKey, body: { campaignId: c.campaignId, contactId: mine.id } });
    expect(byId.status).toBe(404);
    // A contact event for this agency, signed with the other agency's secret.
    const forged = await postContactEvent(h, contactEvent(c.locationId, { tags: [c.activeTag] }), { secret: (await h.store.agencies.get(`${h.agencyId}_other`))!.signingSecret });
    expect(forged.status).toBe(401);
    // Our contact's deletion, sent in the other agency's name but signed with our secret: refused too.
    const removal = await postContactEvent(h, { type: 'contact.deleted', contact: { id: mine.id, locationId: c.locationId } }, { secret: (await h.store.agencies.get(h.agencyId))!.signingSecret, agencyId: `${h.agencyId}_other` });
    expect(removal.status).toBe(401);

    expect(rowsOf(h.db, TABLES)).toEqual(before);
  });
});

describe('leaving when the campaign or project stops', () => {
  it('campaign PATCH active=false removes its live leads and stops their workflows; finished leads stay', async () => {
    const c = await dialerCampaign(h, { steps: LATER });
    const { locationId, campaignId } = c;
    const a = (await postContactEvent(h, c.event())).body.data.enrolled[0];
    const b = (await postContactEvent(h, c.event())).body.data.enrolled[0];
    await h.store.leads.mirror(h.agencyId, b, { callStatus: 'completed', cadenceStep: 0 });
    const r = await h.api('PATCH', `/api/agent-builder/projects/${locationId}/campaigns/${campaignId}`, { body: { active: false } });
    expect(r.status).toBe(200);
    expect(await h.store.leads.get(h.agencyId, a)).toBeUndefined();
    expect(await h.store.leads.get(h.agencyId, b)).toMatchObject({ callStatus: 'completed' });
    expect(await workflowResult(a)).toMatchObject({ status: 'stopped', reason: 'campaign_stopped' });
  });

  it('project PUT active=false and DELETE remove the leads of all its campaigns', async () => {
    const one = await dialerCampaign(h, { steps: LATER, freshProject: true });
    const leadA = (await postContactEvent(h, one.event())).body.data.enrolled[0];
    expect((await h.api('PUT', `/api/v2/projects/${one.projectId}`, { body: { active: false } })).status).toBe(200);
    expect(await h.store.leads.get(h.agencyId, leadA)).toBeUndefined();
    expect(await workflowResult(leadA)).toMatchObject({ status: 'stopped', reason: 'project_stopped' });

    const two = await dialerCampaign(h, { steps: LATER, freshProject: true });
    const leadB = (await postContactEvent(h, two.event())).body.data.enrolled[0];
    expect((await h.api('DELETE', `/api/v2/projects/${two.projectId}`)).status).toBe(200);
    expect(await h.store.leads.get(h.agencyId, leadB)).toBeUndefined();
    expect(await workflowResult(leadB)).toMatchObject({ status: 'stopped', reason: 'project_stopped' });
  });
});
