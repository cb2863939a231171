/**
 * No process-local truth: what one API or worker process does, every other process sharing the
 * store knows. Each "process" here is the product's provider wiring as `main` composes it
 * (`composeProviders`), several of them over one store: they share nothing but the store, as
 * processes on different hosts share nothing but the database. GoHighLevel is the stateful fake,
 * whose OAuth refresh tokens are single use, as the vendor's are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeProviders } from '../../server/compose.js';
import { createLogger } from '../../server/logger.js';
import type { Store } from '../../server/store/index.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { until } from '../helpers/processes.js';
import { seedLocation, startGohighlevelFake, type GohighlevelFake } from '../fakes/gohighlevel-fake.js';

let fake: GohighlevelFake;
let h: Harness;

beforeAll(async () => {
  fake = await startGohighlevelFake({ token: 'pit-shared-state-token-0' });
  h = await createHarness({ config: { gohighlevelBaseUrl: fake.url, gohighlevelClientId: fake.oauth.clientId, gohighlevelClientSecret: fake.oauth.clientSecret, vendorTimeoutMs: 5_000, defaultPlanLimit: 20 } });
});
afterAll(async () => {
  await h?.close();
  await fake?.close();
});

/** Another process's providers over the same store; `store` lets a test watch what it asks of it. */
const processOver = (store: Store = h.store) => composeProviders(h.services.config, store, createLogger('silent'));

async function connected(credentials: Record<string, string>) {
  const seeded = seedLocation(fake);
  const r = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: seeded.locationId, credentials } });
  expect(r.status, r.text).toBe(200);
  return { ...seeded, projectId: r.body.data.id as string };
}

describe('an OAuth token refresh happens once across processes', () => {
  it('two processes find the token about to expire at once: one refreshes, the other uses its new token', async () => {
    fake.token = 'access-0';
    const loc = await connected({ accessToken: 'access-0', refreshToken: fake.oauth.refreshToken, expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    // The token is about to expire (within the refresh margin).
    const first = processOver();
    await first.credentials.put(h.agencyId, loc.projectId, 'gohighlevel', { kind: 'oauth', accessToken: 'access-0', refreshToken: fake.oauth.refreshToken, expiresAt: new Date(Date.now() + 60_000).toISOString() });
    let refusedClaims = 0;
    const watched: Store = { ...h.store, leases: { claim: async (...a) => { const got = await h.store.leases.claim(...a); if (!got) refusedClaims++; return got; }, release: (...a) => h.store.leases.release(...a) } };
    const second = processOver(watched);
    let letGo!: () => void;
    fake.inject({ method: 'POST', path: '/oauth/token', kind: 'hold', until: new Promise<void>((r) => (letGo = r)) });
    const issuedBefore = fake.oauth.issued;
    const refreshed = fake.received({ method: 'POST', path: '/oauth/token' });
    const a = first.ports.crm.getContact(h.agencyId, loc.locationId, loc.contact.id);
    await refreshed;
    const b = second.ports.crm.getContact(h.agencyId, loc.locationId, loc.contact.id);
    // The second process has found the refresh taken by the first, and waits for its token.
    await until(() => refusedClaims > 0, 10_000);
    letGo();
    const [ca, cb] = await Promise.all([a, b]);
    expect(ca?.id).toBe(loc.contact.id);
    expect(cb?.id).toBe(loc.contact.id);
    expect(fake.oauth.issued).toBe(issuedBefore + 1);
    expect(fake.requests.filter((r) => r.path === '/oauth/token')).toHaveLength(1);
    expect((await h.services.credentials.get(h.agencyId, loc.projectId, 'gohighlevel'))).toMatchObject({ kind: 'oauth', accessToken: fake.token });
    expect((await h.api('GET', `/api/v2/projects/${loc.projectId}`)).body.data.status).toBe('live');
  });
});

describe('the CRM read cache is invalidated in every process', () => {
  it('a reconnect through one API process: another process reads the location afresh with the new credential', async () => {
    fake.token = 'pit-shared-state-token-1';
    const loc = await connected({ token: fake.token });
    const other = processOver();
    const pipelineReads = () => fake.requests.filter((r) => r.path === '/opportunities/pipelines').length;
    const before = pipelineReads();
    expect((await other.registry.directory.pipelines(h.agencyId, loc.locationId)).map((p) => p.id)).toEqual([loc.pipeline.id]);
    await other.registry.directory.pipelines(h.agencyId, loc.locationId);
    expect(pipelineReads()).toBe(before + 1);
    // The location's setup changes with the new connection, and the old token stops working.
    fake.state.pipelines.push({ id: 'p-after-reconnect', locationId: loc.locationId, name: 'Renewals', stages: [{ id: 's-r', name: 'New' }] });
    fake.token = 'pit-shared-state-token-2';
    const r = await h.api('POST', `/api/v2/projects/${loc.projectId}/reconnect`, { body: { credentials: { token: fake.token } } });
    expect(r.status, r.text).toBe(200);
    expect((await other.registry.directory.pipelines(h.agencyId, loc.locationId)).map((p) => p.id)).toEqual([loc.pipeline.id, 'p-after-reconnect']);
    expect(pipelineReads()).toBe(before + 2);
    expect(fake.requests.at(-1)?.headers.authorization).toBe('Bearer pit-shared-state-token-2');
  });
});
