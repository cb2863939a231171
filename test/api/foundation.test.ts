import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('health and API description', () => {
  it('GET /api/health needs no key and reports the store', async () => {
    const r = await h.api('GET', '/api/health', { key: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, data: { store: 'ok', temporal: 'not_configured' } });
  });

  it('GET /api/health with Temporal down is 503 in the error envelope, naming what is down', async () => {
    const temporal = h.services.temporal;
    // The app reads its services per request: a Temporal client whose health check fails.
    (h.services as { temporal: unknown }).temporal = { health: async () => false };
    try {
      const r = await h.api('GET', '/api/health', { key: null });
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ success: false, error: 'ServiceUnavailable', message: expect.stringContaining('temporal down') });
    } finally {
      (h.services as { temporal: unknown }).temporal = temporal;
    }
    expect((await h.api('GET', '/api/health', { key: null })).status).toBe(200);
  });

  it('GET /api/openapi.json is an OpenAPI 3.1 document with bearer auth', async () => {
    const r = await h.api('GET', '/api/openapi.json', { key: null });
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    expect(r.body.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer', description: 'API key' });
    expect(r.body.paths['/api/v2/projects/{id}'].put.operationId).toBe('updateProject');
  });
});

describe('authentication and authorisation (spec 5)', () => {
  it('any /api route without a key is 401 Unauthorized', async () => {
    for (const path of ['/api/v2/projects', '/api/agent-builder/agents', '/api/does-not-exist']) {
      const r = await h.api('GET', path, { key: null });
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ success: false, error: 'Unauthorized' });
      expect(typeof r.body.message).toBe('string');
    }
  });

  it('a bad key is 401, a revoked key is 401', async () => {
    expect((await h.api('GET', '/api/v2/projects', { key: 'vck_nope' })).status).toBe(401);
    const secret = await h.key({});
    const key = (await h.store.apiKeys.list(h.agencyId)).at(-1)!;
    expect((await h.api('GET', '/api/v2/projects', { key: secret })).status).toBe(200);
    await h.store.apiKeys.revoke(h.agencyId, key.id);
    const r = await h.api('GET', '/api/v2/projects', { key: secret });
    expect(r.status).toBe(401);
    expect(r.body.error).toBe('Unauthorized');
  });

  it('a key without the scope is 403 Forbidden naming the scope', async () => {
    const key = await h.key({ scopes: ['projects:read'] });
    const r = await h.api('PUT', '/api/v2/projects/anything', { key, body: {} });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ success: false, error: 'Forbidden' });
    expect(r.body.message).toContain('projects:write');
  });

  it('a project_user key is 403 on agency_admin-only endpoints', async () => {
    const key = await h.key({ role: 'project_user', projectIds: ['x'] });
    const r = await h.api('GET', '/api/v2/projects/systems', { key });
    expect(r.status).toBe(403);
    expect(r.body.message).toContain('agency_admin');
  });

  it("another agency's resource is 404, never its data", async () => {
    const { projectId, agentId } = await createProjectAgentCampaign(h);
    const r = await h.api('GET', `/api/v2/projects/${projectId}`, { key: h.otherAgencyKey });
    expect(r.status).toBe(404);
    // Project endpoints carry only `success` and `message` on 404 (spec 7).
    expect(Object.keys(r.body).sort()).toEqual(['message', 'success']);
    const a = await h.api('GET', `/api/agent-builder/agents/${agentId}`, { key: h.otherAgencyKey });
    expect(a.status).toBe(404);
    expect(a.body).toMatchObject({ success: false, error: 'NotFound' });
    expect(a.text).not.toContain('Front desk');
  });

  it('a project_user reaching another project of its agency is 403', async () => {
    const mine = await createProjectAgentCampaign(h);
    const other = await createProjectAgentCampaign(h);
    const key = await h.key({ role: 'project_user', projectIds: [mine.projectId] });
    expect((await h.api('GET', `/api/v2/projects/${mine.projectId}`, { key })).status).toBe(200);
    const r = await h.api('GET', `/api/v2/projects/${other.projectId}`, { key });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('Forbidden');
  });
});

