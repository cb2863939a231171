import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import pino from 'pino';
import { StoreConflict, SCOPES, type Store } from '../../server/store/index.js';
import { openPostgresStore, type PostgresStore } from '../../server/store/postgres/store.js';
import { appendNodes } from '../../engine/graph/append.js';
import type { Graph } from '../../engine/graph/types.js';
import type { Services } from '../../server/services.js';
import type { Actor } from '../../server/domain/actor.js';
import { connectProject, updateProject } from '../../server/domain/projects.js';
import { updateCampaign } from '../../server/domain/campaigns.js';
import { updateAgent } from '../../server/domain/agents.js';
import { assignNumber } from '../../server/domain/phone-numbers/numbers.js';
import { acceptCallEnded } from '../../server/domain/calls/accept-call-ended.js';
import { seedDemo } from '../../server/domain/seed.js';
import { sandboxNumberInventory } from '../../server/adapters/sandbox-voice-numbers.js';
import { storeExecutionLog } from '../../server/adapters/execution-log.js';
import { DomainError } from '../../server/domain/errors.js';
import { PermanentPortError } from '../../engine/ports.js';
import { leadRecord } from '../helpers/leads.js';
import { createDatabase } from '../helpers/postgres.js';
import { pgMigrations } from '../../server/store/postgres/migrations/index.js';
import { lockWatcher, pausing, race } from '../helpers/races.js';

/**
 * What SQLite's one writer made true, kept true on Postgres with two stores (two processes, as far
 * as the database can tell) racing on one database. Each race is deterministic (test/helpers/
 * races.ts): the first contender stops inside its transaction after the read that matters; the
 * second runs until it is done or waits on a lock; then the first commits.
 */
let db: Awaited<ReturnType<typeof createDatabase>>;
let a: PostgresStore;
let b: PostgresStore;
let watcher: Awaited<ReturnType<typeof lockWatcher>>;
let n = 0;
const id = (p: string) => `${p}_${++n}`;

beforeAll(async () => {
  db = await createDatabase('race');
  a = await openPostgresStore(db.url, { checkTransactions: true });
  b = await openPostgresStore(db.url, { checkTransactions: true });
  watcher = await lockWatcher(inject('postgresUrl'), db.name);
});
afterAll(async () => {
  await watcher?.close();
  await a?.close();
  await b?.close();
  await db?.drop();
});

const actorOf = (agencyId: string): Actor => ({ keyId: 'key_test', agencyId, role: 'agency_admin', scopes: new Set(SCOPES), projectIds: null });
/** What the domain functions raced here reach of their services. */
const services = (store: Store) =>
  ({
    store,
    config: { actionTimeoutSeconds: 30 },
    logger: pino({ level: 'silent' }),
    providers: { forLocation: async () => ({ crmKind: 'sandbox' }) },
    temporal: { startPostCall: async () => true },
  }) as unknown as Services;

async function world(planLimit = 5) {
  const agencyId = id('ag');
  await a.agencies.ensure(agencyId, 'Agency', planLimit);
  const project = await a.projects.insert({ agencyId, crm: 'crm_a', locationId: id('loc'), timezone: 'UTC', agencyName: 'A', active: true, status: 'live', installed: true, businessName: 'B' });
  const agent = await a.agents.insert({ agencyId, projectId: project.id, locationId: project.locationId, name: 'Agent', agentType: 'outreach', capabilities: ['appointment_booking'], campaignId: null, postCallFields: [] });
  const campaign = await a.campaigns.insert({ agencyId, projectId: project.id, agentId: agent.id, name: 'Campaign', activeTags: [], inactiveTags: [], dialing: 'pd', agentType: null, fromNumbers: [], active: false, config: {} });
  return { agencyId, project, agent, campaign };
}

const reason = (r: PromiseSettledResult<unknown>) => (r.status === 'rejected' ? r.reason : undefined);

