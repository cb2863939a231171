/**
 * What-if replays through the API (issue 40, item 7), on a real Temporal worker: a campaign's real
 * calls replayed through two stored versions, or the current one and a graph not saved; the
 * differences added up in words and per call; the path under a call's own version equal to the one
 * its real run took; nothing written anywhere but the replay's own rows; a replay held mid-way and
 * cancelled; contacts read from the CRM only for inputs stored without one, once each; the body's
 * rules; another agency's key (404) and a project_user's projects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { expectConforms } from '../helpers/contract.js';
import { rowsOf } from '../helpers/state.js';
import { awaitReplay, contactReads, dropStoredContacts, realCalls, V1, V2, wf } from '../helpers/replay.js';

const reads = contactReads();
let h: Harness;
let c: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
let calls: string[];
/** Durations of the six real calls: v1 sends the SMS above 30 s (2 calls), v2 above 15 s (4 calls). */
const DURATIONS = [10, 20, 25, 40, 50, 5];

beforeAll(async () => {
  h = await createHarness({ temporal: true, ports: (base) => reads.ports(base), config: { defaultPlanLimit: 10 } });
  c = await createProjectAgentCampaign(h);
  expect((await h.api('PUT', wf(c.agentId), { body: { ...V1, expectedVersion: 0 } })).status).toBe(200);
  calls = await realCalls(h, c.campaignId, DURATIONS);
  expect((await h.api('PUT', wf(c.agentId), { body: { ...V2, expectedVersion: 1 } })).status).toBe(200);
});
afterAll(async () => {
  reads.release();
  await h?.close();
});

async function replay(body: object, key?: string) {
  const r = await h.api('POST', `${wf(c.agentId)}/replays`, { body, ...(key && { key }) });
  expect(r.status, r.text).toBe(202);
  await awaitReplay(h, r.body.data.id);
  const got = await h.api('GET', `${wf(c.agentId)}/replays/${r.body.data.id}`, key ? { key } : {});
  expect(got.status).toBe(200);
  return got.body.data;
}

