import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import type { LeadRecord } from '../../server/store/index.js';
import type { LeadCallStatus } from '../../schemas/cadence.js';

// The two lead lists (spec 4.7, 4.8) read the leads table; these tests write it through the
// repository so every field and every count is known, and read it over HTTP.

let h: Harness;
let A: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
let A2: string; // a second campaign of project A
let B: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
let other: { locationId: string; campaignId: string };
let seq = 0;

const SPEC_FIELDS = [
  '_id', 'queueId', 'cadenceStep', 'callStatus', 'nextCallTime', 'timezone', 'firstName', 'fullName', 'email', 'phone', 'live',
  'callerPreference', 'createdAt', 'tags', 'locationId', 'businessName', 'pipeline', 'campaignId', 'campaignName',
].sort();

function lead(agencyId: string, projectId: string, locationId: string, campaignId: string, over: Partial<LeadRecord> = {}): LeadRecord {
  const i = ++seq;
  // createdAt strictly increasing: the lists are oldest first.
  const createdAt = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  const status: LeadCallStatus = over.callStatus ?? 'scheduled';
  return {
    id: `lead_t${String(i).padStart(5, '0')}`,
    agencyId, projectId, campaignId, locationId,
    contactId: `ct_${i}`,
    queueId: `queue_${campaignId}`,
    cadenceId: 'cad_1',
    cadenceStep: 0,
    callStatus: status,
    nextCallTime: createdAt,
    timezone: 'America/Chicago',
    firstName: `First${i}`,
    fullName: `First${i} Last${i}`,
    email: `lead${i}@example.net`,
    phone: `+1512555${String(i).padStart(4, '0')}`,
    live: !['completed', 'exhausted', 'dropped'].includes(status),
    callerPreference: '',
    tags: ['new-lead'],
    businessName: 'Bright Smile Dental',
    pipeline: '',
    campaignName: 'Campaign',
    createdAt,
    updatedAt: createdAt,
    ...over,
  };
}

const list = (query: string, key?: string) => h.api('GET', `/api/power-dialer/pipeline/leads${query}`, key === undefined ? {} : { key });
const parked = (query: string, key?: string) => h.api('GET', `/api/power-dialer/pipeline/s2l-parked${query}`, key === undefined ? {} : { key });

beforeAll(async () => {
  h = await createHarness();
  A = await createProjectAgentCampaign(h);
  B = await createProjectAgentCampaign(h);
  const second = await h.api('POST', `/api/agent-builder/projects/${A.locationId}/campaigns`, { body: { name: 'Second', agentId: A.agentId } });
  A2 = second.body.data.id;
  const otherKeyProject = await h.api('POST', '/api/v2/projects', { key: h.otherAgencyKey, body: { crm: 'crm_a', locationId: `loc_other_${Date.now()}`, timezone: 'UTC' } });
  const otherAgent = await h.api('POST', '/api/agent-builder/agents', { key: h.otherAgencyKey, body: { name: 'x', agentType: 'outreach', locationId: otherKeyProject.body.data.locationId, capabilityIds: ['appointment_booking'] } });
  other = { locationId: otherKeyProject.body.data.locationId, campaignId: otherAgent.body.data.campaignId };

  const ag = h.agencyId;
  const inA = (over: Partial<LeadRecord> = {}) => lead(ag, A.projectId, A.locationId, A.campaignId, over);
  await h.store.withTransaction(async (tx) => {
    // 60 leads at step 0 of campaign A1; 5 at step 1; finished and parked ones that the step list leaves out.
    for (let i = 0; i < 60; i++) await tx.leads.insert(inA());
    for (let i = 0; i < 5; i++) await tx.leads.insert(inA({ cadenceStep: 1, cadenceId: 'cad_2', callStatus: i === 0 ? 'callback' : 'calling' }));
    for (const callStatus of ['completed', 'exhausted', 'dropped'] as const) await tx.leads.insert(inA({ callStatus }));
    for (let i = 0; i < 3; i++) await tx.leads.insert(inA({ callStatus: 'waiting_for_window' }));
    await tx.leads.insert(inA({ firstName: 'Zoë', fullName: 'ZOE Quinn', email: 'Zoe.Quinn@Example.org', phone: '+15125559999', tags: ['new-lead', 'vip'] }));
    // Campaign A2 and project B.
    for (let i = 0; i < 4; i++) await tx.leads.insert(lead(ag, A.projectId, A.locationId, A2));
    await tx.leads.insert(lead(ag, A.projectId, A.locationId, A2, { callStatus: 'waiting_for_window' }));
    for (let i = 0; i < 7; i++) await tx.leads.insert(lead(ag, B.projectId, B.locationId, B.campaignId));
    await tx.leads.insert(lead(ag, B.projectId, B.locationId, B.campaignId, { callStatus: 'waiting_for_window' }));
    // Another agency: same step, same status, a name that matches the searches below.
    await tx.leads.insert(lead(`${ag}_other`, (await tx.projects.find(`${ag}_other`, other.locationId))!.id, other.locationId, other.campaignId, { fullName: 'ZOE Quinn' }));
  });
});
afterAll(async () => h?.close());

