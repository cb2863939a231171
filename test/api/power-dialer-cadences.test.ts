import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../helpers/state.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const journeyCadence = {
  name: 'New patient follow-up',
  steps: [
    { delayMinutes: 0, label: 'call now' },
    { delayMinutes: 240, label: 'again after 4 hours' },
    { delayMinutes: 0, at: '10:00', dayOffset: 1, label: 'next day at 10:00', callingWindow: { days: [1, 2, 3, 4, 5], start: '9:00', end: '17:30', tz: 'America/Chicago' } },
  ],
};

describe('cadences CRUD', () => {
  it('creates, lists, reads and patches a cadence of the agency', async () => {
    const created = await h.api('POST', '/api/power-dialer/cadences', { body: journeyCadence });
    expect(created.status).toBe(200);
    const c = created.body.data;
    expect(c).toMatchObject({ name: journeyCadence.name, steps: journeyCadence.steps });
    expect(c.id).toMatch(/^cad_/);
    expect(Object.keys(c).sort()).toEqual(['createdAt', 'id', 'name', 'steps', 'updatedAt']);

    const listed = await h.api('GET', '/api/power-dialer/cadences');
    expect(listed.body.data.map((x: { id: string }) => x.id)).toContain(c.id);
    expect((await h.api('GET', `/api/power-dialer/cadences/${c.id}`)).body.data).toEqual(c);

    const renamed = await h.api('PATCH', `/api/power-dialer/cadences/${c.id}`, { body: { name: 'Renamed' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ id: c.id, name: 'Renamed', steps: journeyCadence.steps });
    const restepped = await h.api('PATCH', `/api/power-dialer/cadences/${c.id}`, { body: { steps: [{ delayMinutes: 5 }] } });
    expect(restepped.body.data).toMatchObject({ name: 'Renamed', steps: [{ delayMinutes: 5 }] });
    expect((await h.api('GET', `/api/power-dialer/cadences/${c.id}`)).body.data.steps).toEqual([{ delayMinutes: 5 }]);
  });

  it('an Idempotency-Key replays the create', async () => {
    const headers = { 'Idempotency-Key': `cad-${Date.now()}` };
    const a = await h.api('POST', '/api/power-dialer/cadences', { body: { name: 'Once', steps: [{ delayMinutes: 0 }] }, headers });
    const b = await h.api('POST', '/api/power-dialer/cadences', { body: { name: 'Once', steps: [{ delayMinutes: 0 }] }, headers });
    expect(b.status).toBe(200);
    expect(b.body.data.id).toBe(a.body.data.id);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
  });

  it('each step is validated: 400 naming the field, in the short power-dialer body', async () => {
    const cases: [object[], string][] = [
      [[{ delayMinutes: 0 }, { delayMinutes: 0, at: '25:00' }], 'body.steps[1].at'],
      [[{ delayMinutes: 0, at: '9:75' }], 'body.steps[0].at'],
      [[{ delayMinutes: -1 }], 'body.steps[0].delayMinutes'],
      [[{ delayMinutes: 0, dayOffset: 1 }], 'body.steps[0].at'],
      [[{ delayMinutes: 0, callingWindow: { days: [1], start: '9:00', end: '17:00', tz: 'Mars/Olympus' } }], 'body.steps[0].callingWindow.tz'],
      [[{ delayMinutes: 0, callingWindow: [{ days: [1], start: '9:00', end: '17:00', tz: 'UTC' }, { days: [8], start: '9:00', end: '17:00', tz: 'UTC' }] }], 'body.steps[0].callingWindow'],
      [[{ delayMinutes: 0, callingWindow: { days: [1], start: '9:00', end: '24:30', tz: 'UTC' } }], 'body.steps[0].callingWindow.end'],
      [[], 'body.steps'],
    ];
    for (const [steps, field] of cases) {
      const r = await h.api('POST', '/api/power-dialer/cadences', { body: { name: 'bad', steps } });
      expect(r.status, JSON.stringify(steps)).toBe(400);
      expect(Object.keys(r.body).sort()).toEqual(['error', 'success']);
      expect(r.body.error, JSON.stringify(steps)).toContain(field);
    }
    const created = await h.api('POST', '/api/power-dialer/cadences', { body: { name: 'ok', steps: [{ delayMinutes: 0 }] } });
    const before = rowsOf(h.db, ['cadences']);
    expect(before.cadences!.length).toBeGreaterThan(0);
    const patch = await h.api('PATCH', `/api/power-dialer/cadences/${created.body.data.id}`, { body: { steps: [{ delayMinutes: 0, at: '24:00' }] } });
    expect(patch.status).toBe(400);
    expect(patch.body.error).toContain('body.steps[0].at');
    expect((await h.api('PATCH', `/api/power-dialer/cadences/${created.body.data.id}`, { body: {} })).status).toBe(400);
    // none of the refused creates was stored; the refused patches left the cadence as it was
    expect(rowsOf(h.db, ['cadences'])).toEqual(before);
  });

  it('roles and scopes: project_user reads, only agency_admin writes; another agency gets 404', async () => {
    const created = await h.api('POST', '/api/power-dialer/cadences', { body: { name: 'Mine', steps: [{ delayMinutes: 0 }] } });
    const id = created.body.data.id;
    const reader = await h.key({ role: 'project_user', scopes: ['power_dialer:read', 'power_dialer:write'], projectIds: [] });
    expect((await h.api('GET', `/api/power-dialer/cadences/${id}`, { key: reader })).status).toBe(200);
    expect((await h.api('GET', '/api/power-dialer/cadences', { key: reader })).status).toBe(200);
    const w = await h.api('POST', '/api/power-dialer/cadences', { key: reader, body: { name: 'x', steps: [{ delayMinutes: 0 }] } });
    expect(w.status).toBe(403);
    expect(w.body.success).toBe(false);
    expect(w.body.error).toContain('agency_admin');
    const noWrite = await h.key({ scopes: ['power_dialer:read'] });
    const before = rowsOf(h.db, ['cadences']);
    expect((await h.api('PATCH', `/api/power-dialer/cadences/${id}`, { key: noWrite, body: { name: 'y' } })).status).toBe(403);
    expect((await h.api('PATCH', `/api/power-dialer/cadences/${id}`, { key: reader, body: { name: 'y' } })).status).toBe(403);
    expect((await h.api('PATCH', `/api/power-dialer/cadences/${id}`, { key: h.otherAgencyKey, body: { name: 'y' } })).status).toBe(404);
    expect(rowsOf(h.db, ['cadences'])).toEqual(before);
    const foreign = await h.api('GET', `/api/power-dialer/cadences/${id}`, { key: h.otherAgencyKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ success: false, error: `cadence ${id} not found` });
    expect((await h.api('GET', '/api/power-dialer/cadences', { key: h.otherAgencyKey })).body.data).toEqual([]);
    const anon = await h.api('GET', '/api/power-dialer/cadences', { key: null });
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ success: false, error: 'Unauthorized' });
  });
});

