/**
 * Step statistics through the API (issue 40, item 6): per step of a campaign, over a window and a
 * graph version or all, the real runs that reached it, succeeded, failed (after retries), skipped
 * it as a draft, its p50/p95 duration and the last error with its run. Steps are written through
 * the store's port as the worker writes them (the rollup's triggers see exactly those writes);
 * runs of other campaigns, test runs and steps older than the window are left out. Access: the
 * agent's agency only (another agency's agent is a 404), a project_user only on its projects.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { expectConforms } from '../helpers/contract.js';

let h: Harness;
let c: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
let other: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
const stats = (agentId: string, q = '') => `/api/agent-builder/agents/${agentId}/campaign/workflow/step-stats${q}`;
let n = 0;
// The store stamps each write with the time now: the test's clock (Date only) makes every step
// take the time it says, and every run end a second after the one before.
let clock = Date.now() - 3_600_000;
const at = (ms: number) => vi.setSystemTime((clock += ms));

/** A real run of the campaign at `version`, with steps written as the worker writes them, each taking `ms`. */
async function run(campaign: { campaignId: string; agentId: string }, version: number, steps: { nodeId: string; type?: string; status: string; error?: string; retried?: boolean; ms?: number }[], kind: 'run' | 'test' = 'run') {
  at(1000);
  const id = `exe_stats_${++n}`;
  await h.store.executions.create({ id, agencyId: h.agencyId, workflowId: `wf_${id}`, campaignId: campaign.campaignId, agentId: campaign.agentId, callId: `call_${id}`, outcome: 'VOICEMAIL', graphVersion: version, kind });
  let seq = 0;
  for (const s of steps) {
    seq += 1;
    const base = { executionId: id, seq, nodeId: s.nodeId, nodeType: s.type ?? 'add-tag' };
    if (s.status === 'evaluated' || s.status === 'skipped') {
      await h.store.executions.stepFinished({ ...base, status: s.status, attempt: 1 });
      continue;
    }
    await h.store.executions.stepStarted({ ...base, attempt: 1, input: {} });
    if (s.retried) {
      // A first attempt that failed, then the retry that decides.
      at(5);
      await h.store.executions.stepFinished({ ...base, status: 'failed', attempt: 1, error: 'timeout talking to the CRM' });
      await h.store.executions.stepStarted({ ...base, attempt: 2, input: {} });
    }
    at(s.retried ? (s.ms ?? 10) - 5 : (s.ms ?? 10));
    await h.store.executions.stepFinished({ ...base, status: s.status, attempt: s.retried ? 2 : 1, ...(s.error && { error: s.error }) });
  }
  return id;
}

beforeAll(async () => {
  h = await createHarness({ config: { defaultPlanLimit: 10 } });
  vi.useFakeTimers({ toFake: ['Date'] });
  at(0);
  c = await createProjectAgentCampaign(h);
  other = await createProjectAgentCampaign(h);
});
afterAll(async () => {
  vi.useRealTimers();
  await h?.close();
});

const within10 = (actual: number, expected: number) => expect(Math.abs(actual - expected) / expected, `${actual} against ${expected}`).toBeLessThan(0.1);

