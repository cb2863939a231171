import { afterAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { PermanentPortError, type Ports } from '../../engine/ports.js';
import { startWorkerProcess, until } from '../helpers/processes.js';

const open: Harness[] = [];
afterAll(async () => {
  for (const h of open) await h.close();
});

describe('faults', () => {
  it('a port that fails twice then succeeds: the effect happens once, the history shows three attempts', async () => {
    let calls = 0;
    const h = await createHarness({
      temporal: true,
      ports: (base): Ports => ({
        ...base,
        crm: {
          ...base.crm,
          addTags: async (e, contactId, tags) => {
            calls += 1;
            if (calls <= 2) throw new Error(`CRM timed out (attempt ${calls})`);
            return base.crm.addTags(e, contactId, tags);
          },
        },
      }),
    });
    open.push(h);
    const ctx = await createProjectAgentCampaign(h);
    const contact = await h.store.crm.createContact(h.agencyId, { locationId: ctx.locationId, phone: '+15125550123' });
    await h.api('POST', `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['vm-left'] } }] } });
    const event = callEnded(ctx.campaignId, { contactId: contact.id });
    await postCallEvent(h, event);
    expect(await awaitRun(h, event.call.callId)).toMatchObject({ status: 'succeeded' });
    expect(calls).toBe(3);
    expect((await h.store.crm.getContact(h.agencyId, ctx.locationId, contact.id))!.tags).toEqual(['vm-left']);
    expect(await h.store.effects.countWithPrefix(h.agencyId, `post-call:${h.agencyId}:${event.call.callId}:`)).toBe(1);
    const [step] = (await h.store.executions.firstOfCall(h.agencyId, event.call.callId))!.steps;
    expect(step).toMatchObject({ status: 'succeeded', attempts: 3, error: null });
  });

  it('retry re-runs a failed run from its failed step', async () => {
    let failing = true;
    const h = await createHarness({
      temporal: true,
      ports: (base): Ports => ({
        ...base,
        crm: {
          ...base.crm,
          moveStage: async (...args) => {
            if (failing) throw new (await import('../../engine/ports.js')).PermanentPortError('pipeline patients has no stage booked');
            return base.crm.moveStage(...args);
          },
        },
      }),
    });
    open.push(h);
    const ctx = await createProjectAgentCampaign(h);
    const contact = await h.store.crm.createContact(h.agencyId, { locationId: ctx.locationId, phone: '+15125550123' });
    const wf = `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow`;
    await h.api('POST', `${wf}/outcomes/SUCCESS/nodes`, {
      body: { nodes: [{ type: 'add-tag', config: { tags: ['won'] } }, { type: 'move-stage', config: { pipelineId: 'patients', stageId: 'booked' } }, { type: 'add-note', config: { body: 'booked' } }] },
    });
    const event = callEnded(ctx.campaignId, { contactId: contact.id, disposition: 'SUCCESS' });
    await postCallEvent(h, event);
    expect(await awaitRun(h, event.call.callId)).toMatchObject({ status: 'failed' });
    const failed = (await h.store.executions.firstOfCall(h.agencyId, event.call.callId))!;
    failing = false;
    const retry = await h.api('POST', `${wf}/executions/${failed.id}/retry`);
    expect(retry.status, retry.text).toBe(202);
    const run = await h.temporal!.client.workflow.getHandle(retry.body.data.workflowId).result();
    expect(run).toMatchObject({ status: 'succeeded', steps: 2 });
    const c = (await h.store.crm.getContact(h.agencyId, ctx.locationId, contact.id))!;
    expect(c).toMatchObject({ tags: ['won'], stageId: 'booked' });
    expect(c.notes).toHaveLength(1);
    // The original is marked as retried, with a link both ways; a second retry of it is refused.
    const original = await h.api('GET', `${wf}/executions/${failed.id}`);
    expect(original.body.data).toMatchObject({ status: 'failed', retriedBy: retry.body.data.id, retryOf: null });
    expect(retry.body.data).toMatchObject({ retryOf: failed.id, retriedBy: null });
    const again = await h.api('POST', `${wf}/executions/${failed.id}/retry`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'CONFLICT', code: 'AlreadyRetried' });
    expect(again.body.message).toContain(retry.body.data.id);
    const second = await h.api('POST', `${wf}/executions/${retry.body.data.id}/retry`);
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('NotFailed');
    expect(h.db.prepare('SELECT count(*) AS n FROM executions WHERE agency_id = ? AND call_id = ?').get(h.agencyId, event.call.callId)).toEqual({ n: 2 });
    expect((await h.store.crm.getContact(h.agencyId, ctx.locationId, contact.id))!.notes).toHaveLength(1);
  });

  it('retries of retries and concurrent retries: each step takes effect once per call, one retry at a time', async () => {
    // move-stage fails in the first run, send-sms in the first retry; both work after that.
    const failures = { moveStage: 1, sendSms: 1 };
    const h = await createHarness({
      temporal: true,
      ports: (base): Ports => ({
        ...base,
        crm: {
          ...base.crm,
          moveStage: async (...args) => {
            if (failures.moveStage-- > 0) throw new PermanentPortError('stage booked is missing');
            return base.crm.moveStage(...args);
          },
        },
        messaging: {
          ...base.messaging,
          sendSms: async (...args) => {
            if (failures.sendSms-- > 0) throw new PermanentPortError('carrier refused the sender');
            return base.messaging.sendSms(...args);
          },
        },
      }),
    });
    open.push(h);
    const ctx = await createProjectAgentCampaign(h);
    const contact = await h.store.crm.createContact(h.agencyId, { locationId: ctx.locationId, phone: '+15125550123' });
    const wf = `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow`;
    await h.api('POST', `${wf}/outcomes/SUCCESS/nodes`, {
      body: { nodes: [{ type: 'add-tag', config: { tags: ['won'] } }, { type: 'move-stage', config: { pipelineId: 'patients', stageId: 'booked' } }, { type: 'add-note', config: { body: 'booked' } }, { type: 'send-sms', config: { body: 'See you soon' } }] },
    });
    const event = callEnded(ctx.campaignId, { contactId: contact.id, disposition: 'SUCCESS' });
    await postCallEvent(h, event);
    expect(await awaitRun(h, event.call.callId)).toMatchObject({ status: 'failed' });
    const first = (await h.store.executions.firstOfCall(h.agencyId, event.call.callId))!;

    // Two retries of the same failed run at once: exactly one starts.
    const racing = await Promise.all([h.api('POST', `${wf}/executions/${first.id}/retry`), h.api('POST', `${wf}/executions/${first.id}/retry`)]);
    expect(racing.map((r) => r.status).sort()).toEqual([202, 409]);
    const r1 = racing.find((r) => r.status === 202)!.body.data;
    expect(racing.find((r) => r.status === 409)!.body.code).toBe('AlreadyRetried');
    expect(await h.temporal!.client.workflow.getHandle(r1.workflowId).result()).toMatchObject({ status: 'failed', failedNodeId: expect.any(String) });

    const r2 = await h.api('POST', `${wf}/executions/${r1.id}/retry`);
    expect(r2.status, r2.text).toBe(202);
    expect(await h.temporal!.client.workflow.getHandle(r2.body.data.workflowId).result()).toMatchObject({ status: 'succeeded', steps: 1 });

    const c = (await h.store.crm.getContact(h.agencyId, ctx.locationId, contact.id))!;
    expect(c).toMatchObject({ tags: ['won'], stageId: 'booked' });
    expect(c.notes).toHaveLength(1);
    expect(h.db.prepare('SELECT count(*) AS n FROM outbox WHERE agency_id = ? AND contact_id = ?').get(h.agencyId, contact.id)).toEqual({ n: 1 });
    // One recorded effect per action node across the three runs, under the call's keys.
    expect(await h.store.effects.countWithPrefix(h.agencyId, `post-call:${h.agencyId}:${event.call.callId}:`)).toBe(4);
    const runs = h.db.prepare('SELECT id, status, retry_of, retried_by FROM executions WHERE agency_id = ? AND call_id = ? ORDER BY started_at').all(h.agencyId, event.call.callId);
    expect(runs).toEqual([
      { id: first.id, status: 'failed', retry_of: null, retried_by: r1.id },
      { id: r1.id, status: 'failed', retry_of: first.id, retried_by: r2.body.data.id },
      { id: r2.body.data.id, status: 'succeeded', retry_of: r1.id, retried_by: null },
    ]);
  });

  it('the worker process is killed mid-chain and another takes over: the chain finishes, each effect exactly once', async () => {
    const h = await createHarness({ temporal: true, worker: false, config: { actionTimeoutSeconds: 3 } });
    open.push(h);
    const ctx = await createProjectAgentCampaign(h);
    const contact = await h.store.crm.createContact(h.agencyId, { locationId: ctx.locationId, firstName: 'Ana', phone: '+15125550123' });
    await h.api('POST', `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`, {
      body: { nodes: [{ type: 'add-tag', config: { tags: ['vm-left'] } }, { type: 'send-sms', config: { body: 'Hi {{contact.firstName}}' } }, { type: 'add-note', config: { body: 'texted' } }] },
    });
    const first = await startWorkerProcess(h);
    const event = callEnded(ctx.campaignId, { contactId: contact.id });
    expect((await postCallEvent(h, event)).status).toBe(202);
    const workflowId = `post-call:${h.agencyId}:${event.call.callId}`;
    // The sandbox carrier takes 1.5 s: kill the worker while the SMS is in flight.
    await until(async () => (await h.store.executions.byWorkflowId(h.agencyId, workflowId))?.steps.some((s) => s.nodeType === 'send-sms' && s.status === 'running'));
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const second = await startWorkerProcess(h);
    try {
      expect(await awaitRun(h, event.call.callId)).toMatchObject({ status: 'succeeded', steps: 3 });
    } finally {
      second.kill('SIGTERM');
    }
    const c = (await h.store.crm.getContact(h.agencyId, ctx.locationId, contact.id))!;
    expect(c.tags).toEqual(['vm-left']);
    expect(c.notes).toHaveLength(1);
    expect(h.db.prepare('SELECT count(*) AS n FROM outbox WHERE contact_id = ?').get(contact.id)).toEqual({ n: 1 });
    expect(await h.store.effects.countWithPrefix(h.agencyId, `${workflowId}:`)).toBe(3);
    const steps = (await h.store.executions.byWorkflowId(h.agencyId, workflowId))!.steps;
    expect(steps.map((s) => [s.nodeType, s.status])).toEqual([['add-tag', 'succeeded'], ['send-sms', 'succeeded'], ['add-note', 'succeeded']]);
    expect(steps[1]!.attempts).toBe(2);
  });
});

