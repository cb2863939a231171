import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { expectConforms } from '../helpers/contract.js';
import { rowsOf } from '../helpers/state.js';

let h: Harness;
let ctx: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
beforeAll(async () => {
  h = await createHarness({ config: { defaultPlanLimit: 20 } });
  ctx = await createProjectAgentCampaign(h);
});
afterAll(async () => h?.close());

const base = () => `/api/agent-builder/projects/${ctx.locationId}/campaigns`;

describe('campaigns (spec 2.3, 7, 9)', () => {
  it('creates with default dialing pd for an outbound agent, reads back in the project', async () => {
    const r = await h.api('POST', base(), { body: { name: 'New patient follow-up', agentId: ctx.agentId, activeTags: ['new-lead'], inactiveTags: ['do-not-call'], config: { transferRoutes: [{ id: 'r1', number: '+15125550100', condition: 'asks for billing' }] } } });
    expect(r.status).toBe(200);
    expectConforms(h.services, 'createCampaign', 200, r.body);
    expect(r.body.data).toMatchObject({ dialing: 'pd', activeTags: ['new-lead'], inactiveTags: ['do-not-call'], active: false, fromNumbers: [] });
    const list = await h.api('GET', base());
    expectConforms(h.services, 'listCampaigns', 200, list.body);
    expect(list.body.data.map((c: { id: string }) => c.id)).toContain(r.body.data.id);
    const project = await h.api('GET', `/api/v2/projects/${ctx.projectId}`);
    expect(project.body.data.campaigns.map((c: { id: string }) => c.id)).toContain(r.body.data.id);
  });

  it.each([
    ['reactivation', /retired/],
    ['confirmation', /retired/],
    [null, /cannot be null/],
    ['robocall', /not valid/],
  ])('refuses dialing %s on create and update', async (dialing, message) => {
    const before = rowsOf(h.db, ['campaigns']);
    const create = await h.api('POST', base(), { body: { name: 'x', agentId: ctx.agentId, dialing } });
    expect(create.status).toBe(400);
    expect(create.body).toMatchObject({ success: false, error: 'VALIDATION' });
    expect(create.body.message).toMatch(message);
    expect(create.body.message).toContain('s2l, s2l_pd, pd');
    const update = await h.api('PATCH', `${base()}/${ctx.campaignId}`, { body: { dialing } });
    expect(update.status).toBe(400);
    // no campaign was made, none was changed
    expect(rowsOf(h.db, ['campaigns'])).toEqual(before);
  });

  it('a stored reactivation campaign still reads back as such, and re-sending it is refused', async () => {
    const c = (await h.store.campaigns.get(h.agencyId, ctx.campaignId))!;
    await h.store.campaigns.save({ ...c, dialing: 'reactivation' });
    const r = await h.api('GET', `${base()}/${ctx.campaignId}`);
    expect(r.body.data.dialing).toBe('reactivation');
    expectConforms(h.services, 'getCampaign', 200, r.body);
    const stored = await h.store.campaigns.get(h.agencyId, ctx.campaignId);
    expect((await h.api('PATCH', `${base()}/${ctx.campaignId}`, { body: { dialing: 'reactivation', name: 'not saved' } })).status).toBe(400);
    expect(await h.store.campaigns.get(h.agencyId, ctx.campaignId)).toEqual(stored);
    const ok = await h.api('PATCH', `${base()}/${ctx.campaignId}`, { body: { name: 'renamed' } });
    expect(ok.body.data).toMatchObject({ name: 'renamed', dialing: 'reactivation' });
    await h.store.campaigns.save({ ...(await h.store.campaigns.get(h.agencyId, ctx.campaignId))!, dialing: 'pd' });
  });

  it('agentType is checked against the seven legacy ids, listed in the 400', async () => {
    const r = await h.api('POST', base(), { body: { name: 'x', agentId: ctx.agentId, agentType: 'outreach' } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('appointment_confirmation, appointment_booking, live_transfer, live_transfer_and_tag, live_transfer_and_booking, add_tag, inbound_receptionist');
    const ok = await h.api('POST', base(), { body: { name: 'x', agentId: ctx.agentId, agentType: 'live_transfer' } });
    expect(ok.body.data.agentType).toBe('live_transfer');
  });

  it('calling windows follow 2.2 exactly: no extra properties, days 1..7, pattern on times', async () => {
    const good = await h.api('PATCH', `${base()}/${ctx.campaignId}`, { body: { callingWindow: { days: [1, 2, 3, 4, 5], start: '9:00', end: '17:30', tz: 'America/Chicago' } } });
    expect(good.status).toBe(200);
    const stored = await h.store.campaigns.get(h.agencyId, ctx.campaignId);
    expect(stored!.callingWindow).toEqual({ days: [1, 2, 3, 4, 5], start: '9:00', end: '17:30', tz: 'America/Chicago' });
    for (const w of [
      { days: [1], start: '9:00', end: '17:30', tz: 'America/Chicago', note: 'x' },
      { days: [], start: '9:00', end: '17:30', tz: 'America/Chicago' },
      { days: [8], start: '9:00', end: '17:30', tz: 'America/Chicago' },
      { days: [1], start: '9am', end: '17:30', tz: 'America/Chicago' },
      { days: [1], start: '9:00', end: '17:30' },
    ]) {
      const r = await h.api('PATCH', `${base()}/${ctx.campaignId}`, { body: { callingWindow: w } });
      expect(r.status, JSON.stringify(w)).toBe(400);
      expect(r.body.message).toMatch(/^body\.callingWindow/);
    }
    expect(await h.store.campaigns.get(h.agencyId, ctx.campaignId)).toEqual(stored);
  });

  it("another agency's campaign is 404; a project_user without the project is 403", async () => {
    expect((await h.api('GET', `${base()}/${ctx.campaignId}`, { key: h.otherAgencyKey })).status).toBe(404);
    const other = await createProjectAgentCampaign(h);
    const key = await h.key({ role: 'project_user', projectIds: [other.projectId] });
    expect((await h.api('GET', `${base()}/${ctx.campaignId}`, { key })).status).toBe(403);
    const before = rowsOf(h.db, ['campaigns']);
    expect((await h.api('POST', base(), { key, body: { name: 'x', agentId: ctx.agentId } })).status).toBe(403);
    expect((await h.api('PATCH', `${base()}/${ctx.campaignId}`, { key, body: { name: 'hijacked' } })).status).toBe(403);
    expect((await h.api('PATCH', `${base()}/${ctx.campaignId}`, { key: h.otherAgencyKey, body: { name: 'hijacked' } })).status).toBe(404);
    expect(rowsOf(h.db, ['campaigns'])).toEqual(before);
  });
});

describe('agents (spec 2.11, 4.13)', () => {
  it('create with agentType and capabilityIds; capabilities and gated outcomes on the response', async () => {
    const r = await h.api('POST', '/api/agent-builder/agents', { body: { name: 'Closer', agentType: 'outreach', locationId: ctx.locationId, capabilityIds: ['live_transfer', 'appointment_booking'] } });
    expect(r.status).toBe(200);
    expectConforms(h.services, 'createAgent', 200, r.body);
    expect(r.body.data.capabilities).toEqual(['live_transfer', 'appointment_booking']);
    expect(r.body.data.outcomes).toEqual(['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION', 'TRANSFER', 'RESCHEDULE']);
    // Exactly a template's capabilities: the campaign's legacy agentType is that template (its clone source).
    const campaign = (await h.store.campaigns.get(h.agencyId, r.body.data.campaignId))!;
    expect(campaign.agentType).toBe('live_transfer_and_booking');
    // Any other set of several capabilities reflects only the first (spec 2.11).
    const mixed = await h.api('POST', '/api/agent-builder/agents', { body: { name: 'Mixed', agentType: 'outreach', locationId: ctx.locationId, capabilityIds: ['add_tag', 'appointment_booking'] } });
    expect((await h.store.campaigns.get(h.agencyId, mixed.body.data.campaignId))!.agentType).toBe('add_tag');
    const plain = await h.api('POST', '/api/agent-builder/agents', { body: { name: 'Tagger', agentType: 'outreach', locationId: ctx.locationId, capabilityIds: ['add_tag'] } });
    expect(plain.body.data.outcomes).toEqual(['VOICEMAIL', 'CALLBACK', 'NO_ACTION']);
    const inbound = await h.api('POST', '/api/agent-builder/agents', { body: { name: 'Desk', agentType: 'inbound', locationId: ctx.locationId } });
    expect((await h.store.campaigns.get(h.agencyId, inbound.body.data.campaignId))!.dialing).toBeNull();
  });

  it('a legacy combined id is not an agent type; the 400 lists the valid ones', async () => {
    for (const agentType of ['appointment_booking', 'live_transfer_and_booking', 'robot']) {
      const r = await h.api('POST', '/api/agent-builder/agents', { body: { name: 'x', agentType, locationId: ctx.locationId } });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain('valid types: outreach, inbound, appointment');
    }
  });

  it('list filters by agentType; get; PATCH keeps platform-managed post-call fields', async () => {
    const desk = await h.api('POST', '/api/agent-builder/agents', { body: { name: 'Filter desk', agentType: 'inbound', locationId: ctx.locationId } });
    expect(desk.status).toBe(200);
    const list = await h.api('GET', '/api/agent-builder/agents?agentType=inbound');
    expect(list.status).toBe(200);
    expectConforms(h.services, 'listAgents', 200, list.body);
    const listed = list.body.data as { id: string; agentType: string }[];
    // the inbound agent just made is listed, the outreach one of the fixture is not, and nothing else slips in
    expect(listed.map((a) => a.id)).toContain(desk.body.data.id);
    expect(listed.map((a) => a.id)).not.toContain(ctx.agentId);
    for (const a of listed) expect(a.agentType).toBe('inbound');
    const patched = await h.api('PATCH', `/api/agent-builder/agents/${ctx.agentId}`, { body: { postCallFields: [{ name: 'insurance', type: 'text' }] } });
    expect(patched.status).toBe(200);
    expectConforms(h.services, 'updateAgent', 200, patched.body);
    const names = patched.body.data.postCallFields.map((f: { name: string }) => f.name);
    expect(names).toEqual(['call_outcome', 'call_summary', 'callback_time', 'insurance']);
    const replaced = await h.api('PATCH', `/api/agent-builder/agents/${ctx.agentId}`, { body: { postCallFields: [{ name: 'budget', type: 'number' }] } });
    expect(replaced.body.data.postCallFields.map((f: { name: string }) => f.name)).toEqual(['call_outcome', 'call_summary', 'callback_time', 'budget']);
    const got = await h.api('GET', `/api/agent-builder/agents/${ctx.agentId}`);
    expectConforms(h.services, 'getAgent', 200, got.body);
  });

  it('agent types and the skills library (Appointment Booking is a skill type)', async () => {
    const types = await h.api('GET', '/api/agent-builder/agent-types');
    expect(types.body.data.map((t: { name: string }) => t.name)).toEqual(['Outreach', 'Inbound', 'Reminder']);
    expect(types.body.data[0].templates.length).toBeGreaterThan(0);
    const skills = await h.api('GET', `/api/agent-builder/agents/${ctx.agentId}/skills/library`);
    expect(skills.status).toBe(200);
    expect(skills.body.data).toContainEqual(expect.objectContaining({ name: 'Appointment Booking', installed: true }));
  });
});

describe('phone numbers (spec 2.4, 4.5, 4.6)', () => {
  it('buys in an area code with a pretty form; a retried purchase with the same key buys once', async () => {
    const headers = { 'Idempotency-Key': 'buy-512-once' };
    const body = { campaignId: ctx.campaignId, areaCode: 512 };
    const first = await h.api('POST', '/api/agent-builder/phone-numbers', { body, headers });
    expect(first.status).toBe(200);
    expectConforms(h.services, 'buyPhoneNumber', 200, first.body);
    expect(first.body.phoneNumber.phoneNumber).toMatch(/^\+1512/);
    expect(first.body.phoneNumber.pretty).toMatch(/^\(512\) \d{3}-\d{4}$/);
    const retry = await h.api('POST', '/api/agent-builder/phone-numbers', { body, headers });
    expect(retry.body).toEqual(first.body);
    expect(await h.store.phoneNumbers.list(h.agencyId)).toHaveLength(1);
    const other = await h.api('POST', '/api/agent-builder/phone-numbers', { body: { ...body, areaCode: 737 }, headers });
    expect(other.status).toBe(409);
    expect(other.body.error).toBe('CONFLICT');
    expect((await h.store.campaigns.get(h.agencyId, ctx.campaignId))!.fromNumbers).toEqual([first.body.phoneNumber.phoneNumber]);
  });

  it('honours countryCode, tollFree and a specific number; 409 when none fits; 400/404 on bad input', async () => {
    const ca = await h.api('POST', '/api/agent-builder/phone-numbers', { body: { campaignId: ctx.campaignId, countryCode: 'CA' } });
    expect(ca.body.phoneNumber.phoneNumber).toMatch(/^\+1(416|514|604)/);
    const tf = await h.api('POST', '/api/agent-builder/phone-numbers', { body: { campaignId: ctx.campaignId, tollFree: true } });
    expect(tf.body.phoneNumber.phoneNumber).toMatch(/^\+1(800|833|844|888)/);
    const specific = await h.api('POST', '/api/agent-builder/phone-numbers', { body: { campaignId: ctx.campaignId, phoneNumber: '+12125551000' } });
    expect(specific.body.phoneNumber.phoneNumber).toBe('+12125551000');
    // A paid action: none of the refusals below may buy, hold or assign a number.
    const NUMBER_TABLES = ['phone_numbers', 'number_inventory', 'campaigns', 'idempotency_keys'];
    const before = rowsOf(h.db, NUMBER_TABLES);
    const taken = await h.api('POST', '/api/agent-builder/phone-numbers', { body: { campaignId: ctx.campaignId, phoneNumber: '+12125551000' } });
    expect(taken.status).toBe(409);
    const none = await h.api('POST', '/api/agent-builder/phone-numbers', { body: { campaignId: ctx.campaignId, areaCode: 999 } });
    expect(none.status).toBe(409);
    expect((await h.api('POST', '/api/agent-builder/phone-numbers', { body: { areaCode: 512 } })).body.message).toBe('body.campaignId is required');
    expect((await h.api('POST', '/api/agent-builder/phone-numbers', { body: { campaignId: ctx.campaignId, areaCode: 199 } })).status).toBe(400);
    expect((await h.api('POST', '/api/agent-builder/phone-numbers', { body: { campaignId: ctx.campaignId, countryCode: 'MX' } })).status).toBe(400);
    const missing = await h.api('POST', '/api/agent-builder/phone-numbers', { body: { campaignId: 'cmp_nope' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('NotFound');
    const foreign = await h.api('POST', '/api/agent-builder/phone-numbers', { key: h.otherAgencyKey, body: { campaignId: ctx.campaignId, areaCode: 512 }, headers: { 'Idempotency-Key': 'foreign-buy' } });
    expect(foreign.status).toBe(404);
    expect(rowsOf(h.db, NUMBER_TABLES)).toEqual(before);
  });

  it('assigns to another campaign without removing it from the first; removing the only number of an active campaign is 409', async () => {
    const other = await createProjectAgentCampaign(h);
    const number = (await h.store.campaigns.get(h.agencyId, ctx.campaignId))!.fromNumbers[0]!;
    const r = await h.api('POST', `/api/agent-builder/phone-numbers/${encodeURIComponent(number)}/assign`, { body: { campaignId: other.campaignId } });
    expect(r.status).toBe(200);
    expectConforms(h.services, 'assignPhoneNumber', 200, r.body);
    expect((await h.store.campaigns.get(h.agencyId, other.campaignId))!.fromNumbers).toEqual([number]);
    expect((await h.store.campaigns.get(h.agencyId, ctx.campaignId))!.fromNumbers).toContain(number);
    await h.api('PATCH', `/api/agent-builder/projects/${other.locationId}/campaigns/${other.campaignId}`, { body: { active: true } });
    const refused = await h.api('DELETE', `/api/agent-builder/phone-numbers/${encodeURIComponent(number)}/campaigns/${other.campaignId}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, error: 'CONFLICT' });
    const viaPatch = await h.api('PATCH', `/api/agent-builder/projects/${other.locationId}/campaigns/${other.campaignId}`, { body: { fromNumbers: [] } });
    expect(viaPatch.status).toBe(409);
    // neither refusal removed the number
    expect((await h.store.campaigns.get(h.agencyId, other.campaignId))!.fromNumbers).toEqual([number]);
    // once the campaign is stopped the number can go; the answer carries the record under data (spec 1)
    expect((await h.api('PATCH', `/api/agent-builder/projects/${other.locationId}/campaigns/${other.campaignId}`, { body: { active: false } })).status).toBe(200);
    const removed = await h.api('DELETE', `/api/agent-builder/phone-numbers/${encodeURIComponent(number)}/campaigns/${other.campaignId}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.data.phoneNumber).toBe(number);
    expect((await h.store.campaigns.get(h.agencyId, other.campaignId))!.fromNumbers).toEqual([]);
    expect((await h.store.campaigns.get(h.agencyId, ctx.campaignId))!.fromNumbers).toContain(number);
    const before = rowsOf(h.db, ['phone_numbers', 'campaigns']);
    expect((await h.api('POST', `/api/agent-builder/phone-numbers/${encodeURIComponent('+15550000000')}/assign`, { body: { campaignId: other.campaignId } })).status).toBe(404);
    expect((await h.api('POST', '/api/agent-builder/phone-numbers/12345/assign', { body: { campaignId: other.campaignId } })).status).toBe(400);
    expect((await h.api('POST', `/api/agent-builder/phone-numbers/${encodeURIComponent(number)}/assign`, { key: h.otherAgencyKey, body: { campaignId: other.campaignId } })).status).toBe(404);
    expect(rowsOf(h.db, ['phone_numbers', 'campaigns'])).toEqual(before);
  });
});

describe('CRM reads (spec 4.10, 4.11)', () => {
  it('custom values and fields of the agent project, at the top level', async () => {
    await h.store.crm.addCustomValue(h.agencyId, ctx.locationId, 'Business name', 'business_name', 'Bright Smile Dental');
    await h.store.crm.addCustomField(h.agencyId, ctx.locationId, 'Callback time', 'callback_time');
    const v = await h.api('GET', `/api/agent-builder/agents/${ctx.agentId}/crm-custom-values`);
    expect(v.status).toBe(200);
    expectConforms(h.services, 'listCrmCustomValues', 200, v.body);
    expect(v.body.values).toEqual([{ id: expect.any(String), name: 'Business name', fieldKey: '{{custom_values.business_name}}', placeholder: 'custom_values.business_name', value: 'Bright Smile Dental' }]);
    const f = await h.api('GET', `/api/agent-builder/agents/${ctx.agentId}/crm-custom-fields`);
    expectConforms(h.services, 'listCrmCustomFields', 200, f.body);
    expect(f.body.fields).toEqual([{ id: expect.any(String), name: 'Callback time', fieldKey: 'contact.callback_time', placeholder: '{{contact.callback_time}}', dataType: 'TEXT' }]);
    const pu = await h.key({ role: 'project_user', projectIds: [ctx.projectId] });
    expect((await h.api('GET', `/api/agent-builder/agents/${ctx.agentId}/crm-custom-values`, { key: pu })).status).toBe(403);
    expect((await h.api('GET', `/api/agent-builder/agents/${ctx.agentId}/crm-custom-values`, { key: h.otherAgencyKey })).status).toBe(404);
  });
});

describe('role and scope table of section 4', () => {
  const adminOnly: [string, string, string][] = [
    ['PUT', '/api/v2/projects/x', 'projects:write'],
    ['DELETE', '/api/v2/projects/x', 'projects:delete'],
    ['GET', '/api/v2/projects/systems', 'projects:read'],
    ['GET', '/api/agent-builder/projects', 'projects:read'],
    ['POST', '/api/agent-builder/phone-numbers', 'phone_numbers:write'],
    ['POST', '/api/agent-builder/phone-numbers/%2B15125550100/assign', 'phone_numbers:write'],
    ['GET', '/api/agent-builder/agents/x/crm-custom-values', 'crm:read'],
    ['GET', '/api/agent-builder/agents/x/crm-custom-fields', 'crm:read'],
  ];
  it.each(adminOnly)('%s %s: project_user 403, admin without %s 403', async (method, path, scope) => {
    const pu = await h.key({ role: 'project_user', projectIds: [ctx.projectId] });
    const body = method === 'GET' || method === 'DELETE' ? undefined : {};
    const r = await h.api(method, path, { key: pu, body });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('Forbidden');
    const noScope = await h.key({ scopes: ['calls:read'] });
    const s = await h.api(method, path, { key: noScope, body });
    expect(s.status).toBe(403);
    expect(s.body.message).toContain(scope);
  });
});