describe('Postgres under concurrent writers (two stores, one database)', () => {
  it('graph writes with the same expectedVersion: one stores version 1, the other gets StaleVersion, never a key clash', async () => {
    const { agencyId, campaign } = await world();
    const write = (store: Store, body: string) =>
      store.workflows.write({ agencyId, campaignId: campaign.id, expectedVersion: 0, keyId: null, apply: (g: Graph) => ({ graph: appendNodes(g, 'VOICEMAIL', [{ type: 'send-sms', config: { body } }]), summary: body }) });
    const first = pausing(a, 'workflows.write');
    const out = await race(watcher, { ...first, run: () => first.store.withTransaction((tx) => write(tx, 'first')) }, () => write(b, 'second'));
    expect(out.first.status).toBe('fulfilled');
    expect(reason(out.second)).toBeInstanceOf(StoreConflict);
    expect(reason(out.second)).toMatchObject({ reason: 'StaleVersion' });
    expect(out.secondWaited).toBe(true);
    const stored = await a.workflows.get(agencyId, campaign.id);
    expect(stored.version).toBe(1);
    expect(await a.workflows.versions(agencyId, campaign.id)).toMatchObject([{ version: 1, summary: 'first' }]);
  });

  it('graph writes without expectedVersion: both are kept, the second applied to the first\'s graph', async () => {
    const { agencyId, campaign } = await world();
    const write = (store: Store, body: string) =>
      store.workflows.write({ agencyId, campaignId: campaign.id, keyId: null, apply: (g: Graph) => ({ graph: appendNodes(g, 'VOICEMAIL', [{ type: 'send-sms', config: { body } }]), summary: body }) });
    const first = pausing(a, 'workflows.write');
    const out = await race(watcher, { ...first, run: () => first.store.withTransaction((tx) => write(tx, 'first')) }, () => write(b, 'second'));
    expect([out.first.status, out.second.status]).toEqual(['fulfilled', 'fulfilled']);
    const stored = await a.workflows.get(agencyId, campaign.id);
    expect(stored.version).toBe(2);
    expect(stored.graph.nodes.map((node) => (node.config as { body: string }).body)).toEqual(['first', 'second']);
  });

  it('plan slots: two connects racing for the last slot, one is refused with SubAccountCapReached', async () => {
    const agencyId = id('ag');
    await a.agencies.ensure(agencyId, 'Agency', 1);
    const connect = (store: Store, locationId: string) => connectProject(services(store), actorOf(agencyId), { locationId, crm: 'crm_a' } as never);
    const first = pausing(a, 'projects.countLive');
    const out = await race(watcher, { ...first, run: () => connect(first.store, id('loc')) }, () => connect(b, id('loc')));
    expect(out.first.status).toBe('fulfilled');
    expect(reason(out.second)).toBeInstanceOf(DomainError);
    expect(reason(out.second)).toMatchObject({ detailCode: 'SubAccountCapReached' });
    expect(await a.projects.countLive(agencyId)).toBe(1);
  });

  it('a location connected twice at once: one project, one AlreadyConnected', async () => {
    const agencyId = id('ag');
    await a.agencies.ensure(agencyId, 'Agency', 5);
    const locationId = id('loc');
    const connect = (store: Store) => connectProject(services(store), actorOf(agencyId), { locationId, crm: 'crm_a' } as never);
    const first = pausing(a, 'projects.find');
    const out = await race(watcher, { ...first, run: () => connect(first.store) }, () => connect(b));
    expect(out.first.status).toBe('fulfilled');
    expect(reason(out.second)).toMatchObject({ detailCode: 'AlreadyConnected' });
    expect(await a.projects.list(agencyId)).toHaveLength(1);
  });

  it('project PATCHes of different fields at once: both kept (no lost update)', async () => {
    const { agencyId, project } = await world();
    const patch = (store: Store, body: Record<string, unknown>) => updateProject(services(store), actorOf(agencyId), project.id, body as never, (v) => ({ ...v.project }));
    const first = pausing(a, 'projects.find');
    const out = await race(watcher, { ...first, run: () => patch(first.store, { businessName: 'Renamed' }) }, () => patch(b, { knowledgeBase: 'kb text' }));
    expect([out.first.status, out.second.status]).toEqual(['fulfilled', 'fulfilled']);
    expect(await a.projects.get(agencyId, project.id)).toMatchObject({ businessName: 'Renamed', knowledgeBase: 'kb text' });
    expect(out.secondWaited).toBe(true);
  });

  it('campaign PATCHes of different fields at once: both kept', async () => {
    const { agencyId, project, campaign } = await world();
    const patch = (store: Store, body: Record<string, unknown>) => updateCampaign(services(store), actorOf(agencyId), project.locationId, campaign.id, body as never);
    const first = pausing(a, 'campaigns.get');
    const out = await race(watcher, { ...first, run: () => patch(first.store, { name: 'Renamed' }) }, () => patch(b, { activeTags: ['hot'] }));
    expect([out.first.status, out.second.status]).toEqual(['fulfilled', 'fulfilled']);
    expect(await a.campaigns.get(agencyId, campaign.id)).toMatchObject({ name: 'Renamed', activeTags: ['hot'] });
  });

  it('agent PATCHes of different fields at once: both kept', async () => {
    const { agencyId, agent } = await world();
    const patch = (store: Store, body: Record<string, unknown>) => updateAgent(store, actorOf(agencyId), agent.id, body as never);
    const first = pausing(a, 'agents.get');
    const out = await race(watcher, { ...first, run: () => patch(first.store, { name: 'Renamed' }) }, () => patch(b, { prompt: 'Be brief.' }));
    expect([out.first.status, out.second.status]).toEqual(['fulfilled', 'fulfilled']);
    expect(await a.agents.get(agencyId, agent.id)).toMatchObject({ name: 'Renamed', prompt: 'Be brief.' });
  });

  it('two numbers assigned to one campaign at once: both on it', async () => {
    const { agencyId, campaign } = await world();
    await a.phoneNumbers.insert(agencyId, '+15125550001', 'one', false);
    await a.phoneNumbers.insert(agencyId, '+15125550002', 'two', false);
    const first = pausing(a, 'campaigns.get');
    const out = await race(watcher, { ...first, run: () => assignNumber(first.store, actorOf(agencyId), '+15125550001', campaign.id) }, () => assignNumber(b, actorOf(agencyId), '+15125550002', campaign.id));
    expect([out.first.status, out.second.status]).toEqual(['fulfilled', 'fulfilled']);
    expect((await a.campaigns.get(agencyId, campaign.id))!.fromNumbers.sort()).toEqual(['+15125550001', '+15125550002']);
  });

  it('two calls from one new number at once: one contact, both calls on it', async () => {
    const { agencyId, campaign } = await world();
    const phone = '+15125550777';
    const event = (callId: string) => ({ type: 'call.ended', call: { callId, campaignId: campaign.id, phoneNumber: phone, disposition: 'VOICEMAIL', dateTime: new Date().toISOString() } }) as never;
    const first = pausing(a, 'crm.findOrCreateByPhone');
    const [one, two] = [id('call'), id('call')];
    const out = await race(watcher, { ...first, run: () => acceptCallEnded(services(first.store), agencyId, event(one), id('sig')) }, () => acceptCallEnded(services(b), agencyId, event(two), id('sig')));
    expect([out.first.status, out.second.status]).toEqual(['fulfilled', 'fulfilled']);
    const contacts = await a.pool.query('SELECT id FROM crm_contacts WHERE agency_id = $1 AND phone = $2', [agencyId, phone]);
    expect(contacts.rowCount).toBe(1);
    expect((await a.calls.get(agencyId, one))!.doc.contactId).toBe(contacts.rows[0].id);
    expect((await a.calls.get(agencyId, two))!.doc.contactId).toBe(contacts.rows[0].id);
  });

  it('two bookings of overlapping slots on one calendar at once: one booked', async () => {
    const agencyId = id('ag');
    const book = (store: Store, startsAt: string, endsAt: string) =>
      store.appointments.bookIfFree({ id: id('apt'), agencyId, locationId: 'loc', calendarId: 'cal', contactId: 'ct', startsAt, endsAt, idempotencyKey: id('key') });
    const first = pausing(a, 'appointments.bookIfFree');
    const out = await race(
      watcher,
      { ...first, run: () => first.store.withTransaction((tx) => book(tx, '2026-06-01T10:00:00.000Z', '2026-06-01T10:30:00.000Z')) },
      () => book(b, '2026-06-01T10:15:00.000Z', '2026-06-01T10:45:00.000Z'),
    );
    expect(out.first).toEqual({ status: 'fulfilled', value: true });
    expect(out.second).toEqual({ status: 'fulfilled', value: false });
    expect((await a.pool.query('SELECT 1 FROM appointments WHERE agency_id = $1', [agencyId])).rowCount).toBe(1);
  });

  it('one sandbox number bought by two agencies at once: sold once', async () => {
    const [one, two] = [id('ag'), id('ag')];
    await a.agencies.ensure(one, 'One', 1);
    await a.agencies.ensure(two, 'Two', 1);
    const phoneNumber = '+16175551037';
    const buy = (store: Store, agencyId: string) => sandboxNumberInventory(store).buy({ agencyId, idempotencyKey: id('buy'), phoneNumber });
    const first = pausing(a, 'numberInventory.take');
    const out = await race(watcher, { ...first, run: () => buy(first.store, one) }, () => buy(b, two));
    expect(out.first).toEqual({ status: 'fulfilled', value: { phoneNumber, country: 'US' } });
    expect(reason(out.second)).toBeInstanceOf(PermanentPortError);
    expect((await a.pool.query('SELECT bought_by FROM number_inventory WHERE phone_number = $1', [phoneNumber])).rows).toEqual([{ bought_by: one }]);
  });

  it('a failed run finished twice at once (a retried activity): one alert', async () => {
    const { agencyId, agent, campaign } = await world();
    const executionId = id('exe');
    await a.executions.create({ id: executionId, agencyId, workflowId: `wf_${executionId}`, campaignId: campaign.id, agentId: agent.id, callId: id('call'), outcome: 'VOICEMAIL', graphVersion: 0 });
    const finish = (store: Store) => storeExecutionLog(store).executionFinished({ executionId, status: 'failed', error: 'the CRM refused' });
    const first = pausing(a, 'executions.byIdAnyAgency');
    const out = await race(watcher, { ...first, run: () => finish(first.store) }, () => finish(b));
    expect([out.first.status, out.second.status]).toEqual(['fulfilled', 'fulfilled']);
    expect((await a.alerts.list(agencyId)).filter((x) => x.kind === 'run.failed')).toHaveLength(1);
    expect(out.secondWaited).toBe(true);
  });

  it('one Idempotency-Key claimed by two requests at once: one owns it, the other sees it in progress', async () => {
    const agencyId = id('ag');
    const key = id('key');
    const first = pausing(a, 'idempotency.reserve');
    const out = await race(watcher, { ...first, run: () => first.store.withTransaction((tx) => tx.idempotency.reserve(agencyId, key, 'fp-first', 'req-first', 30_000)) }, () => b.idempotency.reserve(agencyId, key, 'fp-second', 'req-second', 30_000));
    expect(out.first).toEqual({ status: 'fulfilled', value: null });
    expect(out.second).toEqual({ status: 'fulfilled', value: { fingerprint: 'fp-first', status: 0, body: null } });
  });

  it('an expired Idempotency-Key replaced by two requests at once: one owns it, the other sees that claim', async () => {
    const agencyId = id('ag');
    const key = id('key');
    await a.pool.query("INSERT INTO idempotency_keys (agency_id, idem_key, fingerprint, status, body, created_at) VALUES ($1, $2, 'fp-old', 200, '{}', $3)", [agencyId, key, new Date(Date.now() - 25 * 3600_000).toISOString()]);
    const first = pausing(a, 'idempotency.reserve');
    const out = await race(watcher, { ...first, run: () => first.store.withTransaction((tx) => tx.idempotency.reserve(agencyId, key, 'fp-first', 'req-first', 30_000)) }, () => b.idempotency.reserve(agencyId, key, 'fp-second', 'req-second', 30_000));
    expect(out.first).toEqual({ status: 'fulfilled', value: null });
    expect(out.second).toEqual({ status: 'fulfilled', value: { fingerprint: 'fp-first', status: 0, body: null } });
  });

  it('a claim whose lease ran out, taken over by two requests at once: one owns it, the other sees that claim', async () => {
    const agencyId = id('ag');
    const key = id('key');
    await a.pool.query("INSERT INTO idempotency_keys (agency_id, idem_key, fingerprint, status, body, created_at, holder, lease_until) VALUES ($1, $2, 'fp-first', 0, '', $3, 'dead-process', $4)", [agencyId, key, new Date().toISOString(), new Date(Date.now() - 1000).toISOString()]);
    const first = pausing(a, 'idempotency.reserve');
    const out = await race(watcher, { ...first, run: () => first.store.withTransaction((tx) => tx.idempotency.reserve(agencyId, key, 'fp-first', 'req-first', 30_000)) }, () => b.idempotency.reserve(agencyId, key, 'fp-first', 'req-second', 30_000));
    expect(out.first).toEqual({ status: 'fulfilled', value: null });
    expect(out.second).toEqual({ status: 'fulfilled', value: { fingerprint: 'fp-first', status: 0, body: null } });
    expect((await a.pool.query('SELECT holder FROM idempotency_keys WHERE agency_id = $1 AND idem_key = $2', [agencyId, key])).rows).toEqual([{ holder: 'req-first' }]);
  });

  it('a named lease claimed by two processes at once: one holds it', async () => {
    const name = id('lease');
    const first = pausing(a, 'leases.claim');
    const out = await race(watcher, { ...first, run: () => first.store.withTransaction((tx) => tx.leases.claim(name, 'first', 30_000)) }, () => b.leases.claim(name, 'second', 30_000));
    expect(out.first).toEqual({ status: 'fulfilled', value: true });
    expect(out.second).toEqual({ status: 'fulfilled', value: false });
  });

  it('lead search has nothing written behind: a committed lead is found at once through the other store, an uncommitted one never', async () => {
    const { agencyId, project, campaign } = await world();
    const lead = leadRecord({ id: id('lead'), agencyId, projectId: project.id, campaignId: campaign.id, contactId: id('ct'), locationId: project.locationId, fullName: 'Quincy Zephyr', phone: '+15125550999', createdAt: new Date().toISOString() });
    const q = { agencyId, mode: 'pipeline', cadenceStep: 0, search: 'zephyr', limit: 10, offset: 0 } as const;
    const first = pausing(a, 'leads.insert');
    const out = await race(watcher, { ...first, run: () => first.store.withTransaction((tx) => tx.leads.insert(lead)) }, () => b.leadSearch.page(q));
    expect(out.secondWaited).toBe(false);
    expect(out.second).toEqual({ status: 'fulfilled', value: { leads: [], total: 0 } });
    expect(out.first).toEqual({ status: 'fulfilled', value: true });
    expect((await b.leadSearch.page(q)).leads.map((l) => l.id)).toEqual([lead.id]);
  });
});

