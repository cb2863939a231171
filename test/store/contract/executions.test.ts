import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyGraph } from '../../../engine/graph/empty.js';
import type { ReplayCallResult } from '../../../server/store/index.js';
import { DIALECTS, unique, useStore, world } from './dialects.js';

const HOUR = 3_600_000;

describe.each(DIALECTS)('step statistics, recent runs and what-if replays on %s', (dialect) => {
  const s = useStore(dialect);
  afterEach(() => vi.useRealTimers());

  /** A run whose steps take the given milliseconds (the clock is Date's, faked: the store's I/O runs on). */
  async function run(campaign: { id: string; agentId: string }, agencyId: string, at: number, opts: { version?: number; kind?: 'run' | 'test'; retryOf?: string; steps: { nodeId: string; nodeType: string; status: string; ms?: number; error?: string }[] }) {
    const id = unique('exe');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(at);
    await s.store.executions.create({ id, agencyId, workflowId: `wf_${id}`, campaignId: campaign.id, agentId: campaign.agentId, callId: unique('call'), outcome: 'VOICEMAIL', graphVersion: opts.version ?? 1, kind: opts.kind, retryOf: opts.retryOf });
    let t = at;
    for (const [seq, st] of opts.steps.entries()) {
      vi.setSystemTime(t);
      await s.store.executions.stepStarted({ executionId: id, seq, nodeId: st.nodeId, nodeType: st.nodeType, attempt: 1, input: {} });
      t += st.ms ?? 0;
      vi.setSystemTime(t);
      await s.store.executions.stepFinished({ executionId: id, seq, nodeId: st.nodeId, nodeType: st.nodeType, status: st.status, attempt: 1, ...(st.error && { error: st.error }) });
    }
    vi.useRealTimers();
    return id;
  }

  it('counts what the real runs did at each step over a window and a version, with percentiles and the last error', async () => {
    const { agencyId, agent, campaign } = await world(s.store);
    const c = { id: campaign.id, agentId: agent.id };
    const now = Date.now();
    const tag = (ms: number) => ({ nodeId: 'n1', nodeType: 'add-tag', status: 'succeeded', ms });
    await run(c, agencyId, now - 3 * HOUR, { steps: [tag(100), { nodeId: 'n2', nodeType: 'if-else', status: 'evaluated' }] });
    await run(c, agencyId, now - 2 * HOUR, { steps: [tag(200), { nodeId: 'n3', nodeType: 'send-sms', status: 'failed', ms: 50, error: 'first failure' }] });
    const lastFailed = await run(c, agencyId, now - HOUR, { steps: [tag(400), { nodeId: 'n3', nodeType: 'send-sms', status: 'failed', ms: 60, error: 'carrier refused' }] });
    await run(c, agencyId, now - HOUR, { version: 2, steps: [tag(800), { nodeId: 'n4', nodeType: 'add-note', status: 'skipped' }] });
    // Left out: a test run, and a run of three days ago (outside a 24-hour window).
    await run(c, agencyId, now - HOUR, { kind: 'test', steps: [tag(5000)] });
    await run(c, agencyId, now - 72 * HOUR, { steps: [tag(5000)] });
    const since = new Date(now - 24 * HOUR).toISOString();
    const byNode = async (version: number | null) => Object.fromEntries((await s.store.executions.stepStats({ agencyId, campaignId: campaign.id, since, version })).map((x) => [x.nodeId, x]));

    const all = await byNode(null);
    expect(Object.keys(all).sort()).toEqual(['n1', 'n2', 'n3', 'n4']);
    expect(all.n1).toMatchObject({ reached: 4, succeeded: 4, failed: 0, skipped: 0, evaluated: 0, lastError: null });
    // Nearest rank of 100, 200, 400, 800 ms: p50 the 2nd, p95 the 4th (within 10%).
    expect(all.n1!.p50Ms! / 200).toBeGreaterThan(0.9);
    expect(all.n1!.p50Ms! / 200).toBeLessThan(1.1);
    expect(all.n1!.p95Ms! / 800).toBeGreaterThan(0.9);
    expect(all.n1!.p95Ms! / 800).toBeLessThan(1.1);
    expect(all.n2).toMatchObject({ reached: 1, evaluated: 1, p50Ms: null });
    expect(all.n3).toMatchObject({ reached: 2, failed: 2, lastError: { message: 'carrier refused', executionId: lastFailed } });
    expect(all.n4).toMatchObject({ reached: 1, skipped: 1 });

    const v1 = await byNode(1);
    expect(v1.n1).toMatchObject({ reached: 3, succeeded: 3 });
    expect(v1.n4).toBeUndefined();
    // Another agency's campaign id answers nothing.
    const other = await world(s.store);
    expect(await s.store.executions.stepStats({ agencyId: other.agencyId, campaignId: campaign.id, since, version: null })).toEqual([]);
  });

  it('recent runs: real first runs only, newest first, without their steps, at most the limit', async () => {
    const { agencyId, agent, campaign } = await world(s.store);
    const c = { id: campaign.id, agentId: agent.id };
    const now = Date.now();
    const older = await run(c, agencyId, now - 3 * HOUR, { steps: [{ nodeId: 'n1', nodeType: 'add-tag', status: 'failed', error: 'x' }] });
    const newer = await run(c, agencyId, now - 2 * HOUR, { steps: [{ nodeId: 'n1', nodeType: 'add-tag', status: 'succeeded' }] });
    await run(c, agencyId, now - HOUR, { retryOf: older, steps: [] });
    await run(c, agencyId, now - HOUR, { kind: 'test', steps: [] });
    await run(c, agencyId, now - 72 * HOUR, { steps: [] });
    const since = new Date(now - 24 * HOUR).toISOString();
    const runs = await s.store.executions.recentRuns({ agencyId, campaignId: campaign.id, since, limit: 10 });
    expect(runs.map((r) => r.id)).toEqual([newer, older]);
    expect(runs.every((r) => r.steps.length === 0 && r.kind === 'run')).toBe(true);
    expect((await s.store.executions.recentRuns({ agencyId, campaignId: campaign.id, since, limit: 1 })).map((r) => r.id)).toEqual([newer]);
  });

  it('a replay stores each call once, counts it once, and takes nothing after it is cancelled', async () => {
    const { agencyId, agent, campaign } = await world(s.store);
    const id = unique('rpl');
    const job = await s.store.replays.create({ id, agencyId, campaignId: campaign.id, agentId: agent.id, fromVersion: 0, toVersion: null, fromGraph: emptyGraph(), toGraph: emptyGraph(), since: new Date().toISOString(), maxCalls: 200, keyId: null });
    expect(job).toMatchObject({ id, status: 'running', total: null, done: 0, changed: 0, error: null, finishedAt: null });
    expect(await s.store.replays.countRunning(agencyId)).toBe(1);
    expect(await s.store.replays.planned(agencyId, id, 2)).toBe(true);
    const result = (seq: number, changed: boolean): ReplayCallResult => ({ seq, executionId: `exe_${seq}`, callId: `call_${seq}`, outcome: 'VOICEMAIL', at: new Date().toISOString(), leadName: 'Ana', before: null, after: null, changed, error: null, contactRead: false });
    expect(await s.store.replays.addResult(agencyId, id, result(1, true))).toBe(true);
    expect(await s.store.replays.addResult(agencyId, id, result(1, true))).toBe(true);
    expect(await s.store.replays.get(agencyId, id)).toMatchObject({ total: 2, done: 1, changed: 1 });
    expect(await s.store.replays.cancel(agencyId, id)).toBe(true);
    expect(await s.store.replays.cancel(agencyId, id)).toBe(false);
    expect(await s.store.replays.addResult(agencyId, id, result(2, false))).toBe(false);
    await s.store.replays.finish(agencyId, id, 'done', null);
    expect(await s.store.replays.get(agencyId, id)).toMatchObject({ status: 'cancelled', done: 1 });
    expect((await s.store.replays.results(agencyId, id)).map((r) => r.seq)).toEqual([1]);
    expect(await s.store.replays.countRunning(agencyId)).toBe(0);
    const other = await world(s.store);
    expect(await s.store.replays.get(other.agencyId, id)).toBeUndefined();
  });
});
