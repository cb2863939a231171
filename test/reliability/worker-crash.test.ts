/**
 * kill -9 of a worker process in the middle of a burst of post-call chains: a second worker takes
 * over, every chain completes, and every effect happens exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { startWorkerProcess, until } from '../helpers/processes.js';

let h: Harness;
const workers: ChildProcess[] = [];
beforeAll(async () => {
  h = await createHarness({ temporal: true, worker: false, config: { actionTimeoutSeconds: 3 } });
});
afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL');
  await h?.close();
});

describe('crash of a worker during a burst', () => {
  it('20 chains, the worker killed while SMS are in flight: all complete, each effect once', async () => {
    const ctx = await createProjectAgentCampaign(h);
    await h.api('POST', `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`, {
      body: { nodes: [{ type: 'add-tag', config: { tags: ['vm-left'] } }, { type: 'send-sms', config: { body: 'Hi {{contact.firstName}}' } }, { type: 'add-note', config: { body: 'texted' } }] },
    });
    const first = await startWorkerProcess(h, { SANDBOX_CARRIER_LATENCY_MS: '800' });
    workers.push(first);
    const contacts = await Promise.all(Array.from({ length: 20 }, async (_, i) => await h.store.crm.createContact(h.agencyId, { locationId: ctx.locationId, firstName: `C${i}`, phone: `+1512555${String(1000 + i)}` })));
    const events = contacts.map((c) => callEnded(ctx.campaignId, { contactId: c.id, phoneNumber: c.phone }));
    for (const e of events) expect((await postCallEvent(h, e)).status).toBe(202);
    const running = async () => (await Promise.all(events.map(async (e) => await h.store.executions.firstOfCall(h.agencyId, e.call.callId)))).filter((x) => x?.steps.some((s) => s.nodeType === 'send-sms' && s.status === 'running')).length;
    await until(async () => (await running()) >= 3);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    workers.push(await startWorkerProcess(h, { SANDBOX_CARRIER_LATENCY_MS: '50' }));
    for (const e of events) expect(await awaitRun(h, e.call.callId)).toMatchObject({ status: 'succeeded', steps: 3 });
    for (const [i, c] of contacts.entries()) {
      const after = (await h.store.crm.getContact(h.agencyId, ctx.locationId, c.id))!;
      expect(after.tags).toEqual(['vm-left']);
      expect(after.notes).toHaveLength(1);
      expect(h.db.prepare('SELECT count(*) AS n FROM outbox WHERE contact_id = ?').get(c.id)).toEqual({ n: 1 });
      expect(await h.store.effects.countWithPrefix(h.agencyId, `post-call:${h.agencyId}:${events[i]!.call.callId}:`)).toBe(3);
    }
  });
});
