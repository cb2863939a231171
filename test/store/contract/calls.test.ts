import { describe, expect, it } from 'vitest';
import type { CallRecordDoc, ListParams } from '../../../server/store/index.js';
import type { PostCallInput } from '../../../engine/workflows/post-call-types.js';
import { emptyGraph } from '../../../engine/graph/empty.js';
import { DIALECTS, unique, useStore, world } from './dialects.js';

const doc = (callId: string, campaignId: string, dateTime: string, disposition = 'voicemail', contactId = 'ct_1'): Omit<CallRecordDoc, 'id'> => ({
  callId, date: dateTime.slice(0, 10), dateTime, leadName: 'Ana', phoneNumber: '+15125550123', direction: 'outbound', status: 'ended', duration: 30,
  agent: 'Agent', callSummary: 'left a message', projectName: 'B', cost: 0.1, agentType: 'x', campaignId, campaignName: 'Campaign',
  disposition: { type: disposition, label: disposition, color: '#000' }, transcript: 't', fields: [{ key: 'k', value: 1 }], transcriptSource: 'live', contactId,
});

const list = (agencyId: string, p: Partial<ListParams> = {}): ListParams => ({
  agencyId, projects: null, excludeReviewed: 0, disposition: null, campaignId: null, from: null, to: null, cursorAt: null, cursorId: null, limit: 25, ...p,
});

const input = (agencyId: string, executionId: string): PostCallInput => ({
  agencyId, locationId: 'loc', executionId, campaignId: 'cmp', outcome: 'VOICEMAIL', graphVersion: 0, graph: emptyGraph(),
  call: { callId: 'c', contactId: 'ct', phoneNumber: '+1', leadName: 'A', duration: 1, disposition: 'VOICEMAIL', callSummary: '', transcript: '', fields: {}, dateTime: '2026-01-01T00:00:00.000Z' },
  campaign: { callerId: null, calendarId: null }, contact: { tags: [] },
});