describe('error envelope (spec 7)', () => {
  it('unknown routes answer 404 in the envelope', async () => {
    const r = await h.api('GET', '/api/nope');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ success: false, error: 'NotFound' });
  });

  it('malformed JSON is a 400 VALIDATION, not a 500, and shows no stack', async () => {
    const r = await h.api('POST', '/api/v2/projects', { rawBody: '{"crm":', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: 'VALIDATION' });
    expect(r.text).not.toMatch(/at .*\.ts:\d+/);
  });

  it('a non-JSON body is 415', async () => {
    const r = await h.api('POST', '/api/v2/projects', { rawBody: 'crm=crm_a', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(r.status).toBe(415);
    expect(r.body.success).toBe(false);
  });

  it('power-dialer paths use the short body', async () => {
    const r = await h.api('GET', '/api/power-dialer/pipeline/leads', { key: null });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ success: false, error: 'Unauthorized' });
  });

  it('409 SubAccountCapReached carries the code', async () => {
    const { agencyId } = h;
    const agency = (await h.store.agencies.get(agencyId))!;
    const live = await h.store.projects.countLive(agencyId);
    for (let i = live; i < agency.planLimit; i++) await createProjectAgentCampaign(h);
    const r = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: 'one_too_many' } });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ success: false, error: 'CONFLICT', code: 'SubAccountCapReached' });
  });
});

describe('validation messages name the field and the rule', () => {
  it('missing required field', async () => {
    const r = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a' } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, error: 'VALIDATION', message: 'body.locationId is required' });
  });

  it('enum', async () => {
    const r = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_z', locationId: 'l' } });
    expect(r.body.message).toBe('body.crm must be one of: "crm_a", "crm_b" (enum)');
  });

  it('extra property on a calling window', async () => {
    const r = await h.api('POST', '/api/v2/projects', {
      body: { crm: 'crm_a', locationId: 'lw', callingWindowOverride: { days: [1], start: '9:00', end: '17:00', tz: 'America/Chicago', extra: 1 } },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^body\.callingWindowOverride/);
  });

  it('agentType lists the valid types', async () => {
    const r = await h.api('GET', '/api/agent-builder/agents?agentType=robot');
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('outreach, inbound, appointment');
  });
});

describe('Idempotency-Key (spec 4.12)', () => {
  it('the same key and request replays the stored response; a different request is 409', async () => {
    const headers = { 'Idempotency-Key': `idem-${Date.now()}` };
    const body = { crm: 'crm_b', locationId: `idem_${Date.now()}`, active: false, crm_b: { accountId: 'acc1' } };
    const first = await h.api('POST', '/api/v2/projects', { body, headers });
    expect(first.status).toBe(200);
    const again = await h.api('POST', '/api/v2/projects', { body, headers });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await h.store.projects.list(h.agencyId)).filter((p) => p.locationId === body.locationId)).toHaveLength(1);
    const other = await h.api('POST', '/api/v2/projects', { body: { ...body, locationId: 'different' }, headers });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ success: false, error: 'CONFLICT' });
  });

  it('a key longer than 255 characters is a 400', async () => {
    const r = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: 'x' }, headers: { 'Idempotency-Key': 'k'.repeat(256) } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('Idempotency-Key');
  });

  it('a failed request releases the key for a corrected retry', async () => {
    const headers = { 'Idempotency-Key': `retry-${Date.now()}` };
    const bad = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_b', locationId: `r_${Date.now()}`, active: false }, headers });
    expect(bad.status).toBe(400);
    const good = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_b', locationId: `r2_${Date.now()}`, active: false, crm_b: { accountId: 'a' } }, headers });
    expect(good.status).toBe(200);
  });
});

describe('rate limit', () => {
  it('answers 429 TooManyRequests with Retry-After past the quota, per key', async () => {
    const limited = await createHarness({ config: { rateLimitPoints: 3, rateLimitWindowSeconds: 60 } });
    try {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 5; i++) {
        last = await limited.api('GET', '/api/v2/projects');
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(last!.body).toMatchObject({ success: false, error: 'TooManyRequests' });
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last!.headers.get('ratelimit-policy')).toBe('"default";q=3;w=60');
      // Another key is not affected.
      expect((await limited.api('GET', '/api/v2/projects', { key: await limited.key({}) })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
