/**
 * kill -9 of the API server during bursts of appends and of call events. After a restart on the
 * same files: every acknowledged (2xx) write and event is there, workflow versions are contiguous,
 * every post-call chain completes, and no side effect happened twice.
 */
import { createHash } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { awaitRun, callEnded } from '../helpers/events.js';
import { until } from '../helpers/processes.js';
import { freePort } from '../../server/temporal/launcher.js';
import { signPayload, AGENCY_HEADER, SIGNATURE_HEADER } from '../../server/domain/event-signature.js';
import { canonicalJson } from '../../server/domain/canonical-json.js';
import { size } from './profile.js';

let h: Harness;
const root = path.resolve(import.meta.dirname, '../..');
let server: ChildProcess | null = null;

beforeAll(async () => {
  // The harness owns the store files and the worker; the API runs as a separate process we can kill.
  h = await createHarness({ temporal: true, config: { defaultPlanLimit: 10 } });
});
afterAll(async () => {
  server?.kill('SIGKILL');
  await h?.close();
});

/** `npm run server` as its own process on the harness's files; resolves once it listens. */
async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/main.ts'), '--role=server'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: h.dir, PORT: String(port), TEMPORAL_ADDRESS: h.temporalAddress, TEMPORAL_TASK_QUEUE: h.taskQueue, SEED_DEMO: 'false', LOG_LEVEL: 'warn', RATE_LIMIT_POINTS: '1000000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('API on')) resolve();
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  return child;
}