describe('campaigns and projects refer to cadences and windows that work', () => {
  it('config.cadenceId must name a cadence of the agency', async () => {
    const { locationId, campaignId, agentId } = await createProjectAgentCampaign(h);
    const path = `/api/agent-builder/projects/${locationId}/campaigns/${campaignId}`;
    const bad = await h.api('PATCH', path, { body: { config: { cadenceId: 'cad_nope' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('body.config.cadenceId');
    const foreign = await h.api('POST', '/api/power-dialer/cadences', { key: h.otherAgencyKey, body: { name: 'theirs', steps: [{ delayMinutes: 0 }] } });
    const stored = await h.store.campaigns.get(h.agencyId, campaignId);
    expect((await h.api('PATCH', path, { body: { config: { cadenceId: foreign.body.data.id } } })).status).toBe(400);
    expect((await h.api('PATCH', path, { body: { name: 'not saved', config: { cadenceId: 'cad_nope' } } })).status).toBe(400);
    expect(await h.store.campaigns.get(h.agencyId, campaignId)).toEqual(stored);
    const mine = await h.api('POST', '/api/power-dialer/cadences', { body: journeyCadence });
    const good = await h.api('PATCH', path, { body: { config: { cadenceId: mine.body.data.id } } });
    expect(good.status).toBe(200);
    expect(good.body.data.config.cadenceId).toBe(mine.body.data.id);
    const create = await h.api('POST', `/api/agent-builder/projects/${locationId}/campaigns`, { body: { name: 'c2', agentId, config: { cadenceId: 'cad_nope' } } });
    expect(create.status).toBe(400);
    expect(create.body.message).toContain('body.config.cadenceId');
  });

  it('calling windows are validated on campaign and project writes, naming the field', async () => {
    const { locationId, campaignId, projectId } = await createProjectAgentCampaign(h);
    const badTz = { days: [1, 2], start: '9:00', end: '17:00', tz: 'Mars/Olympus' };
    const c = await h.api('PATCH', `/api/agent-builder/projects/${locationId}/campaigns/${campaignId}`, { body: { callingWindow: [{ ...badTz, tz: 'UTC' }, badTz] } });
    expect(c.status).toBe(400);
    expect(c.body.message).toContain('body.callingWindow[1].tz');
    const hour = await h.api('PATCH', `/api/agent-builder/projects/${locationId}/campaigns/${campaignId}`, { body: { callingWindow: { ...badTz, tz: 'UTC', start: '25:00' } } });
    expect(hour.status).toBe(400);
    expect(hour.body.message).toContain('body.callingWindow.start');
    const p = await h.api('PUT', `/api/v2/projects/${projectId}`, { body: { callingWindowOverride: badTz } });
    expect(p.status).toBe(400);
    expect(p.body.message).toContain('body.callingWindowOverride.tz');
    const np = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: `loc_w_${Date.now()}`, active: false, callingWindowOverride: badTz } });
    expect(np.status).toBe(400);
    expect(np.body.message).toContain('body.callingWindowOverride.tz');
    const ok = await h.api('PUT', `/api/v2/projects/${projectId}`, { body: { callingWindowOverride: { ...badTz, tz: 'America/Chicago' } } });
    expect(ok.status).toBe(200);
  });
});
