/**
 * Many machines, on loopback: a Postgres cluster of the test's own (initdb, pg_ctl), the real
 * Temporal server (built from go.temporal.io/server, its persistence on that Postgres, mutual TLS
 * on its frontend), two API processes and two worker processes, each with an empty DATA_DIR of its
 * own, sharing nothing but the database and the Temporal cluster. Then what must hold across them:
 * a burst of signed call events spread over both APIs while one API and one worker are killed
 * (SIGKILL) gives every call its record and one run, every effect once; a key revoked through one
 * API is refused by the other within a second; the rate limit is one limit; an enrolment burst
 * split across both APIs enrols each contact once.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENCY_HEADER, SIGNATURE_HEADER, signPayload } from '../../server/domain/event-signature.js';
import { postCallWorkflowId } from '../../engine/workflows/post-call-types.js';
import { leadWorkflowId } from '../../engine/workflows/lead-cadence-types.js';
import { openPostgresStore, type PostgresStore } from '../../server/store/postgres/store.js';
import { makeTestPki, type TestPki } from '../helpers/certs.js';
import { startPostgresCluster, type PostgresCluster } from '../helpers/postgres-cluster.js';
import { startTemporalServer, type TemporalServer } from '../helpers/temporal-server.js';
import { callEnded } from '../helpers/events.js';
import { until } from '../helpers/processes.js';
import { startProductProcess, type ProductProcess } from '../helpers/product-process.js';

const EVENTS = 200;
const RATE_LIMIT = 120;

type Proc = ProductProcess;

let pg: PostgresCluster;
let pki: TestPki;
let temporal: TemporalServer;
let store: PostgresStore;
let client: Client;
let connection: Connection;
const procs: Proc[] = [];
let api1: Proc;
let api2: Proc;
let worker1: Proc;
let worker2: Proc;
let adminKey = '';
let agencyId = '';
let secret = '';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-topology-'));

/** One product process of the topology, its own empty DATA_DIR; resolves once it says it is up. */
async function start(name: string, role: 'server' | 'worker', env: Record<string, string>): Promise<Proc> {
  const proc = await startProductProcess({
    name,
    role,
    dir: work,
    keepOutput: true,
    env: {
      DATABASE_URL: dbUrl,
      CREDENTIALS_KEY: credentialsKey,
      ...temporal.env,
      TEMPORAL_TASK_QUEUE: 'topology',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      SEED_DEMO: 'true',
      SANDBOX_CALL_SECONDS: '1',
      RATE_LIMIT_POINTS: String(RATE_LIMIT),
      RATE_LIMIT_WINDOW_SECONDS: '300',
      ...env,
    },
  });
  procs.push(proc);
  return proc;
}

const kill = (p: Proc) => p.stop('SIGKILL');

let dbUrl = '';
const credentialsKey = randomBytes(32).toString('hex');

beforeAll(async () => {
  pg = await startPostgresCluster();
  pki = makeTestPki('topology-worker');
  temporal = await startTemporalServer({ pg: { host: '127.0.0.1', port: pg.port, user: 'postgres' }, dir: path.join(work, 'temporal'), pki });
  const admin = new URL(pg.url);
  dbUrl = `postgres://postgres@127.0.0.1:${pg.port}/voice`;
  const { default: pgLib } = await import('pg');
  const c = new pgLib.Client({ connectionString: admin.toString() });
  await c.connect();
  await c.query('CREATE DATABASE voice');
  await c.end();
  // Both APIs start at once: the schema migrates under its lock, and the demo agency is seeded once.
  [api1, api2] = await Promise.all([start('api-1', 'server', {}), start('api-2', 'server', {})]);
  const workerEnv = { API_URL: `${api1.url},${api2.url}` };
  [worker1, worker2] = await Promise.all([start('worker-1', 'worker', workerEnv), start('worker-2', 'worker', workerEnv)]);
  const printed = [api1, api2].flatMap((p) => [...p.out.join('').matchAll(/^\s+(vck_[A-Za-z0-9_-]+)\s*$/gm)].map((m) => m[1]!));
  expect(printed, 'the demo admin key is printed by exactly one of the two APIs').toHaveLength(1);
  adminKey = printed[0]!;
  store = await openPostgresStore(dbUrl);
  const tls = { clientCertPair: { crt: fs.readFileSync(pki.clientCert), key: fs.readFileSync(pki.clientKey) }, serverRootCACertificate: fs.readFileSync(pki.ca) };
  connection = await Connection.connect({ address: temporal.address, tls });
  client = new Client({ connection, namespace: temporal.namespace });
}, 300_000);

afterAll(async () => {
  for (const p of procs) await kill(p);
  await connection?.close();
  await store?.close();
  await temporal?.stop();
  pg?.stop();
  pki?.remove();
  fs.rmSync(work, { recursive: true, force: true });
}, 120_000);

