import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { expectConforms } from '../helpers/contract.js';
import { SCOPES } from '../../server/store/index.js';
import { apiKeysRepo } from '../../server/store/sqlite/api-keys.js';

let h: Harness;
let ctx: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
beforeAll(async () => {
  h = await createHarness({ config: { rateLimitPoints: 1_000_000 } });
  ctx = await createProjectAgentCampaign(h);
});
afterAll(async () => h?.close());
afterEach(() => {
  vi.useRealTimers();
});

const create = (body: Record<string, unknown>, key?: string) => h.api('POST', '/api/keys', { body, key });

describe('API keys over HTTP', () => {
  it('create shows the secret once; the key works with what it was given; list never shows a secret', async () => {
    const r = await create({ name: 'reporting', role: 'project_user', scopes: ['calls:read', 'projects:read'], projectIds: [ctx.locationId] });
    expect(r.status, r.text).toBe(201);
    expectConforms(h.services, 'createApiKey', 201, r.body);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const { key, secret } = r.body.data;
    expect(secret).toMatch(/^vck_[\w-]{43}$/);
    expect(key).toMatchObject({ name: 'reporting', role: 'project_user', scopes: ['calls:read', 'projects:read'], projectIds: [ctx.projectId], status: 'active', expiresAt: null, revokedAt: null });
    expect(key.createdBy).toBe((await h.store.apiKeys.authenticate(h.adminKey))!.id);
    // It works, within its project only, and only for its scopes.
    expect((await h.api('GET', `/api/v2/projects/${ctx.projectId}`, { key: secret })).status).toBe(200);
    const other = await createProjectAgentCampaign(h);
    expect((await h.api('GET', `/api/v2/projects/${other.projectId}`, { key: secret })).status).toBe(403);
    expect((await h.api('GET', `/api/agent-builder/agents/${ctx.agentId}`, { key: secret })).status).toBe(403);
    // The list: every key of the agency, none of them with a secret or a hash.
    const list = await h.api('GET', '/api/keys');
    expect(list.status).toBe(200);
    expectConforms(h.services, 'listApiKeys', 200, list.body);
    expect(list.body.data.map((k: { id: string }) => k.id)).toContain(key.id);
    expect(list.text).not.toContain(secret);
    expect(list.text).not.toContain(secret.slice(12));
    expect(list.text).not.toMatch(/"hash"|"secret"/);
    const stored = h.db.prepare('SELECT hash FROM api_keys WHERE id = ?').get(key.id) as { hash: string };
    expect(list.text).not.toContain(stored.hash);
    // Another agency sees none of ours.
    const theirs = await h.api('GET', '/api/keys', { key: h.otherAgencyKey });
    expect(theirs.body.data.map((k: { id: string }) => k.id)).not.toContain(key.id);
  });

  it('a key never grants a scope or a project its creator lacks', async () => {
    const limited = await h.key({ scopes: ['keys:write', 'calls:read'] });
    const more = await create({ name: 'x', role: 'agency_admin', scopes: ['calls:read', 'projects:write'] }, limited);
    expect(more.status).toBe(403);
    expect(more.body.message).toContain('projects:write');
    const within = await create({ name: 'x', role: 'agency_admin', scopes: ['calls:read'] }, limited);
    expect(within.status).toBe(201);
    // A project of another agency, or a deleted one, is not the creator's to give.
    const foreign = (await h.api('POST', '/api/v2/projects', { key: h.otherAgencyKey, body: { crm: 'crm_a', locationId: `foreign_${Date.now()}` } })).body.data;
    const theirs = await create({ name: 'x', role: 'project_user', scopes: ['calls:read'], projectIds: [foreign.id] });
    expect(theirs.status).toBe(404);
    const gone = await createProjectAgentCampaign(h);
    await h.api('DELETE', `/api/v2/projects/${gone.projectId}`);
    expect((await create({ name: 'x', role: 'project_user', scopes: ['calls:read'], projectIds: [gone.projectId] })).status).toBe(404);
    // Shapes that make no sense are 400s.
    expect((await create({ name: 'x', role: 'project_user', scopes: ['calls:read'] })).status).toBe(400);
    expect((await create({ name: 'x', role: 'agency_admin', scopes: ['calls:read'], projectIds: [ctx.projectId] })).status).toBe(400);
    expect((await create({ name: 'x', role: 'agency_admin', scopes: ['root'] })).status).toBe(400);
    expect((await create({ name: 'x', role: 'agency_admin', scopes: [] })).status).toBe(400);
    // Without keys:write, or as a project_user: 403.
    expect((await create({ name: 'x', role: 'agency_admin', scopes: ['calls:read'] }, await h.key({ scopes: ['calls:read'] }))).status).toBe(403);
    const user = await h.key({ role: 'project_user', scopes: [...SCOPES], projectIds: [ctx.projectId] });
    expect((await create({ name: 'x', role: 'project_user', scopes: ['calls:read'], projectIds: [ctx.projectId] }, user)).status).toBe(403);
  });

  it('an expiry: refused in the past, honoured once it passes (also for a key already in the lookup cache)', async () => {
    expect((await create({ name: 'x', role: 'agency_admin', scopes: ['projects:read'], expiresAt: '2020-01-01T00:00:00Z' })).status).toBe(400);
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const r = await create({ name: 'temp', role: 'agency_admin', scopes: ['projects:read'], expiresAt });
    expect(r.body.data.key.expiresAt).toBe(expiresAt);
    const secret = r.body.data.secret;
    expect((await h.api('GET', '/api/v2/projects', { key: secret })).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(expiresAt) + 1000 });
    const late = await h.api('GET', '/api/v2/projects', { key: secret });
    expect(late.status).toBe(401);
    expect(late.body.message).toContain('expired');
    const listed = (await h.api('GET', '/api/keys')).body.data.find((k: { id: string }) => k.id === r.body.data.key.id);
    expect(listed.status).toBe('expired');
  });

  it('the lookup is cached: many requests with one key read the key table once', async () => {
    const { secret } = (await create({ name: 'busy', role: 'agency_admin', scopes: ['projects:read'] })).body.data;
    const before = await h.store.apiKeys.lookups();
    await Promise.all(Array.from({ length: 50 }, () => h.api('GET', '/api/v2/projects', { key: secret })));
    expect(await h.store.apiKeys.lookups() - before).toBe(1);
  });

  it('revoke is effective at once under concurrent load, through the API and from another process', async () => {
    for (const via of ['api', 'cli'] as const) {
      const made = (await create({ name: `load-${via}`, role: 'agency_admin', scopes: ['projects:read'] })).body.data;
      const secret: string = made.secret;
      // Eight clients use the key back to back; each request notes whether it was sent after the
      // revocation had been acknowledged.
      let revoked = false;
      let stop = false;
      let served = 0;
      const results: { after: boolean; status: number }[] = [];
      let servedTwenty!: () => void;
      const twenty = new Promise<void>((r) => (servedTwenty = r));
      const client = async () => {
        while (!stop) {
          const after = revoked;
          const res = await fetch(`${h.url}/api/v2/projects`, { headers: { authorization: `Bearer ${secret}` } });
          await res.arrayBuffer();
          results.push({ after, status: res.status });
          if (res.status === 200 && ++served === 20) servedTwenty();
          if (after && results.filter((x) => x.after).length >= 80) stop = true;
        }
      };
      const clients = Array.from({ length: 8 }, client);
      await twenty;
      if (via === 'api') {
        const r = await h.api('DELETE', `/api/keys/${made.key.id}`);
        expect(r.status).toBe(200);
        expectConforms(h.services, 'revokeApiKey', 200, r.body);
        expect(r.body.data).toMatchObject({ status: 'revoked', revokedAt: expect.any(String) });
      } else {
        // What `npm run apikey -- revoke` does: its own connection to the same database file.
        const other = new Database(h.dbFile);
        try {
          expect(apiKeysRepo(other).revoke(h.agencyId, made.key.id)).toBe(true);
        } finally {
          other.close();
        }
      }
      revoked = true;
      await Promise.all(clients);
      const after = results.filter((x) => x.after);
      expect(after.length, via).toBeGreaterThanOrEqual(80);
      expect(after.every((x) => x.status === 401), `${via}: ${JSON.stringify(after.filter((x) => x.status !== 401))}`).toBe(true);
      expect(results.filter((x) => !x.after && x.status === 200).length).toBeGreaterThanOrEqual(20);
    }
  });

  it('revoking an unknown or foreign key is 404; revoking twice changes nothing', async () => {
    expect((await h.api('DELETE', '/api/keys/key_nope')).status).toBe(404);
    const made = (await create({ name: 'twice', role: 'agency_admin', scopes: ['projects:read'] })).body.data;
    expect((await h.api('DELETE', `/api/keys/${made.key.id}`, { key: h.otherAgencyKey })).status).toBe(404);
    expect((await h.api('GET', '/api/v2/projects', { key: made.secret })).status).toBe(200);
    const first = await h.api('DELETE', `/api/keys/${made.key.id}`);
    const second = await h.api('DELETE', `/api/keys/${made.key.id}`);
    expect(second.status).toBe(200);
    expect(second.body.data.revokedAt).toBe(first.body.data.revokedAt);
  });

  it('a key cannot revoke itself (409 SelfRevocation); another admin key can', async () => {
    const made = (await create({ name: 'self', role: 'agency_admin', scopes: ['keys:write', 'projects:read'] })).body.data;
    const self = await h.api('DELETE', `/api/keys/${made.key.id}`, { key: made.secret });
    expect(self.status).toBe(409);
    expect(self.body).toMatchObject({ success: false, error: 'CONFLICT', code: 'SelfRevocation' });
    expect((await h.store.apiKeys.get(h.agencyId, made.key.id))!.revokedAt).toBeNull();
    expect((await h.api('GET', '/api/v2/projects', { key: made.secret })).status).toBe(200);
    expect((await h.api('DELETE', `/api/keys/${made.key.id}`)).status).toBe(200);
    expect((await h.api('GET', '/api/v2/projects', { key: made.secret })).status).toBe(401);
  });
});