describe('Postgres lead-list counts with writers and folds on two stores at once', () => {
  it('enrolments, moves and folds racing on both stores: every count is exact', async () => {
    const { agencyId, project, campaign } = await world();
    const q = (cadenceStep: number) => ({ agencyId, mode: 'pipeline' as const, cadenceStep, campaignIds: [campaign.id], limit: 1, offset: 0 });
    const enrol = async (store: Store, k: number) => {
      const leadId = id('lead');
      await store.leads.insert(leadRecord({ id: leadId, agencyId, projectId: project.id, campaignId: campaign.id, contactId: id('ct'), locationId: project.locationId, fullName: 'Lee Count', phone: '+15125550000', createdAt: new Date().toISOString() }));
      if (k % 3 === 0) await store.leads.mirror(agencyId, leadId, { callStatus: 'scheduled', cadenceStep: 1 });
      if (k % 5 === 0) await store.leads.mirror(agencyId, leadId, { callStatus: 'completed', cadenceStep: 1 });
      if (k % 4 === 0) await store.leadSearch.sync();
    };
    await Promise.all([a, b].map(async (store) => {
      for (let k = 0; k < 60; k++) await enrol(store, k);
    }));
    const rows = (await a.pool.query<{ step: number; n: number }>("SELECT cadence_step AS step, count(*)::int AS n FROM leads WHERE agency_id = $1 AND call_status IN ('scheduled','calling','callback') GROUP BY cadence_step", [agencyId])).rows;
    const want = (step: number) => rows.find((r) => r.step === step)?.n ?? 0;
    for (const step of [0, 1]) expect((await b.leadSearch.page(q(step))).total).toBe(want(step));
    await Promise.all([a.leadSearch.sync(), b.leadSearch.sync()]);
    for (const step of [0, 1]) expect((await a.leadSearch.page(q(step))).total).toBe(want(step));
    expect(want(0) + want(1)).toBe(2 * (60 - 12));
  });
});

