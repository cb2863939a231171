/**
 * kill -9 of the API server during bursts of appends and of call events. After a restart on the
 * same files: every acknowledged (2xx) write and event is there, workflow versions are contiguous,
 * every post-call chain completes, and no side effect happened twice.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { awaitRun, callEnded } from '../helpers/events.js';
import { freePort } from '../../server/temporal/launcher.js';
import { signPayload, AGENCY_HEADER, SIGNATURE_HEADER } from '../../server/routes/events.js';

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

describe('crash of the API server', () => {
  it('kill -9 during a burst of appends: every acknowledged append is stored, versions contiguous', async () => {
    const ctx = await createProjectAgentCampaign(h);
    const port = await freePort();
    server = await startServer(port);
    const url = `http://127.0.0.1:${port}/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`;
    const acked: string[] = [];
    const sends = Array.from({ length: 200 }, (_, i) =>
      fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.adminKey}`, 'content-type': 'application/json', 'Idempotency-Key': `crash-${i}` },
        body: JSON.stringify({ nodes: [{ type: 'add-tag', config: { tags: [`t${i}`] } }] }),
      })
        .then((r) => (r.ok ? acked.push(`t${i}`) : 0))
        .catch(() => 0),
    );
    // Kill once some writes were acknowledged and others are still in flight.
    while (acked.length < 20) await new Promise((r) => setTimeout(r, 5));
    await killHard(server);
    await Promise.all(sends);
    server = await startServer(port);
    const stored = h.repos.workflows.get(h.agencyId, ctx.campaignId);
    const tags = stored.graph.nodes.map((n) => (n.config.tags as string[])[0]);
    for (const t of acked) expect(tags).toContain(t);
    const versions = h.repos.workflows.versions(h.agencyId, ctx.campaignId).map((v) => v.version).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: stored.version }, (_, i) => i + 1));
    expect(stored.graph.nodes).toHaveLength(stored.version);
    // A retry of an acknowledged request replays; of an unacknowledged one, applies once.
    const retry = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${h.adminKey}`, 'content-type': 'application/json', 'Idempotency-Key': 'crash-0' }, body: JSON.stringify({ nodes: [{ type: 'add-tag', config: { tags: ['t0'] } }] }) });
    expect(retry.status).toBe(200);
    const after = h.repos.workflows.get(h.agencyId, ctx.campaignId).graph.nodes.map((n) => (n.config.tags as string[])[0]);
    expect(after.filter((t) => t === 't0')).toHaveLength(1);
    await killHard(server);
    server = null;
  });

  it('kill -9 during a burst of call events: every acknowledged event has its record and its chain runs once', async () => {
    const ctx = await createProjectAgentCampaign(h);
    await h.api('POST', `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['vm-left'] } }, { type: 'add-note', config: { body: 'vm' } }] } });
    const port = await freePort();
    server = await startServer(port);
    const secret = h.repos.agencies.get(h.agencyId)!.signingSecret;
    const events = Array.from({ length: 100 }, () => callEnded(ctx.campaignId));
    const post = (e: (typeof events)[number], p: number, timestamp?: number) => {
      const raw = JSON.stringify(e);
      return fetch(`http://127.0.0.1:${p}/api/events/calls`, { method: 'POST', headers: { 'content-type': 'application/json', [AGENCY_HEADER]: h.agencyId, [SIGNATURE_HEADER]: signPayload(secret, raw, timestamp) }, body: raw });
    };
    const acked = new Set<string>();
    const sends = events.map((e) => post(e, port).then((r) => (r.status === 202 ? acked.add(e.call.callId) : 0)).catch(() => 0));
    while (acked.size < 10) await new Promise((r) => setTimeout(r, 5));
    await killHard(server);
    await Promise.all(sends);
    server = await startServer(port);
    for (const id of acked) expect(h.repos.calls.get(h.agencyId, id), id).toBeDefined();
    // The platform re-delivers everything, freshly signed (a later timestamp than any first
    // delivery); duplicates of what was acknowledged are harmless.
    const later = Math.floor(Date.now() / 1000) + 2;
    for (const e of events) {
      const r = await post(e, port, later);
      expect([200, 202]).toContain(r.status);
    }
    for (const e of events) {
      expect(await awaitRun(h, e.call.callId)).toMatchObject({ status: 'succeeded' });
      expect(h.repos.effects.countWithPrefix(`post-call:${e.call.callId}:`)).toBe(2);
    }
    const contactIds = new Set(events.map((e) => h.repos.calls.get(h.agencyId, e.call.callId)!.doc.contactId));
    for (const id of contactIds) {
      const c = h.repos.crm.getContact(h.agencyId, ctx.locationId, id)!;
      expect(c.tags).toEqual(['vm-left']);
    }
    const notes = [...contactIds].reduce((n, id) => n + (h.repos.crm.getContact(h.agencyId, ctx.locationId, id)!.notes?.length ?? 0), 0);
    expect(notes).toBe(events.length);
    await killHard(server);
    server = null;
  });
});