describe('GET /api/power-dialer/pipeline/leads (spec 4.7)', () => {
  it('without cadenceStep: 400 with exactly the short body', async () => {
    const r = await list('');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, error: 'query.cadenceStep is required' });
  });

  it('rejects out-of-range and unknown parameters with a 400 naming them, in the short body', async () => {
    for (const [q, name] of [['?cadenceStep=-1', 'cadenceStep'], ['?cadenceStep=x', 'cadenceStep'], ['?cadenceStep=0&limit=101', 'limit'], ['?cadenceStep=0&limit=0', 'limit'], ['?cadenceStep=0&page=0', 'page'], ['?cadenceStep=0&pageSize=5', 'pageSize']] as const) {
      const r = await list(q);
      expect(r.status, q).toBe(400);
      expect(Object.keys(r.body).sort()).toEqual(['error', 'success']);
      expect(r.body.error).toContain(name);
    }
  });

  it('pages with defaults page 1, limit 25; totalPages = ceil(total / limit); oldest first', async () => {
    const r = await list(`?cadenceStep=0&locationId=${A.locationId}&campaignId=${A.campaignId}`);
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data).toMatchObject({ total: 61, page: 1, totalPages: 3 });
    expect(r.body.data.leads).toHaveLength(25);
    const created = r.body.data.leads.map((l: { createdAt: string }) => l.createdAt);
    expect([...created].sort()).toEqual(created);
    const p3 = await list(`?cadenceStep=0&campaignId=${A.campaignId}&page=3`);
    expect(p3.body.data).toMatchObject({ total: 61, page: 3, totalPages: 3 });
    expect(p3.body.data.leads).toHaveLength(11);
    const p4 = await list(`?cadenceStep=0&campaignId=${A.campaignId}&page=4`);
    expect(p4.body.data).toMatchObject({ total: 61, page: 4, totalPages: 3, leads: [] });
    const big = await list(`?cadenceStep=0&campaignId=${A.campaignId}&limit=100`);
    expect(big.body.data).toMatchObject({ total: 61, totalPages: 1 });
    expect(big.body.data.leads).toHaveLength(61);
    const seven = await list(`?cadenceStep=0&campaignId=${A.campaignId}&limit=7&page=9`);
    expect(seven.body.data).toMatchObject({ total: 61, page: 9, totalPages: 9 });
    expect(seven.body.data.leads).toHaveLength(5);
    // Pages do not overlap and together hold every lead once.
    const ids = new Set<string>();
    for (let page = 1; page <= 3; page++) for (const l of (await list(`?cadenceStep=0&campaignId=${A.campaignId}&page=${page}`)).body.data.leads) ids.add(l._id);
    expect(ids.size).toBe(61);
  });

  it('returns each lead with exactly the fields of spec 2.5', async () => {
    const r = await list(`?cadenceStep=0&search=zoe`);
    expect(r.body.data.leads).toHaveLength(1);
    const l = r.body.data.leads[0];
    expect(Object.keys(l).sort()).toEqual(SPEC_FIELDS);
    expect(l).toMatchObject({
      queueId: `queue_${A.campaignId}`, cadenceStep: 0, callStatus: 'scheduled', timezone: 'America/Chicago', firstName: 'Zoë', fullName: 'ZOE Quinn',
      email: 'Zoe.Quinn@Example.org', phone: '+15125559999', live: true, callerPreference: '', tags: ['new-lead', 'vip'], locationId: A.locationId,
      businessName: 'Bright Smile Dental', pipeline: '', campaignId: A.campaignId, campaignName: 'Campaign',
    });
    expect(l._id).toMatch(/^lead_/);
    expect(Number.isNaN(Date.parse(l.nextCallTime))).toBe(false);
  });

  it('lists only leads being worked at that step: scheduled, calling, callback', async () => {
    const step1 = await list(`?cadenceStep=1`);
    expect(step1.body.data.total).toBe(5);
    expect(new Set(step1.body.data.leads.map((l: { callStatus: string }) => l.callStatus))).toEqual(new Set(['calling', 'callback']));
    const all = await list(`?cadenceStep=0&limit=100&page=1&locationId=${A.locationId}`);
    expect(all.body.data.leads.length).toBeGreaterThan(0);
    for (const l of all.body.data.leads as { callStatus: string }[]) expect(l.callStatus).toBe('scheduled');
    expect((await list('?cadenceStep=7')).body.data).toEqual({ leads: [], total: 0, page: 1, totalPages: 0 });
  });

  it('search is a case-insensitive substring of name, email or phone', async () => {
    for (const term of ['zoe', 'QUINN', 'zoë', 'quinn@example.ORG', '5559999', '+1512555999', '%2B15125559999']) {
      const r = await list(`?cadenceStep=0&search=${encodeURIComponent(decodeURIComponent(term))}`);
      expect(r.body.data.total, term).toBe(1);
      expect(r.body.data.leads[0].fullName).toBe('ZOE Quinn');
    }
    expect((await list('?cadenceStep=0&search=First12%20Last12')).body.data.total).toBe(1);
    expect((await list('?cadenceStep=0&search=nobody-like-this')).body.data).toMatchObject({ total: 0, leads: [] });
    // LIKE wildcards are plain text here.
    expect((await list('?cadenceStep=0&search=%25')).body.data.total).toBe(0);
    expect((await list('?cadenceStep=0&search=_')).body.data.total).toBe(0);
  });

  it('locationId limits to one project; campaignId to one campaign; campaignIds combine; both intersect', async () => {
    expect((await list(`?cadenceStep=0&locationId=${A.locationId}`)).body.data.total).toBe(65);
    expect((await list(`?cadenceStep=0&locationId=${A.projectId}`)).body.data.total).toBe(65);
    expect((await list(`?cadenceStep=0&locationId=${B.locationId}`)).body.data.total).toBe(7);
    expect((await list(`?cadenceStep=0&campaignId=${A2}`)).body.data.total).toBe(4);
    expect((await list(`?cadenceStep=0&campaignIds=${A2},${B.campaignId}`)).body.data.total).toBe(11);
    expect((await list(`?cadenceStep=0&campaignIds=${A2}, ${B.campaignId},,${A2}`)).body.data.total).toBe(11);
    expect((await list(`?cadenceStep=0&campaignIds=${A2},${B.campaignId}&campaignId=${B.campaignId}`)).body.data.total).toBe(7);
    expect((await list(`?cadenceStep=0&campaignIds=${A2}&campaignId=${B.campaignId}`)).body.data.total).toBe(0);
    expect((await list(`?cadenceStep=0&campaignIds=${A2},${B.campaignId}&locationId=${B.locationId}`)).body.data.total).toBe(7);
    const empty = await list(`?cadenceStep=0&campaignIds=,,`);
    expect(empty.status).toBe(400);
    expect(empty.body.error).toContain('campaignIds');
  });

  it('scheduleId scopes to one cadence', async () => {
    expect((await list(`?cadenceStep=1&scheduleId=cad_2`)).body.data.total).toBe(5);
    expect((await list(`?cadenceStep=1&scheduleId=cad_1`)).body.data.total).toBe(0);
    expect((await list(`?cadenceStep=0&scheduleId=cad_1&campaignId=${A2}`)).body.data.total).toBe(4);
  });

  it('a locationId the caller cannot reach, or that does not exist: 403 with exactly the short body', async () => {
    const key = await h.key({ role: 'project_user', scopes: ['power_dialer:read'], projectIds: [B.projectId] });
    for (const loc of [A.locationId, 'loc_nowhere', other.locationId]) {
      const r = await list(`?cadenceStep=0&locationId=${loc}`, key);
      expect(r.status, loc).toBe(403);
      expect(r.body).toEqual({ success: false, error: 'You do not have access to this project' });
    }
    const p = await parked(`?locationId=${A.locationId}`, key);
    expect(p.status).toBe(403);
    expect(p.body).toEqual({ success: false, error: 'You do not have access to this project' });
    // The admin of another agency: the same answer for our location.
    const o = await list(`?cadenceStep=0&locationId=${A.locationId}`, h.otherAgencyKey);
    expect(o.body).toEqual({ success: false, error: 'You do not have access to this project' });
  });

  it('a project_user key sees only its projects; another agency sees none of ours', async () => {
    const key = await h.key({ role: 'project_user', scopes: ['power_dialer:read'], projectIds: [B.projectId] });
    const mine = await list('?cadenceStep=0&limit=100', key);
    expect(mine.body.data.total).toBe(7);
    expect(mine.body.data.leads).toHaveLength(7);
    for (const l of mine.body.data.leads as { locationId: string }[]) expect(l.locationId).toBe(B.locationId);
    expect((await list(`?cadenceStep=0&locationId=${B.locationId}`, key)).body.data.total).toBe(7);
    expect((await list(`?cadenceStep=0&campaignId=${A.campaignId}`, key)).body.data.total).toBe(0);
    const theirs = await list('?cadenceStep=0&search=zoe', h.otherAgencyKey);
    expect(theirs.body.data.total).toBe(1);
    expect(theirs.body.data.leads[0].locationId).toBe(other.locationId);
    expect((await list(`?cadenceStep=0&campaignId=${A.campaignId}`, h.otherAgencyKey)).body.data.total).toBe(0);
  });

  it('401 and 403 in the short body', async () => {
    const r = await list('?cadenceStep=0', null as unknown as string);
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ success: false, error: 'Unauthorized' });
    const noScope = await list('?cadenceStep=0', await h.key({ scopes: ['projects:read'] }));
    expect(noScope.status).toBe(403);
    expect(Object.keys(noScope.body).sort()).toEqual(['error', 'success']);
    expect(noScope.body.error).toContain('power_dialer:read');
  });
});