describe('Postgres: any number of processes starting at once', () => {
  it('four processes open a new database together: the schema is migrated once, ensure and the demo seed happen once', async () => {
    const fresh = await createDatabase('starts');
    const stores: PostgresStore[] = [];
    try {
      stores.push(...(await Promise.all([1, 2, 3, 4].map(() => openPostgresStore(fresh.url, { poolSize: 3 })))));
      const s0 = stores[0]!;
      expect((await s0.pool.query('SELECT version, name FROM schema_migrations ORDER BY version')).rows).toEqual(pgMigrations.map((m, i) => ({ version: i + 1, name: m.name })));
      const ensured = await Promise.all(stores.map((s) => s.agencies.ensure('shared', 'Shared', 3)));
      expect(new Set(ensured.map((x) => x.signingSecret)).size).toBe(1);
      const seeded = await Promise.all(stores.map((s) => seedDemo({ store: s, planLimit: 3 })));
      expect(seeded.filter(Boolean)).toHaveLength(1);
      expect(await s0.apiKeys.list('demo')).toHaveLength(1);
      expect(await s0.projects.list('demo')).toHaveLength(1);
      expect(await s0.campaigns.listByProject('demo', (await s0.projects.list('demo'))[0]!.id)).toHaveLength(1);
      // A later start finds everything in place.
      const later = await openPostgresStore(fresh.url, { poolSize: 1 });
      stores.push(later);
      expect(await seedDemo({ store: later, planLimit: 3 })).toBeUndefined();
    } finally {
      await Promise.all(stores.map((s) => s.close()));
      await fresh.drop();
    }
  });
});
