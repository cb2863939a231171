import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../helpers/state.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';

let h: Harness;
beforeAll(async () => {
  // As `npm start` runs it: API and worker in one process, sharing one connection.
  h = await createHarness({ temporal: true, sharedConnection: true });
});
afterAll(async () => h?.close());

/** What a call event may write: a refused delivery writes none of it. */
const CALL_TABLES = ['calls', 'call_events', 'executions', 'execution_steps', 'run_inputs', 'crm_contacts', 'webhook_signatures', 'outbox', 'port_effects'];

describe('one path through every layer (issue 2, item 5)', () => {
  it('append add-tag, post call.ended twice: the contact is tagged once and one execution is stored', async () => {
    const { agentId, campaignId, locationId } = await createProjectAgentCampaign(h);
    const contact = await h.store.crm.createContact(h.agencyId, { locationId, firstName: 'Ana', phone: '+15125550123' });

    const append = await h.api('POST', `/api/agent-builder/agents/${agentId}/campaign/workflow/outcomes/voicemail/nodes`, {
      body: { nodes: [{ type: 'add-tag', config: { tags: ['vm-left'] } }], expectedVersion: 0 },
    });
    expect(append.status, append.text).toBe(200);
    expect(append.body.success).toBe(true);
    expect(append.body.workflow.version).toBe(1);
    expect(append.body.workflow.nodes).toHaveLength(1);
    expect(append.body.workflow.dispositionEntries.VOICEMAIL).toBe(append.body.workflow.nodes[0].id);

    const event = callEnded(campaignId, { contactId: contact.id, disposition: 'VOICEMAIL' });
    const first = await postCallEvent(h, event);
    expect(first.status, first.text).toBe(202);
    expect(first.body.data).toMatchObject({ callId: event.call.callId, duplicate: false, workflowId: `post-call:${h.agencyId}:${event.call.callId}` });
    // The platform re-delivers with a fresh signature (an identical replay is refused, see below).
    const second = await postCallEvent(h, event, { timestamp: Math.floor(Date.now() / 1000) + 1 });
    expect(second.status, second.text).toBe(200);
    expect(second.body.data.duplicate).toBe(true);

    const result = await awaitRun(h, event.call.callId);
    expect(result).toMatchObject({ status: 'succeeded', steps: 1 });
    // The server handed the run's first task straight to the worker sharing the API's connection.
    expect(h.temporal!.stats).toEqual({ started: 1, eagerlyStarted: 1 });

    const tagged = (await h.store.crm.getContact(h.agencyId, locationId, contact.id))!;
    expect(tagged.tags).toEqual(['vm-left']);
    expect(await h.store.effects.countWithPrefix(h.agencyId, `post-call:${h.agencyId}:${event.call.callId}:`)).toBe(1);

    const executions = await h.store.executions.listByAgent(h.agencyId, agentId, 10);
    expect(executions).toHaveLength(1);
    expect(executions[0]).toMatchObject({ callId: event.call.callId, outcome: 'VOICEMAIL', graphVersion: 1, status: 'succeeded' });
    expect(executions[0]!.steps).toEqual([expect.objectContaining({ nodeType: 'add-tag', status: 'succeeded', attempts: 1 })]);
    // The action ran as a local activity, in the run's one workflow task: the history holds its
    // marker and nothing else of it, no activity the server scheduled. The last step closed the
    // execution itself (no second marker for a close), and nothing asked `patched` (no patch
    // marker, no search-attribute upsert).
    const history = await h.temporal!.client.workflow.getHandle(`post-call:${h.agencyId}:${event.call.callId}`).fetchHistory();
    expect(history.events![0]!.workflowExecutionStartedEventAttributes!.workflowType!.name).toBe('postCallLocalRun');
    expect(history.events!.filter((e) => e.markerRecordedEventAttributes).map((e) => e.markerRecordedEventAttributes!.markerName)).toEqual(['core_local_activity']);
    expect(history.events!.filter((e) => e.activityTaskScheduledEventAttributes || e.upsertWorkflowSearchAttributesEventAttributes)).toEqual([]);
    expect(history.events!.filter((e) => e.workflowTaskCompletedEventAttributes)).toHaveLength(1);

    expect((await h.store.calls.get(h.agencyId, event.call.callId))!.doc.disposition).toEqual({ type: 'voicemail', label: 'Voicemail', color: expect.any(String) });
  });

  it('a forged or stale signature is refused and stores nothing', async () => {
    const { campaignId } = await createProjectAgentCampaign(h);
    const event = callEnded(campaignId);
    const before = rowsOf(h.db, CALL_TABLES);
    const forged = await postCallEvent(h, event, { secret: 'whsec_wrong' });
    expect(forged.status).toBe(401);
    const stale = await postCallEvent(h, event, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.status).toBe(401);
    expect(stale.body.message).toContain('tolerance');
    expect(await h.store.calls.get(h.agencyId, event.call.callId)).toBeUndefined();
    expect(rowsOf(h.db, CALL_TABLES)).toEqual(before);
  });

  it('a byte-identical replay of a signed delivery is refused', async () => {
    const { campaignId } = await createProjectAgentCampaign(h);
    const event = callEnded(campaignId);
    const ts = Math.floor(Date.now() / 1000);
    expect((await postCallEvent(h, event, { timestamp: ts })).status).toBe(202);
    await awaitRun(h, event.call.callId);
    const before = rowsOf(h.db, CALL_TABLES);
    const replay = await postCallEvent(h, event, { timestamp: ts });
    expect(replay.status).toBe(401);
    expect(replay.body.message).toContain('replay');
    expect(rowsOf(h.db, CALL_TABLES)).toEqual(before);
  });
});