async function killHard(child: ChildProcess) {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

const tagsOf = async (campaignId: string) => (await h.store.workflows.get(h.agencyId, campaignId)).graph.nodes.map((n) => (n.config.tags as string[])[0]!);
const count = (list: string[], x: string) => list.filter((t) => t === x).length;

/** workflow_versions holds exactly 1..N, N is the stored version, and each version added one node. */
async function expectContiguousVersions(campaignId: string) {
  const stored = await h.store.workflows.get(h.agencyId, campaignId);
  const versions = (await h.store.workflows.versions(h.agencyId, campaignId)).map((v) => v.version).sort((a, b) => a - b);
  expect(versions).toEqual(Array.from({ length: stored.version }, (_, i) => i + 1));
  expect(stored.graph.nodes).toHaveLength(stored.version);
}

describe('crash of the API server', () => {
  it('kill -9 during a burst of plain appends: every acknowledged one is stored once, versions contiguous', async () => {
    const ctx = await createProjectAgentCampaign(h);
    const port = await freePort();
    server = await startServer(port);
    const url = `http://127.0.0.1:${port}/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`;
    const acked: string[] = [];
    const sends = Array.from({ length: size.appendBurst }, (_, i) =>
      fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ nodes: [{ type: 'add-tag', config: { tags: [`p${i}`] } }] }),
      })
        .then((r) => (r.ok ? acked.push(`p${i}`) : 0))
        .catch(() => 0),
    );
    // Kill once some writes were acknowledged and others are still in flight.
    await until(() => acked.length >= size.appendBurst / 10, 30_000);
    await killHard(server);
    await Promise.all(sends);
    expect(acked.length).toBeLessThan(size.appendBurst);
    server = await startServer(port);
    const tags = await tagsOf(ctx.campaignId);
    for (const t of acked) expect(count(tags, t), t).toBe(1);
    // Unacknowledged ones either made it before the kill or not; none twice.
    for (let i = 0; i < size.appendBurst; i++) expect(count(tags, `p${i}`)).toBeLessThanOrEqual(1);
    await expectContiguousVersions(ctx.campaignId);
    // The restarted server takes writes again, on top of what is there.
    const after = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${h.adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ nodes: [{ type: 'add-tag', config: { tags: ['after'] } }] }) });
    expect(after.status).toBe(200);
    await expectContiguousVersions(ctx.campaignId);
    await killHard(server);
    server = null;
  });

  it('kill -9 during appends with Idempotency-Key and expectedVersion: retries after the restart apply each write exactly once', async () => {
    const ctx = await createProjectAgentCampaign(h);
    let port = await freePort();
    server = await startServer(port);
    const base = () => `http://127.0.0.1:${port}/api/agent-builder/agents/${ctx.agentId}/campaign/workflow`;
    const headers = { authorization: `Bearer ${h.adminKey}`, 'content-type': 'application/json' };
    const stuck: string[] = [];
    /** One logical write: read the version, append with it; on 409 (stale) re-read and retry, same key. */
    async function write(tag: string, first?: { expectedVersion: number | undefined }): Promise<'acked' | 'lost'> {
      let expectedVersion = first?.expectedVersion;
      for (let attempt = 0; attempt < 200; attempt++) {
        try {
          if (expectedVersion === undefined) {
            const read = await fetch(base(), { headers });
            expectedVersion = ((await read.json()) as { data: { version: number } }).data.version;
          }
          const sent = JSON.stringify({ nodes: [{ type: 'add-tag', config: { tags: [tag] } }], expectedVersion });
          const res = await fetch(`${base()}/outcomes/VOICEMAIL/nodes`, { method: 'POST', headers: { ...headers, 'Idempotency-Key': `key-${tag}` }, body: sent });
          const body = (await res.json()) as { message?: string };
          if (res.ok) {
            sentBodies.set(tag, sent);
            return 'acked';
          }
          expect(res.status, body.message).toBe(409);
          if (body.message?.includes('still being processed')) stuck.push(tag);
          expectedVersion = undefined;
        } catch {
          pending.set(tag, { expectedVersion });
          return 'lost';
        }
      }
      throw new Error(`write ${tag} did not get through in 200 attempts`);
    }
    const pending = new Map<string, { expectedVersion: number | undefined }>();
    const sentBodies = new Map<string, string>();
    const acked: string[] = [];
    let dead = false;
    const writers = Array.from({ length: size.versionedWriters }, async (_, w) => {
      for (let i = 0; i < size.versionedWrites && !dead; i++) {
        const tag = `v${w}-${i}`;
        if ((await write(tag)) === 'acked') acked.push(tag);
        else return;
      }
    });
    await until(() => acked.length >= (size.versionedWriters * size.versionedWrites) / 3, 60_000);
    dead = true;
    await killHard(server);
    await Promise.all(writers);
    port = await freePort();
    server = await startServer(port);
    // The client retries exactly what it sent (same key, same body, same expectedVersion), then
    // re-reads and retries with the same key while the version has moved on.
    for (const [tag, sent] of pending) expect(await write(tag, sent), tag).toBe('acked');
    const tags = await tagsOf(ctx.campaignId);
    for (const t of [...acked, ...pending.keys()]) expect(count(tags, t), t).toBe(1);
    expect(tags).toHaveLength(acked.length + pending.size);
    await expectContiguousVersions(ctx.campaignId);
    // A key is never left "in progress" by the killed process.
    expect(stuck).toEqual([]);
    // A retry of an acknowledged write replays its stored answer and changes nothing; the same key
    // on another request is a 409.
    const version = (await h.store.workflows.get(h.agencyId, ctx.campaignId)).version;
    for (const tag of [acked[0]!, [...pending.keys()][0] ?? acked[1]!]) {
      const replay = await fetch(`${base()}/outcomes/VOICEMAIL/nodes`, { method: 'POST', headers: { ...headers, 'Idempotency-Key': `key-${tag}` }, body: sentBodies.get(tag) });
      expect(replay.status, tag).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    }
    const other = await fetch(`${base()}/outcomes/VOICEMAIL/nodes`, { method: 'POST', headers: { ...headers, 'Idempotency-Key': `key-${acked[0]}` }, body: JSON.stringify({ nodes: [{ type: 'add-tag', config: { tags: ['other'] } }] }) });
    expect(other.status).toBe(409);
    expect((await h.store.workflows.get(h.agencyId, ctx.campaignId)).version).toBe(version);
    await killHard(server);
    server = null;
  });

  it('an idempotent write and its stored answer commit together: a failure between them leaves neither', async () => {
    const ctx = await createProjectAgentCampaign(h);
    const path = `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`;
    const body = { nodes: [{ type: 'add-tag', config: { tags: ['once'] } }] };
    const complete = h.store.sync.idempotency.complete;
    // Stands for the process dying after the graph write, before the response is stored.
    h.store.sync.idempotency.complete = () => {
      throw new Error('simulated crash between the write and its stored answer');
    };
    try {
      const failed = await h.api('POST', path, { body, headers: { 'Idempotency-Key': 'atomic-1' } });
      expect(failed.status).toBe(500);
    } finally {
      h.store.sync.idempotency.complete = complete;
    }
    expect((await h.store.workflows.get(h.agencyId, ctx.campaignId)).version).toBe(0);
    const retry = await h.api('POST', path, { body, headers: { 'Idempotency-Key': 'atomic-1' } });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect((await tagsOf(ctx.campaignId))).toEqual(['once']);
  });

  it('a claim left "in progress" by a killed server is taken over once its lease ran out; a live claim never is', async () => {
    const ctx = await createProjectAgentCampaign(h);
    const body = (name: string) => ({ name: `${name} ${ctx.projectId}`, steps: [{ delayMinutes: 0 }] });
    // The claim of this very request (as server/http/idempotency.ts fingerprints it).
    const fingerprint = (name: string) => createHash('sha256').update(`POST /api/power-dialer/cadences?\n${canonicalJson(body(name))}`).digest('hex');
    const claim = (key: string, leaseUntil: string | null) =>
      h.db
        .prepare("INSERT INTO idempotency_keys (agency_id, idem_key, fingerprint, status, body, created_at, holder, lease_until) VALUES (?, ?, ?, 0, '', ?, 'another-process', ?)")
        .run(h.agencyId, key, fingerprint(key), new Date().toISOString(), leaseUntil);
    // What a server killed inside an asynchronous create-style handler leaves behind, its lease
    // run out; one from before leases (none); and one a live request of another process holds.
    claim('orphan', new Date(Date.now() - 1000).toISOString());
    claim('orphan-from-before-leases', null);
    claim('held', new Date(Date.now() + 60_000).toISOString());
    const port = await freePort();
    server = await startServer(port);
    const create = (key: string, name: string) =>
      fetch(`http://127.0.0.1:${port}/api/power-dialer/cadences`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.adminKey}`, 'content-type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify(body(name)),
      });
    for (const key of ['orphan', 'orphan-from-before-leases']) {
      const res = await create(key, key);
      expect(res.status, await res.clone().text()).toBe(200);
    }
    const held = await create('held', 'held');
    expect(held.status).toBe(409);
    expect((await held.json()).error).toMatch(/still being processed/);
    expect(h.db.prepare("SELECT holder, status FROM idempotency_keys WHERE agency_id = ? AND idem_key = 'held'").get(h.agencyId)).toEqual({ holder: 'another-process', status: 0 });
    await killHard(server);
    server = null;
  });

  it('kill -9 during a burst of call events: every acknowledged event has its record and its chain runs once', async () => {
    const ctx = await createProjectAgentCampaign(h);
    await h.api('POST', `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`, {
      body: { nodes: [{ type: 'add-tag', config: { tags: ['vm-left'] } }, { type: 'add-note', config: { body: 'vm' } }, { type: 'send-sms', config: { body: 'Sorry we missed you' } }] },
    });
    const port = await freePort();
    server = await startServer(port);
    const secret = (await h.store.agencies.get(h.agencyId))!.signingSecret;
    // One contact per call, so each chain's effects can be counted on its own contact.
    const events = Array.from({ length: size.eventBurst }, (_, i) => callEnded(ctx.campaignId, { phoneNumber: `+1737555${String(1000 + i)}` }));
    const post = (e: (typeof events)[number], p: number, timestamp?: number) => {
      const raw = JSON.stringify(e);
      return fetch(`http://127.0.0.1:${p}/api/events/calls`, { method: 'POST', headers: { 'content-type': 'application/json', [AGENCY_HEADER]: h.agencyId, [SIGNATURE_HEADER]: signPayload(secret, raw, timestamp) }, body: raw });
    };
    const acked = new Set<string>();
    const sends = events.map((e) => post(e, port).then((r) => (r.status === 202 ? acked.add(e.call.callId) : 0)).catch(() => 0));
    await until(() => acked.size >= size.eventBurst / 10, 30_000);
    await killHard(server);
    await Promise.all(sends);
    expect(acked.size).toBeLessThan(size.eventBurst);
    // A 202 means stored and started: each acknowledged chain completes with no re-delivery.
    for (const id of acked) {
      expect(await h.store.calls.get(h.agencyId, id), id).toBeDefined();
      expect(await awaitRun(h, id)).toMatchObject({ status: 'succeeded' });
    }
    server = await startServer(port);
    // The platform re-delivers everything, freshly signed (a later timestamp than any first
    // delivery); duplicates of what was acknowledged are harmless.
    const later = Math.floor(Date.now() / 1000) + 2;
    for (const e of events) {
      const r = await post(e, port, later);
      // Acknowledged: a duplicate. Not acknowledged: stored before the kill (duplicate) or new.
      if (acked.has(e.call.callId)) expect(r.status).toBe(200);
      else expect([200, 202]).toContain(r.status);
    }
    for (const e of events) {
      expect(await awaitRun(h, e.call.callId)).toMatchObject({ status: 'succeeded' });
      expect(await h.store.effects.countWithPrefix(h.agencyId, `post-call:${h.agencyId}:${e.call.callId}:`)).toBe(3);
      const contactId = (await h.store.calls.get(h.agencyId, e.call.callId))!.doc.contactId;
      const c = (await h.store.crm.getContact(h.agencyId, ctx.locationId, contactId))!;
      expect(c.tags).toEqual(['vm-left']);
      expect(c.notes).toHaveLength(1);
      expect(h.db.prepare('SELECT count(*) AS n FROM outbox WHERE contact_id = ?').get(contactId)).toEqual({ n: 1 });
      expect(h.db.prepare('SELECT count(*) AS n FROM executions WHERE call_id = ? AND agency_id = ?').get(e.call.callId, h.agencyId)).toEqual({ n: 1 });
    }
    await killHard(server);
    server = null;
  });
});