describe('step statistics', () => {
  it('counts what the runs did at each step, per version or all, with the last error and its run', async () => {
    await run(c, 1, [{ nodeId: 'n1', status: 'succeeded', ms: 100 }, { nodeId: 'n2', type: 'if', status: 'evaluated' }, { nodeId: 'n3', status: 'succeeded' }]);
    await run(c, 1, [{ nodeId: 'n1', status: 'succeeded', retried: true, ms: 200 }, { nodeId: 'n2', type: 'if', status: 'evaluated' }, { nodeId: 'n4', status: 'skipped' }]);
    const failed = await run(c, 2, [{ nodeId: 'n1', status: 'failed', error: 'contact c_1 not found in location loc', ms: 400 }]);
    await run(c, 2, [{ nodeId: 'n1', status: 'succeeded', ms: 800 }]);
    // Not counted: a test run, and another campaign's run.
    await run(c, 2, [{ nodeId: 'n1', status: 'failed', error: 'a test run failing' }], 'test');
    await run(other, 1, [{ nodeId: 'n1', status: 'failed', error: 'elsewhere' }]);

    const all = await h.api('GET', stats(c.agentId));
    expect(all.status, all.text).toBe(200);
    expectConforms(h.services, 'getWorkflowStepStats', 200, all.body);
    expect(all.body.data).toMatchObject({ window: '7d', version: null });
    expect(Date.parse(all.body.data.until) - Date.parse(all.body.data.since)).toBeGreaterThanOrEqual(7 * 86_400_000);
    const byNode = Object.fromEntries(all.body.data.steps.map((s: { nodeId: string }) => [s.nodeId, s]));
    expect(Object.keys(byNode).sort()).toEqual(['n1', 'n2', 'n3', 'n4']);
    // The retried step counts once, as what it ended as; its failed first attempt is no failure.
    expect(byNode.n1).toMatchObject({ reached: 4, succeeded: 3, failed: 1, skipped: 0, evaluated: 0 });
    expect(byNode.n1.lastError).toMatchObject({ message: 'contact c_1 not found in location loc', executionId: failed });
    expect(byNode.n2).toMatchObject({ reached: 2, evaluated: 2, succeeded: 0, failed: 0, p50Ms: null, p95Ms: null, lastError: null });
    expect(byNode.n4).toMatchObject({ reached: 1, skipped: 1 });
    // Durations 100, 200 (the retry's whole step), 400 and 800 ms.
    within10(byNode.n1.p50Ms, 200);
    within10(byNode.n1.p95Ms, 800);

    const v1 = await h.api('GET', stats(c.agentId, '?version=1&window=24h'));
    expect(v1.status).toBe(200);
    const v1ByNode = Object.fromEntries(v1.body.data.steps.map((s: { nodeId: string }) => [s.nodeId, s]));
    expect(v1.body.data).toMatchObject({ window: '24h', version: 1 });
    expect(v1ByNode.n1).toMatchObject({ reached: 2, succeeded: 2, failed: 0 });
    within10(v1ByNode.n1.p50Ms, 100);
    // The retry's failed attempt was an error all the same: it is the last one of version 1.
    expect(v1ByNode.n1.lastError.message).toBe('timeout talking to the CRM');
    const v2 = await h.api('GET', stats(c.agentId, '?version=2'));
    expect(v2.body.data.steps.map((s: { nodeId: string; reached: number }) => [s.nodeId, s.reached])).toEqual([['n1', 2]]);
    expect((await h.api('GET', stats(c.agentId, '?version=9'))).body.data.steps).toEqual([]);
  });

  it('leaves out steps that started before the window, counted by the hour', async () => {
    const fresh = await createProjectAgentCampaign(h);
    const old = await run(fresh, 1, []);
    await run(fresh, 1, [{ nodeId: 'n1', status: 'succeeded' }]);
    // The first run's step as if it had been written 3 days ago (the port stamps steps with the time now).
    const then = new Date(Date.now() - 3 * 86_400_000).toISOString();
    h.db.prepare("INSERT INTO execution_steps (execution_id, seq, node_id, node_type, status, attempts, error, started_at, finished_at) VALUES (?, 1, 'n1', 'add-tag', 'failed', 1, 'long ago', ?, ?)").run(old, then, then);
    const day = await h.api('GET', stats(fresh.agentId, '?window=24h'));
    expect(day.body.data.steps).toEqual([expect.objectContaining({ nodeId: 'n1', reached: 1, succeeded: 1, failed: 0, lastError: null })]);
    const week = await h.api('GET', stats(fresh.agentId, '?window=7d'));
    expect(week.body.data.steps).toEqual([expect.objectContaining({ nodeId: 'n1', reached: 2, succeeded: 1, failed: 1, lastError: { message: 'long ago', executionId: old, at: then } })]);
  });

  it('refuses a window or version it does not know, naming the field', async () => {
    const bad = await h.api('GET', stats(c.agentId, '?window=1y'));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/query\.window/);
    const zero = await h.api('GET', stats(c.agentId, '?version=0'));
    expect(zero.status).toBe(400);
    expect(zero.body.message).toMatch(/query\.version/);
    expect((await h.api('GET', stats(c.agentId, `?campaignId=${other.campaignId}`))).status).toBe(404);
  });

  it("is the agency's own: another agency's key gets a 404; a project_user sees only its projects", async () => {
    const foreign = await h.api('GET', stats(c.agentId), { key: h.otherAgencyKey });
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain('n1');
    const mine = await h.key({ role: 'project_user', projectIds: [c.projectId] });
    expect((await h.api('GET', stats(c.agentId), { key: mine })).status).toBe(200);
    const notMine = await h.key({ role: 'project_user', projectIds: [other.projectId] });
    expect((await h.api('GET', stats(c.agentId), { key: notMine })).status).toBe(403);
    const noScope = await h.key({ role: 'project_user', projectIds: [c.projectId], scopes: ['calls:read'] });
    expect((await h.api('GET', stats(c.agentId), { key: noScope })).status).toBe(403);
  });
});
