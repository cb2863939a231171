import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../helpers/state.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { expectConforms } from '../helpers/contract.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const connect = (body: Record<string, unknown>, key?: string) => h.api('POST', '/api/v2/projects', { body, key });

describe('projects (spec 2.1, 3.1, 4.1, 4.2)', () => {
  it('connects a crm_a location with every field of 2.1', async () => {
    const r = await connect({ crm: 'crm_a', locationId: 'loc_p1', timezone: 'America/Chicago', businessName: 'Bright Smile Dental', crm_a: { name: 'Bright Smile Dental', city: 'Austin' } });
    expect(r.status).toBe(200);
    expectConforms(h.services, 'connectProject', 200, r.body);
    expect(r.body.data).toMatchObject({ crm: 'crm_a', locationId: 'loc_p1', active: true, status: 'live', installed: true, campaigns: [], timezone: 'America/Chicago' });
    expect(r.body.data.crm_a).toMatchObject({ id: 'loc_p1', name: 'Bright Smile Dental', city: 'Austin' });
    expect(r.body.data).not.toHaveProperty('crm_b');
    const before = rowsOf(h.db, ['projects']);
    const again = await connect({ crm: 'crm_a', locationId: 'loc_p1', businessName: 'Someone Else' });
    expect(again.status).toBe(409);
    expect(rowsOf(h.db, ['projects'])).toEqual(before);
  });

  it('crm_b projects carry crm_b and require its accountId', async () => {
    const missing = await connect({ crm: 'crm_b', locationId: 'loc_b0', active: false });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('crm_b');
    expect(await h.store.projects.find(h.agencyId, 'loc_b0')).toBeUndefined();
    const r = await connect({ crm: 'crm_b', locationId: 'loc_b1', active: false, crm_b: { accountId: 'acc_1', accountName: 'Clinic', subdomain: 'clinic' } });
    expect(r.status).toBe(200);
    expect(r.body.data.crm_b).toEqual({ accountId: 'acc_1', accountName: 'Clinic', subdomain: 'clinic' });
    expect(r.body.data).not.toHaveProperty('crm_a');
    expect(r.body.data.status).toBe('stopped');
  });

  it('live/stopped by active, the plan slot freed on stop, 409 SubAccountCapReached past the limit', async () => {
    const hh = await createHarness();
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await hh.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: `cap_${i}` } })).body.data.id);
      const fourth = await hh.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: 'cap_3', active: false } });
      expect(fourth.body.data.status).toBe('stopped');
      const refused = await hh.api('PUT', `/api/v2/projects/${fourth.body.data.id}`, { body: { active: true } });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ success: false, error: 'CONFLICT', code: 'SubAccountCapReached' });
      expect(await hh.store.projects.get(hh.agencyId, fourth.body.data.id)).toMatchObject({ active: false, status: 'stopped' });
      // connecting a fifth live one is refused the same way, and stores nothing
      const fifth = await hh.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: 'cap_4' } });
      expect(fifth.status).toBe(409);
      expect(fifth.body).toMatchObject({ code: 'SubAccountCapReached' });
      expect(await hh.store.projects.find(hh.agencyId, 'cap_4')).toBeUndefined();
      const stopped = await hh.api('PUT', `/api/v2/projects/${ids[0]}`, { body: { active: false } });
      expect(stopped.body.data).toMatchObject({ active: false, status: 'stopped' });
      const live = await hh.api('PUT', `/api/v2/projects/${fourth.body.data.id}`, { body: { active: true } });
      expect(live.status).toBe(200);
      expectConforms(hh.services, 'updateProject', 200, live.body);
      expect(live.body.data).toMatchObject({ active: true, status: 'live' });
    } finally {
      await hh.close();
    }
  });

  it('update merges known fields, keeps extra properties, and never lets the body overwrite owned fields', async () => {
    const p = (await connect({ crm: 'crm_a', locationId: 'loc_upd', active: false })).body.data;
    const hijack = await h.api('PUT', `/api/v2/projects/${p.id}`, { body: { businessName: 'New Name', status: 'live', id: 'hijack' } });
    expect(hijack.status).toBe(400);
    expect(hijack.body.message).toMatch(/body\.(status|id)/);
    const r = await h.api('PUT', `/api/v2/projects/${p.id}`, {
      body: { businessName: 'New Name', knowledgeBase: 'kb', callingWindowOverride: [{ days: [1, 2], start: '9:00', end: '17:00', tz: 'America/Chicago' }], customFlag: 'x', status: 'stopped', id: p.id },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: p.id, businessName: 'New Name', knowledgeBase: 'kb', customFlag: 'x', status: 'stopped' });
    expect(r.body.data.callingWindowOverride).toHaveLength(1);
    const stored = await h.store.projects.get(h.agencyId, p.id);
    expect(stored).toMatchObject({ businessName: 'New Name', knowledgeBase: 'kb' });
    const bad = await h.api('PUT', `/api/v2/projects/${p.id}`, { body: { businessName: 'Not Saved', callingWindowOverride: { days: [0], start: '9:00', end: '17:00', tz: 'UTC' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('VALIDATION');
    expect(await h.store.projects.get(h.agencyId, p.id)).toEqual(stored);
  });

  it('delete hides and disconnects; a project 404 carries only message', async () => {
    const { projectId, campaignId } = await createProjectAgentCampaign(h);
    const r = await h.api('DELETE', `/api/v2/projects/${projectId}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true, message: expect.any(String) });
    expect((await h.api('GET', '/api/v2/projects')).body.data.map((p: { id: string }) => p.id)).not.toContain(projectId);
    const gone = await h.api('GET', `/api/v2/projects/${projectId}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ success: false, message: expect.any(String) });
    expect((await h.store.campaigns.get(h.agencyId, campaignId))!.active).toBe(false);
    const again = await h.api('DELETE', `/api/v2/projects/${projectId}`);
    expect(again.status).toBe(404);
  });

  it('a disconnected project blocks what needs the CRM with a clear error', async () => {
    const { projectId, agentId } = await createProjectAgentCampaign(h);
    const p = (await h.store.projects.get(h.agencyId, projectId))!;
    await h.store.projects.save({ ...p, status: 'disconnected' });
    expect((await h.api('GET', `/api/v2/projects/${projectId}`)).body.data.status).toBe('disconnected');
    const r = await h.api('GET', `/api/agent-builder/agents/${agentId}/crm-custom-values`);
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/disconnected/);
  });

  it('lists campaign systems (4.3) and campaign projects (4.4) in their envelopes', async () => {
    const systems = await h.api('GET', '/api/v2/projects/systems');
    expect(systems.status).toBe(200);
    expectConforms(h.services, 'listCampaignSystems', 200, systems.body);
    expect(systems.body.data.map((s: { id: string }) => s.id)).toHaveLength(7);
    const projects = await h.api('GET', '/api/agent-builder/projects');
    expect(projects.status).toBe(200);
    expectConforms(h.services, 'listCampaignProjects', 200, projects.body);
    expect(Object.keys(projects.body)).toEqual(['success', 'projects']);
    expect(projects.body.projects[0]).toEqual({ projectId: expect.any(String), locationId: expect.any(String), businessName: expect.any(String), agencyName: expect.any(String), campaignCount: expect.any(Number) });
  });
});