describe('GET /api/power-dialer/pipeline/s2l-parked (spec 4.8)', () => {
  it('lists speed-to-lead leads waiting for the window, with the same paging and filters', async () => {
    const r = await parked('');
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ total: 5, page: 1, totalPages: 1 });
    expect(r.body.data.leads).toHaveLength(5);
    for (const l of r.body.data.leads as { callStatus: string }[]) expect(l.callStatus).toBe('waiting_for_window');
    expect(Object.keys(r.body.data.leads[0]).sort()).toEqual(SPEC_FIELDS);
    expect((await parked(`?locationId=${A.locationId}`)).body.data.total).toBe(4);
    expect((await parked(`?campaignId=${A.campaignId}`)).body.data.total).toBe(3);
    expect((await parked(`?campaignIds=${A2},${B.campaignId}`)).body.data.total).toBe(2);
    expect((await parked(`?limit=2&page=3`)).body.data).toMatchObject({ total: 5, page: 3, totalPages: 3 });
    expect((await parked(`?limit=2&page=3`)).body.data.leads).toHaveLength(1);
    const s = await parked(`?search=${encodeURIComponent(r.body.data.leads[0].email.toUpperCase())}`);
    expect(s.body.data.total).toBe(1);
  });

  it('takes neither cadenceStep nor scheduleId', async () => {
    for (const q of ['?cadenceStep=0', '?scheduleId=cad_1']) {
      const r = await parked(q);
      expect(r.status).toBe(400);
      expect(Object.keys(r.body).sort()).toEqual(['error', 'success']);
    }
  });
});