describe.each(DIALECTS)('calls, executions, run inputs, alerts, placed calls and signatures on %s', (dialect) => {
  const s = useStore(dialect);

  it('a call is stored with its project time zone; reviewed; per agency', async () => {
    const { agencyId, project, agent, campaign } = await world(s.store);
    const other = await world(s.store);
    const callId = unique('call');
    const stored = await s.store.calls.insert(agencyId, project.id, agent.id, doc(callId, campaign.id, '2026-03-01T10:00:00.000Z'));
    expect(stored.id).toMatch(/^call_/);
    expect(await s.store.calls.get(agencyId, callId)).toEqual({ doc: stored, projectId: project.id, agentId: agent.id, reviewed: false, timezone: 'America/Chicago' });
    expect(await s.store.calls.get(other.agencyId, callId)).toBeUndefined();
    expect(await s.store.calls.setReviewed(agencyId, callId, true)).toBe(true);
    expect((await s.store.calls.get(agencyId, callId))!.reviewed).toBe(true);
    expect(await s.store.calls.setReviewed(other.agencyId, callId, true)).toBe(false);
    // The zone follows the project; a deleted project's calls read no zone.
    await s.store.projects.save({ ...project, timezone: 'Europe/Paris' });
    expect((await s.store.calls.get(agencyId, callId))!.timezone).toBe('Europe/Paris');
    await s.store.projects.save({ ...project, deletedAt: new Date().toISOString() });
    expect((await s.store.calls.get(agencyId, callId))!.timezone).toBeNull();
  });

  it('the call list: newest first, keyset pages, every filter', async () => {
    const { agencyId, project, agent, campaign } = await world(s.store);
    const second = await s.store.projects.insert({ agencyId, crm: 'crm_a', locationId: unique('loc'), timezone: null, agencyName: null, active: true, status: 'live', installed: true, businessName: null });
    const times = ['2026-03-01T10:00:00.000Z', '2026-03-02T10:00:00.000Z', '2026-03-02T10:00:00.000Z', '2026-03-03T10:00:00.000Z', '2026-03-04T10:00:00.000Z'];
    const calls: CallRecordDoc[] = [];
    for (const [i, t] of times.entries()) {
      const callId = unique('call');
      calls.push(await s.store.calls.insert(agencyId, i === 4 ? second.id : project.id, agent.id, doc(callId, i === 3 ? 'cmp_other' : campaign.id, t, i % 2 ? 'callBack' : 'voicemail')));
    }
    await s.store.calls.setReviewed(agencyId, calls[0]!.callId, true);
    const newestFirst = [...calls].sort((a, b) => (a.dateTime > b.dateTime ? -1 : a.dateTime < b.dateTime ? 1 : a.id > b.id ? -1 : 1)).map((c) => c.callId);
    const ids = async (p: Partial<ListParams>) => (await s.store.calls.list(list(agencyId, p))).calls.map((c) => c.doc.callId);
    expect(await ids({})).toEqual(newestFirst);
    // Pages of two, by cursor.
    const seen: string[] = [];
    let cursor: { at: string; id: string } | null = null;
    do {
      const page: Awaited<ReturnType<typeof s.store.calls.list>> = await s.store.calls.list(list(agencyId, { limit: 2, cursorAt: cursor?.at ?? null, cursorId: cursor?.id ?? null }));
      seen.push(...page.calls.map((c) => c.doc.callId));
      cursor = page.next;
    } while (cursor);
    expect(seen).toEqual(newestFirst);
    expect((await s.store.calls.list(list(agencyId, { limit: 5 }))).next).toBeNull();
    expect(await ids({ excludeReviewed: 1 })).toEqual(newestFirst.filter((c) => c !== calls[0]!.callId));
    expect(await ids({ disposition: 'callBack' })).toEqual(newestFirst.filter((c) => [calls[1], calls[3]].some((x) => x!.callId === c)));
    expect(await ids({ campaignId: 'cmp_other' })).toEqual([calls[3]!.callId]);
    expect(await ids({ from: '2026-03-02T10:00:00.000Z', to: '2026-03-04T00:00:00.000Z' })).toEqual(newestFirst.filter((c) => [calls[1], calls[2], calls[3]].some((x) => x!.callId === c)));
    expect(await ids({ projects: JSON.stringify([second.id]) })).toEqual([calls[4]!.callId]);
    expect(await ids({ projects: JSON.stringify([]) })).toEqual([]);
    expect((await s.store.calls.list(list(unique('none')))).calls).toEqual([]);
  });

  it('counts by disposition since a time; a call event is recorded once per call and type', async () => {
    const { agencyId, project, agent, campaign } = await world(s.store);
    for (const [t, d] of [['2026-01-01T00:00:00.000Z', 'voicemail'], ['2026-02-01T00:00:00.000Z', 'voicemail'], ['2026-02-02T00:00:00.000Z', 'callBack'], ['2026-02-03T00:00:00.000Z', 'voicemail']] as const) {
      await s.store.calls.insert(agencyId, project.id, agent.id, doc(unique('call'), campaign.id, t, d));
    }
    expect(await s.store.calls.countByDisposition(agencyId, campaign.id, '2026-02-01T00:00:00.000Z')).toEqual({ voicemail: 2, callBack: 1 });
    expect(await s.store.calls.countByDisposition(agencyId, 'cmp_none', '2026-01-01T00:00:00.000Z')).toEqual({});
    const callId = unique('call');
    expect(await s.store.calls.recordEvent(agencyId, callId, 'call.ended', 'sig1')).toBe(true);
    expect(await s.store.calls.recordEvent(agencyId, callId, 'call.ended', 'sig2')).toBe(false);
    expect(await s.store.calls.recordEvent(agencyId, callId, 'call.started', 'sig3')).toBe(true);
    expect(await s.store.calls.recordEvent(unique('ag'), callId, 'call.ended', 'sig1')).toBe(true);
  });

  it('forgetAccepted removes the call, its event, execution, input and the contact it created', async () => {
    const { agencyId, project, agent, campaign } = await world(s.store);
    const callId = unique('call');
    const workflowId = `post-call:${agencyId}:${callId}`;
    await s.store.calls.recordEvent(agencyId, callId, 'call.ended', unique('sig'));
    await s.store.calls.insert(agencyId, project.id, agent.id, doc(callId, campaign.id, '2026-01-01T00:00:00.000Z'));
    const contact = await s.store.crm.createContact(agencyId, { locationId: project.locationId, phone: '+15550001', fullName: 'X' });
    const exe = unique('exe');
    await s.store.executions.create({ id: exe, agencyId, workflowId, campaignId: campaign.id, agentId: agent.id, callId, outcome: 'VOICEMAIL', graphVersion: 0 });
    await s.store.executions.stepStarted({ executionId: exe, seq: 1, nodeId: 'n1', nodeType: 'send-sms', attempt: 1, input: {} });
    await s.store.runInputs.put(agencyId, workflowId, input(agencyId, exe));
    await s.store.calls.forgetAccepted(agencyId, callId, workflowId, { locationId: project.locationId, contactId: contact.id });
    expect(await s.store.calls.get(agencyId, callId)).toBeUndefined();
    expect(await s.store.executions.byWorkflowId(agencyId, workflowId)).toBeUndefined();
    expect(await s.store.runInputs.get(agencyId, workflowId)).toBeUndefined();
    expect(await s.store.crm.getContact(agencyId, project.locationId, contact.id)).toBeUndefined();
    // Its event is gone: a re-delivery is fresh again.
    expect(await s.store.calls.recordEvent(agencyId, callId, 'call.ended', unique('sig'))).toBe(true);
  });

  it('executions: create once per workflow id, steps, finish, and every read', async () => {
    const { agencyId, agent, campaign } = await world(s.store);
    const other = await world(s.store);
    const id = unique('exe');
    const callId = unique('call');
    const base = { agencyId, campaignId: campaign.id, agentId: agent.id, callId, outcome: 'VOICEMAIL', graphVersion: 3 };
    await s.store.executions.create({ ...base, id, workflowId: `wf_${id}` });
    await s.store.executions.create({ ...base, id: unique('exe'), workflowId: `wf_${id}` });
    const created = (await s.store.executions.get(agencyId, id))!;
    expect(created).toMatchObject({ id, workflowId: `wf_${id}`, status: 'running', kind: 'run', retryOf: null, retriedBy: null, finishedAt: null, error: null, steps: [], graphVersion: 3 });
    expect(await s.store.executions.get(other.agencyId, id)).toBeUndefined();
    expect(await s.store.executions.byWorkflowId(agencyId, `wf_${id}`)).toEqual(created);
    expect(await s.store.executions.firstOfCall(agencyId, callId)).toEqual(created);
    expect(await s.store.executions.byIdAnyAgency(id)).toEqual({ ...created, agencyId });
    expect(await s.store.executions.outcomeOf(id)).toBe('VOICEMAIL');
    expect(await s.store.executions.outcomeOf(unique('none'))).toBeUndefined();
    expect(await s.store.executions.inFlight(agencyId, campaign.id)).toEqual([{ version: 3, n: 1 }]);

    await s.store.executions.stepStarted({ executionId: id, seq: 1, nodeId: 'a', nodeType: 'send-sms', attempt: 1, input: { to: '+1' } });
    await s.store.executions.stepStarted({ executionId: id, seq: 1, nodeId: 'a', nodeType: 'send-sms', attempt: 1, input: { to: '+1' } });
    await s.store.executions.stepFinished({ executionId: id, seq: 1, nodeId: 'a', nodeType: 'send-sms', status: 'succeeded', attempt: 2, output: { id: 'm1' } });
    await s.store.executions.stepFinished({ executionId: id, seq: 2, nodeId: 'b', nodeType: 'branch', status: 'skipped', attempt: 1 });
    await s.store.executions.stepStarted({ executionId: id, seq: 3, nodeId: 'c', nodeType: 'add-tag', attempt: 1, input: null });
    await s.store.executions.stepFinished({ executionId: id, seq: 3, nodeId: 'c', nodeType: 'add-tag', status: 'failed', attempt: 1, error: 'refused' });
    await s.store.executions.finish(id, 'failed', 'refused');
    const done = (await s.store.executions.byIdAnyAgency(id, { forUpdate: true }))!;
    expect(done).toMatchObject({ agencyId, status: 'failed', error: 'refused', finishedAt: expect.any(String) });
    expect(done.steps.map(({ startedAt: _s, finishedAt: _f, ...st }) => st)).toEqual([
      { seq: 1, nodeId: 'a', nodeType: 'send-sms', status: 'succeeded', attempts: 2, input: { to: '+1' }, output: { id: 'm1' }, error: null },
      { seq: 2, nodeId: 'b', nodeType: 'branch', status: 'skipped', attempts: 1, input: null, output: null, error: null },
      { seq: 3, nodeId: 'c', nodeType: 'add-tag', status: 'failed', attempts: 1, input: null, output: null, error: 'refused' },
    ]);
    expect(await s.store.executions.inFlight(agencyId, campaign.id)).toEqual([]);
  });

  it('executions: failed runs listed newest first per project, claimed once for a retry, a retry undone', async () => {
    const { agencyId, project, agent, campaign } = await world(s.store);
    const otherProject = await s.store.projects.insert({ agencyId, crm: 'crm_a', locationId: unique('loc'), timezone: null, agencyName: null, active: true, status: 'live', installed: true, businessName: null });
    const otherCampaign = await s.store.campaigns.insert({ agencyId, projectId: otherProject.id, agentId: agent.id, name: 'O', activeTags: [], inactiveTags: [], dialing: 'pd', agentType: null, fromNumbers: [], active: true, config: {} });
    const make = async (campaignId: string, kind: 'run' | 'test' = 'run') => {
      const id = unique('exe');
      await s.store.executions.create({ id, agencyId, workflowId: `wf_${id}`, campaignId, agentId: agent.id, callId: unique('call'), outcome: 'X', graphVersion: 1, kind });
      await s.store.executions.finish(id, 'failed', 'e');
      return (await s.store.executions.get(agencyId, id))!;
    };
    const a = await make(campaign.id);
    const b = await make(otherCampaign.id);
    const t = await make(campaign.id, 'test');
    const newest = [a, b].sort((x, y) => (x.startedAt > y.startedAt ? -1 : x.startedAt < y.startedAt ? 1 : x.id > y.id ? -1 : 1)).map((e) => e.id);
    expect((await s.store.executions.listFailed(agencyId, null, 10)).map((e) => e.id)).toEqual(newest);
    expect((await s.store.executions.listFailed(agencyId, [otherProject.id], 10)).map((e) => e.id)).toEqual([b.id]);
    expect((await s.store.executions.listFailed(agencyId, [], 10)).map((e) => e.id)).toEqual([]);
    expect((await s.store.executions.listFailed(agencyId, null, 1)).map((e) => e.id)).toEqual(newest.slice(0, 1));
    expect((await s.store.executions.listByAgent(agencyId, agent.id, 10)).map((e) => e.id).sort()).toEqual([a.id, b.id].sort());
    expect((await s.store.executions.listByAgent(agencyId, agent.id, 10, 'test')).map((e) => e.id)).toEqual([t.id]);

    const retry = unique('exe');
    expect(await s.store.executions.claimRetry(agencyId, a.id, retry)).toBe(true);
    expect(await s.store.executions.claimRetry(agencyId, a.id, unique('exe'))).toBe(false);
    expect(await s.store.executions.claimRetry(agencyId, unique('none'), retry)).toBe(false);
    await s.store.executions.create({ id: retry, agencyId, workflowId: `wf_${a.id}:retry:${retry}`, campaignId: campaign.id, agentId: agent.id, callId: a.callId, outcome: 'X', graphVersion: 1, retryOf: a.id });
    await s.store.runInputs.put(agencyId, `wf_${a.id}:retry:${retry}`, input(agencyId, retry));
    expect((await s.store.executions.get(agencyId, a.id))!.retriedBy).toBe(retry);
    expect((await s.store.executions.get(agencyId, retry))!.retryOf).toBe(a.id);
    expect((await s.store.executions.listFailed(agencyId, null, 10)).map((e) => e.id)).toEqual([b.id]);
    expect((await s.store.executions.firstOfCall(agencyId, a.callId))!.id).toBe(a.id);
    await s.store.executions.undoRetry(agencyId, a.id, retry);
    expect(await s.store.executions.get(agencyId, retry)).toBeUndefined();
    expect(await s.store.runInputs.get(agencyId, `wf_${a.id}:retry:${retry}`)).toBeUndefined();
    expect((await s.store.executions.get(agencyId, a.id))!.retriedBy).toBeNull();
    // A running run cannot be claimed.
    const running = unique('exe');
    await s.store.executions.create({ id: running, agencyId, workflowId: `wf_${running}`, campaignId: campaign.id, agentId: agent.id, callId: unique('call'), outcome: 'X', graphVersion: 1 });
    expect(await s.store.executions.claimRetry(agencyId, running, unique('exe'))).toBe(false);
  });

  it('run inputs: put once, read per agency', async () => {
    const a = unique('ag');
    const wf = unique('wf');
    await s.store.runInputs.put(a, wf, input(a, 'exe_1'));
    await s.store.runInputs.put(a, wf, input(a, 'exe_2'));
    expect(await s.store.runInputs.get(a, wf)).toEqual(input(a, 'exe_1'));
    expect(await s.store.runInputs.get(unique('ag'), wf)).toBeUndefined();
  });

  it('alerts: recorded, waiting until dispatched, delivery and email marks, listed newest first', async () => {
    const { agencyId } = await world(s.store);
    const first = await s.store.alerts.record(agencyId, 'run.failed', { executionId: 'e1' });
    const second = await s.store.alerts.record(agencyId, 'project.disconnected', { projectId: 'p' });
    expect(first).toMatch(/^alr_/);
    const a = (await s.store.alerts.get(agencyId, first))!;
    expect(a).toMatchObject({ agencyId, id: first, kind: 'run.failed', payload: { executionId: 'e1' }, dispatchedAt: null, deliveredAt: null, emailedAt: null, attempts: 0, lastError: null });
    expect(await s.store.alerts.get(unique('ag'), first)).toBeUndefined();
    const waiting = (await s.store.alerts.waiting(1000)).filter((x) => x.agencyId === agencyId).map((x) => x.id);
    expect(waiting.sort()).toEqual([first, second].sort());
    await s.store.alerts.markDispatched(agencyId, first);
    const dispatchedAt = (await s.store.alerts.get(agencyId, first))!.dispatchedAt;
    expect(dispatchedAt).toEqual(expect.any(String));
    await s.store.alerts.markDispatched(agencyId, first);
    expect((await s.store.alerts.get(agencyId, first))!.dispatchedAt).toBe(dispatchedAt);
    expect((await s.store.alerts.waiting(1000)).map((x) => x.id)).not.toContain(first);
    await s.store.alerts.noteFailedAttempt(agencyId, first, 'x'.repeat(600));
    expect(await s.store.alerts.get(agencyId, first)).toMatchObject({ attempts: 1, lastError: 'x'.repeat(500) });
    await s.store.alerts.markDelivered(agencyId, first);
    const delivered = (await s.store.alerts.get(agencyId, first))!;
    expect(delivered).toMatchObject({ attempts: 2, lastError: null, deliveredAt: expect.any(String) });
    await s.store.alerts.markDelivered(agencyId, first);
    expect((await s.store.alerts.get(agencyId, first))!.deliveredAt).toBe(delivered.deliveredAt);
    await s.store.alerts.markEmailed(agencyId, first);
    expect((await s.store.alerts.get(agencyId, first))!.emailedAt).toEqual(expect.any(String));
    const listed = (await s.store.alerts.list(agencyId)).map((x) => x.id);
    expect(listed.sort()).toEqual([first, second].sort());
    expect(await s.store.alerts.list(agencyId, 1)).toHaveLength(1);
  });

  it('placed calls: recorded once, the platform id filled in later, found by either id', async () => {
    const a = unique('ag');
    const callId = unique('call');
    await s.store.placedCalls.record({ agencyId: a, callId, platform: 'vapi', platformCallId: null, campaignId: 'cmp', contactId: 'ct' });
    expect(await s.store.placedCalls.get(a, callId)).toMatchObject({ agencyId: a, callId, platform: 'vapi', platformCallId: null, leadId: null, placedAt: expect.any(String) });
    await s.store.placedCalls.record({ agencyId: a, callId, platform: 'vapi', platformCallId: 'v_1', campaignId: 'cmp', contactId: 'ct', leadId: 'lead_1' });
    await s.store.placedCalls.record({ agencyId: a, callId, platform: 'vapi', platformCallId: null, campaignId: 'cmp', contactId: 'ct' });
    expect(await s.store.placedCalls.get(a, callId)).toMatchObject({ platformCallId: 'v_1', leadId: null });
    expect((await s.store.placedCalls.byPlatformId(a, 'vapi', 'v_1'))!.callId).toBe(callId);
    expect(await s.store.placedCalls.byPlatformId(unique('ag'), 'vapi', 'v_1')).toBeUndefined();
    expect(await s.store.placedCalls.get(a, unique('none'))).toBeUndefined();
  });

  it('webhook signatures: claimed once per agency and source', async () => {
    const a = unique('ag');
    const sig = unique('sig');
    expect(await s.store.webhookSignatures.claim(a, 'calls', sig, 300)).toBe(true);
    expect(await s.store.webhookSignatures.claim(a, 'calls', sig, 300)).toBe(false);
    expect(await s.store.webhookSignatures.claim(a, 'vapi', sig, 300)).toBe(true);
    expect(await s.store.webhookSignatures.claim(unique('ag'), 'calls', sig, 300)).toBe(true);
  });
});