const api = async (base: string, method: string, p: string, body?: unknown, key = adminKey) => {
  const res = await fetch(base + p, { method, headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
};

describe('two APIs and two workers on Postgres and a Temporal cluster', () => {
  let campaignId = '';
  let locationId = '';
  let agentId = '';

  it('setting up through either API: the other sees it at once', async () => {
    locationId = `loc_topology_${Date.now()}`;
    const project = await api(api1.url!, 'POST', '/api/v2/projects', { crm: 'crm_a', locationId, timezone: 'America/Chicago', businessName: 'Two Hosts Dental' });
    expect(project.status, project.text).toBe(200);
    const agent = await api(api2.url!, 'POST', '/api/agent-builder/agents', { name: 'Front desk', agentType: 'outreach', locationId, capabilityIds: ['appointment_booking'] });
    expect(agent.status, agent.text).toBe(200);
    agentId = agent.body.data.id;
    campaignId = agent.body.data.campaignId;
    const chain = await api(api1.url!, 'POST', `/api/agent-builder/agents/${agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`, {
      nodes: [{ type: 'add-tag', config: { tags: ['vm-left'] } }, { type: 'add-note', config: { body: 'Left a voicemail' } }, { type: 'send-sms', config: { body: 'Sorry we missed you' } }],
    });
    expect(chain.status, chain.text).toBe(200);
    expect((await api(api2.url!, 'GET', `/api/agent-builder/agents/${agentId}/campaign/workflow`)).body.data.version).toBe(1);
    const revealed = await api(api2.url!, 'POST', '/api/agency/signing-secret/reveal', {});
    expect(revealed.status, revealed.text).toBe(200);
    secret = revealed.body.data.secret;
    expect((await api(api1.url!, 'POST', '/api/agency/signing-secret/reveal', {})).status).toBe(409);
  });

  it(`${EVENTS} signed call events, round-robin, one API and one worker killed mid-burst: every call once, every run once, every effect once`, async () => {
    const events = Array.from({ length: EVENTS }, (_, i) => callEnded(campaignId, { phoneNumber: `+1737556${String(1000 + i)}`, leadName: `Lead ${i}` }));
    const acked = new Set<string>();
    let redelivered = 0;
    const deliver = async (e: (typeof events)[number], i: number) => {
      const raw = JSON.stringify(e);
      // The first try goes where the platform's round-robin puts it; a try that gets no answer
      // (refused, reset) or a 5xx is delivered again, freshly signed, to an API that is up.
      for (let attempt = 0; ; attempt++) {
        const target = attempt === 0 ? (i % 2 === 0 ? api1 : api2) : api1;
        let status = 0;
        try {
          // A platform signs each delivery anew: a later timestamp than the try before.
          const signature = signPayload(secret, raw, Math.floor(Date.now() / 1000) + attempt);
          const res = await fetch(`${target.url}/api/events/calls`, { method: 'POST', headers: { 'content-type': 'application/json', [AGENCY_HEADER]: 'demo', [SIGNATURE_HEADER]: signature }, body: raw });
          status = res.status;
          if (status < 500 && status !== 202 && status !== 200) throw new Error(`event ${e.call.callId} refused: ${status} ${await res.text()}`);
        } catch (err) {
          if ((err as Error).message.startsWith('event ')) throw err;
        }
        if (status === 202 || status === 200) {
          acked.add(e.call.callId);
          return;
        }
        redelivered++;
        if (attempt > 50) throw new Error(`event ${e.call.callId} was never acknowledged`);
      }
    };
    let next = 0;
    // Ten deliveries at a time, as a platform's webhook sender would.
    const senders = Array.from({ length: 10 }, async () => {
      while (next < events.length) {
        const i = next++;
        await deliver(events[i]!, i);
      }
    });
    await until(() => acked.size >= EVENTS / 4, 120_000);
    await Promise.all([kill(api2), kill(worker1)]);
    await Promise.all(senders);
    expect(acked.size).toBe(EVENTS);

    // Each run to its end: those the killed worker held finish on the other.
    for (const e of events) {
      const result = await client.workflow.getHandle(postCallWorkflowId('demo', e.call.callId)).result();
      expect(result, e.call.callId).toMatchObject({ status: 'succeeded' });
    }
    const outbox = await store.pool.query<{ recipient: string; n: number }>("SELECT recipient, count(*)::int AS n FROM outbox WHERE agency_id = 'demo' AND channel = 'sms' GROUP BY recipient");
    const smsTo = new Map(outbox.rows.map((r) => [r.recipient, r.n]));
    for (const e of events) {
      expect(await store.calls.get('demo', e.call.callId), e.call.callId).toBeDefined();
      const run = await store.executions.firstOfCall('demo', e.call.callId);
      expect(run, e.call.callId).toMatchObject({ status: 'succeeded', retryOf: null });
      // Every effect once: the contact the call made, its tag, one note, one SMS.
      const contact = (await store.crm.findByPhone('demo', locationId, e.call.phoneNumber))!;
      expect(contact.tags.filter((t) => t === 'vm-left'), e.call.phoneNumber).toHaveLength(1);
      expect((contact as { notes?: unknown[] }).notes, e.call.phoneNumber).toHaveLength(1);
      expect(smsTo.get(e.call.phoneNumber), e.call.phoneNumber).toBe(1);
    }
    const runs = await store.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM executions WHERE agency_id = 'demo' AND campaign_id = $1", [campaignId]);
    expect(runs.rows[0]!.n).toBe(EVENTS);
    process.stderr.write(`[topology] ${EVENTS} events acknowledged; ${redelivered} deliveries repeated after the kill\n`);
  });

  it('a key revoked through one API is refused by the other within a second', async () => {
    // The killed API comes back as a new process first.
    api2 = await start('api-2-again', 'server', { SEED_DEMO: 'false' });
    const made = await api(api1.url!, 'POST', '/api/keys', { name: 'short-lived', role: 'agency_admin', scopes: ['projects:read'] });
    expect(made.status, made.text).toBe(201);
    const key = made.body.data.secret as string;
    expect((await api(api2.url!, 'GET', '/api/v2/projects', undefined, key)).status).toBe(200);
    expect((await api(api1.url!, 'DELETE', `/api/keys/${made.body.data.key.id}`)).status).toBe(200);
    const revokedAt = Date.now();
    await until(async () => (await api(api2.url!, 'GET', '/api/v2/projects', undefined, key)).status === 401, 1_000);
    process.stderr.write(`[topology] revoked key refused by the other API after ${Date.now() - revokedAt} ms\n`);
  });

  it('the rate limit holds across both APIs', async () => {
    const made = await api(api2.url!, 'POST', '/api/keys', { name: 'busy', role: 'agency_admin', scopes: ['projects:read'] });
    const key = made.body.data.secret as string;
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 10; i++) statuses.push((await api(i % 2 ? api2.url! : api1.url!, 'GET', '/api/v2/projects', undefined, key)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.slice(RATE_LIMIT).every((s) => s === 429)).toBe(true);
  });

  it('an enrolment burst split across both APIs enrols each contact once', async () => {
    const cadence = await api(api1.url!, 'POST', '/api/power-dialer/cadences', { name: 'Later', steps: [{ delayMinutes: 600 }] });
    expect(cadence.status, cadence.text).toBe(200);
    const dialer = await api(api2.url!, 'POST', '/api/agent-builder/agents', { name: 'Dialer', agentType: 'outreach', locationId, capabilityIds: ['appointment_booking'] });
    const dialerCampaign = dialer.body.data.campaignId as string;
    const patched = await api(api1.url!, 'PATCH', `/api/agent-builder/projects/${locationId}/campaigns/${dialerCampaign}`, { activeTags: ['enrol-me'], dialing: 'pd', active: true, config: { cadenceId: cadence.body.data.id } });
    expect(patched.status, patched.text).toBe(200);
    const contacts = Array.from({ length: 40 }, (_, i) => ({ id: `ct_burst_${i}`, firstName: `Burst ${i}`, phone: `+1512557${String(1000 + i)}`, tags: ['enrol-me'] }));
    // Each contact enrolled through both APIs at the same moment.
    const answers = await Promise.all(contacts.flatMap((contact) => [api1, api2].map((p) => api(p.url!, 'POST', '/api/power-dialer/leads', { campaignId: dialerCampaign, contact }))));
    expect(answers.filter((a) => a.status !== 200).map((a) => a.text)).toEqual([]);
    expect(answers.filter((a) => a.body.created)).toHaveLength(contacts.length);
    const leads = await store.pool.query<{ id: string; contact_id: string }>('SELECT id, contact_id FROM leads WHERE agency_id = $1 AND campaign_id = $2', ['demo', dialerCampaign]);
    expect(leads.rows.map((r) => r.contact_id).sort()).toEqual(contacts.map((c) => c.id).sort());
    // Each lead's cadence runs once, on the cluster, whichever API enrolled it.
    for (const lead of leads.rows) expect((await client.workflow.getHandle(leadWorkflowId(lead.id)).describe()).status.name, lead.id).toBe('RUNNING');
  });

  it('no process kept anything in its DATA_DIR', () => {
    for (const p of procs) expect(fs.readdirSync(p.dataDir), p.name).toEqual([]);
  });
});