describe('what-if replay', () => {
  it('replays the real calls through two versions and says what would differ, in words and per call', async () => {
    const before = rowsOf(h.db, ['crm_contacts', 'executions', 'execution_steps', 'outbox', 'port_effects', 'calls', 'run_inputs', 'workflow_versions']);
    const started = await h.api('POST', `${wf(c.agentId)}/replays`, { body: { fromVersion: 1, toVersion: 2 } });
    expect(started.status, started.text).toBe(202);
    expectConforms(h.services, 'startWorkflowReplay', 202, started.body);
    expect(started.body.data).toMatchObject({ status: 'running', from: { version: 1, label: 'Version 1' }, to: { version: 2, label: 'Version 2' }, maxCalls: 200 });
    await expect(awaitReplay(h, started.body.data.id)).resolves.toEqual({ status: 'done', replayed: 6 });
    const r = await h.api('GET', `${wf(c.agentId)}/replays/${started.body.data.id}`);
    expectConforms(h.services, 'getWorkflowReplay', 200, r.body);
    const data = r.body.data;
    expect(data).toMatchObject({ status: 'done', total: 6, done: 6, changed: 6 });
    expect(data.summary.lines.map((l: { text: string }) => l.text)).toEqual([
      '6 calls would now be tagged voicemail-left',
      '2 calls would now get an SMS',
      '6 calls would no longer be tagged vm-left',
    ]);
    expect(data.summary.unchanged).toBe(0);
    // Newest first; each call's path and effects under both versions.
    expect(data.calls.map((x: { callId: string }) => x.callId)).toEqual([...calls].reverse());
    const twenty = data.calls.find((x: { callId: string }) => x.callId === calls[1]);
    expect(twenty.before.path).toEqual([
      { nodeId: 'n1', type: 'add-tag', status: 'acted' },
      { nodeId: 'n2', type: 'if', status: 'evaluated', handle: 'false' },
    ]);
    expect(twenty.after.path.map((p: { nodeId: string; handle?: string }) => `${p.nodeId}${p.handle ? `:${p.handle}` : ''}`)).toEqual(['n1', 'n2:true', 'n3']);
    expect(twenty.after.effects.map((e: { text: string }) => e.text)).toEqual(['tag voicemail-left', 'SMS "Hi Lead 2, sorry we missed you!"']);
    expect(twenty.difference.gained.map((e: { key: string }) => e.key)).toEqual(['add-tag:voicemail-left', 'send-sms']);
    expect(twenty.difference.lost.map((e: { key: string }) => e.key)).toEqual(['add-tag:vm-left']);
    expect(twenty).toMatchObject({ contactRead: false, error: null, leadName: 'Lead 2', outcome: 'VOICEMAIL' });

    // Under version 1, each call takes the path its real run took on version 1.
    for (const call of data.calls) {
      const run = (await h.store.executions.firstOfCall(h.agencyId, call.callId))!;
      expect(run.graphVersion).toBe(1);
      expect(call.before.path.map((p: { nodeId: string; status: string }) => [p.nodeId, p.status === 'acted' ? 'succeeded' : p.status])).toEqual(run.steps.map((s) => [s.nodeId, s.status]));
    }
    // Nothing was performed: no contact, message, effect, run or version changed; no contact was read.
    expect(rowsOf(h.db, ['crm_contacts', 'executions', 'execution_steps', 'outbox', 'port_effects', 'calls', 'run_inputs', 'workflow_versions'])).toEqual(before);
    expect(reads.counts.size).toBeGreaterThan(0); // the real runs read their contacts...
    const readsBefore = [...reads.counts.values()].reduce((a, b) => a + b, 0);
    await replay({ fromVersion: 2, toVersion: 2 });
    expect([...reads.counts.values()].reduce((a, b) => a + b, 0)).toBe(readsBefore); // ...a replay with stored contacts reads none
  });

  it('replays the current version against a graph not saved; only the calls that changed, on request', async () => {
    const unsaved = { ...V2, nodes: [V2.nodes[0], { ...V2.nodes[1], config: { match: 'all', conditions: [{ field: 'call.duration', op: 'gt', value: 45 }] } }, V2.nodes[2]] };
    const data = await replay({ graph: unsaved, days: 1 });
    expect(data).toMatchObject({ from: { version: 2 }, to: { version: null, label: 'Unsaved changes' }, total: 6, changed: 3 });
    expect(data.summary.lines.map((l: { text: string }) => l.text)).toEqual(['3 calls would no longer get an SMS']);
    expect(data.summary.unchanged).toBe(3);
    const changedOnly = await h.api('GET', `${wf(c.agentId)}/replays/${data.id}?calls=changed`);
    expect(changedOnly.body.data.calls.map((x: { callId: string }) => x.callId).sort()).toEqual([calls[1], calls[2], calls[3]].sort());
    const none = await h.api('GET', `${wf(c.agentId)}/replays/${data.id}?calls=none`);
    expect(none.body.data.calls).toEqual([]);
    expect(none.body.data.summary.lines).toHaveLength(1);
    // At most `limit` calls, the most recent first.
    const two = await replay({ fromVersion: 1, toVersion: 2, limit: 2 });
    expect(two.calls.map((x: { callId: string }) => x.callId)).toEqual([calls[5], calls[4]]);
  });

  it('reads a contact its stored input lacks from the CRM, once per call, and can be cancelled mid-way', async () => {
    dropStoredContacts(h, calls);
    reads.counts.clear();
    const waiting = reads.hold();
    const started = await h.api('POST', `${wf(c.agentId)}/replays`, { body: { fromVersion: 1, toVersion: 2 } });
    expect(started.status).toBe(202);
    const id = started.body.data.id as string;
    // The first contact read of the replay waits at the gate: the replay is running, mid-way.
    await waiting;
    const mid = (await h.api('GET', `${wf(c.agentId)}/replays/${id}?calls=none`)).body.data;
    expect(mid).toMatchObject({ status: 'running', total: 6 });
    expect(mid.done).toBeLessThan(6);
    const cancelled = await h.api('POST', `${wf(c.agentId)}/replays/${id}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
    reads.release();
    // The workflow ends either cancelled by Temporal or, when its activity answered first, on its own saying so.
    expect((await awaitReplay(h, id)).status).toMatch(/^(ended: .*cancel|cancelled$)/i);
    const after = (await h.api('GET', `${wf(c.agentId)}/replays/${id}`)).body.data;
    expect(after.status).toBe('cancelled');
    expect(after.done).toBe(mid.done);
    expect(after.done).toBeLessThan(6);
    expect((await h.api('POST', `${wf(c.agentId)}/replays/${id}/cancel`)).body.code).toBe('ReplayNotRunning');

    // Run again to the end: every call's contact read from the CRM, once each.
    reads.counts.clear();
    const full = await replay({ fromVersion: 1, toVersion: 2 });
    expect(full).toMatchObject({ status: 'done', done: 6 });
    expect(full.calls.every((x: { contactRead: boolean }) => x.contactRead)).toBe(true);
    expect([...reads.counts.values()]).toEqual([1, 1, 1, 1, 1, 1]);
    expect(full.summary.lines.map((l: { text: string }) => l.text)).toContain('2 calls would now get an SMS');
  });

  it('refuses what it cannot replay, naming the field', async () => {
    const post = (body: object) => h.api('POST', `${wf(c.agentId)}/replays`, { body });
    const both = await post({ toVersion: 2, graph: V1 });
    expect(both.status).toBe(400);
    expect(both.body.message).toMatch(/either toVersion .* or graph/);
    expect((await post({})).status).toBe(400);
    const missing = await post({ toVersion: 9 });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain('version 9');
    expect((await post({ toVersion: 1, limit: 500 })).body.message).toMatch(/body\.limit/);
    expect((await post({ toVersion: 1, days: 0 })).body.message).toMatch(/body\.days/);
    const broken = await post({ graph: { ...V1, edges: [{ id: 'e9', source: 'n1', target: 'nope' }] } });
    expect(broken.status).toBe(400);
    expect((await h.api('GET', `${wf(c.agentId)}/replays/rpl_nope`)).status).toBe(404);
  });

  it("is the campaign's own: another agency's key, another agent's path and a project_user's other projects are refused", async () => {
    const data = await replay({ fromVersion: 1, toVersion: 2, limit: 1 });
    const foreign = await h.api('GET', `${wf(c.agentId)}/replays/${data.id}`, { key: h.otherAgencyKey });
    expect(foreign.status).toBe(404);
    expect((await h.api('POST', `${wf(c.agentId)}/replays`, { key: h.otherAgencyKey, body: { toVersion: 1 } })).status).toBe(404);
    const other = await createProjectAgentCampaign(h);
    expect((await h.api('GET', `${wf(other.agentId)}/replays/${data.id}`)).status).toBe(404);
    const mine = await h.key({ role: 'project_user', projectIds: [c.projectId] });
    const theirs = await replay({ fromVersion: 1, toVersion: 2, limit: 1 }, mine);
    expect(theirs.status).toBe('done');
    expect((await h.api('GET', `${wf(c.agentId)}/replays/${data.id}`, { key: mine })).status).toBe(200);
    const notMine = await h.key({ role: 'project_user', projectIds: [other.projectId] });
    expect((await h.api('GET', `${wf(c.agentId)}/replays/${data.id}`, { key: notMine })).status).toBe(403);
    expect((await h.api('POST', `${wf(c.agentId)}/replays`, { key: notMine, body: { toVersion: 1 } })).status).toBe(403);
    expect((await h.api('POST', `${wf(c.agentId)}/replays/${data.id}/cancel`, { key: notMine })).status).toBe(403);
  });
});
