import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';

let h: Harness;
/** how many times the activities asked the CRM for a location's custom values */
let customValueReads = 0;
beforeAll(async () => {
  h = await createHarness({
    temporal: true,
    config: { defaultPlanLimit: 100, rateLimitPoints: 100000 },
    ports: (base) => ({ ...base, crm: { ...base.crm, customValues: (a, l) => (customValueReads++, base.crm.customValues(a, l)) } }),
  });
});
afterAll(async () => h?.close());

type Node = { id: string; type: string; config: Record<string, unknown>; position?: { x: number; y: number } };

/** A fresh campaign whose graph is exactly `nodes`/`edges`, a contact, and a run of one call through it. */
async function runChain(opts: {
  nodes: Node[];
  edges?: { id: string; source: string; target: string; sourceHandle?: string }[];
  outcome?: string;
  fields?: { key: string; value: unknown }[];
  contact?: Record<string, unknown>;
  campaignConfig?: Record<string, unknown>;
  fromNumbers?: string[];
  /** run on this project's campaign instead of a fresh one (same location, same calendars) */
  on?: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
}) {
  const ctx = opts.on ?? (await createProjectAgentCampaign(h));
  if (!opts.on) await h.store.crm.addCustomValue(h.agencyId, ctx.locationId, 'Business name', 'business_name', 'Bright Smile Dental');
  const campaign = (await h.store.campaigns.get(h.agencyId, ctx.campaignId))!;
  await h.store.campaigns.save({ ...campaign, fromNumbers: opts.fromNumbers ?? ['+15125550100'], config: { ...campaign.config, ...(opts.campaignConfig ?? {}) } });
  const contact = await h.store.crm.createContact(h.agencyId, { locationId: ctx.locationId, firstName: 'Ana', lastName: 'Lopez', fullName: 'Ana Lopez', phone: '+15125550123', email: 'ana@clinic.dental', ...(opts.contact ?? {}) });
  const outcome = opts.outcome ?? 'VOICEMAIL';
  const put = await h.api('PUT', `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow`, {
    body: {
      nodes: opts.nodes.map((n, i) => ({ position: { x: 0, y: i * 140 }, ...n })),
      edges: opts.edges ?? opts.nodes.slice(1).map((n, i) => ({ id: `e${i}`, source: opts.nodes[i]!.id, target: n.id })),
      dispositionEntries: { [outcome]: opts.nodes[0]!.id },
      expectedVersion: (await h.store.workflows.get(h.agencyId, ctx.campaignId)).version,
    },
  });
  expect(put.status, put.text).toBe(200);
  const event = callEnded(ctx.campaignId, { contactId: contact.id, disposition: outcome, fields: opts.fields, callSummary: 'Patient booked a cleaning.' });
  expect((await postCallEvent(h, event)).status).toBe(202);
  const result = await awaitRun(h, event.call.callId);
  const execution = (await h.store.executions.firstOfCall(h.agencyId, event.call.callId))!;
  return { ...ctx, contact: async () => (await h.store.crm.getContact(h.agencyId, ctx.locationId, contact.id))!, contactId: contact.id, result, execution, callId: event.call.callId };
}

const outbox = (contactId: string) => h.db.prepare('SELECT channel, recipient, sender, subject, body, status FROM outbox WHERE contact_id = ?').all(contactId) as Record<string, string>[];

describe('every action against the embedded ports, on real Temporal', () => {
  it('add-tag and remove-tag', async () => {
    const r = await runChain({ contact: { tags: ['new-lead', 'stale'] }, nodes: [{ id: 'a', type: 'add-tag', config: { tags: ['vm-left'] } }, { id: 'b', type: 'remove-tag', config: { tags: ['stale'] } }] });
    expect(r.result).toMatchObject({ status: 'succeeded', steps: 2 });
    expect((await r.contact()).tags).toEqual(['new-lead', 'vm-left']);
    expect(r.execution.steps.map((s) => [s.nodeId, s.status, s.attempts])).toEqual([['a', 'succeeded', 1], ['b', 'succeeded', 1]]);
    expect(r.execution.steps[0]!.output).toEqual({ tags: ['new-lead', 'stale', 'vm-left'] });
  });

  it('set-field renders a token from the call fields', async () => {
    const r = await runChain({ outcome: 'CALLBACK', fields: [{ key: 'callback_time', value: '2026-11-23T15:00:00Z' }], nodes: [{ id: 's', type: 'set-field', config: { field: 'contact.callback_time', value: '{{call.fields.callback_time}}' } }] });
    expect((await r.contact()).fields).toEqual({ callback_time: '2026-11-23T15:00:00Z' });
    expect(r.execution.steps[0]).toMatchObject({ status: 'succeeded', input: { field: 'contact.callback_time', value: '2026-11-23T15:00:00Z' } });
  });

  it('move-stage', async () => {
    const r = await runChain({ outcome: 'SUCCESS', nodes: [{ id: 'm', type: 'move-stage', config: { pipelineId: 'patients', stageId: 'booked' } }] });
    expect((await r.contact())).toMatchObject({ pipelineId: 'patients', stageId: 'booked' });
  });

  it("reads the location's custom values only for a step whose templates name them", async () => {
    const before = customValueReads;
    const r = await runChain({
      outcome: 'SUCCESS',
      nodes: [
        { id: 't', type: 'add-tag', config: { tags: ['called'] } },
        { id: 'n', type: 'add-note', config: { body: 'From {{custom_values.business_name}}: {{call.callSummary}}' } },
        { id: 'f', type: 'set-field', config: { field: 'contact.last_summary', value: '{{call.callSummary}}' } },
      ],
    });
    expect(r.result).toMatchObject({ status: 'succeeded', steps: 3 });
    expect((await r.contact()).notes!.map((n) => n.body)).toEqual(['From Bright Smile Dental: Patient booked a cleaning.']);
    expect(customValueReads - before).toBe(1);
  });

  it('add-note renders the call summary', async () => {
    const r = await runChain({ outcome: 'SUCCESS', nodes: [{ id: 'n', type: 'add-note', config: { body: 'Summary: {{call.callSummary}}' } }] });
    expect((await r.contact()).notes!.map((n) => n.body)).toEqual(['Summary: Patient booked a cleaning.']);
  });

  it('send-sms lands in the outbox once, rendered, from the campaign caller ID', async () => {
    const r = await runChain({ nodes: [{ id: 'sms', type: 'send-sms', config: { body: 'Hi {{contact.firstName}}, this is {{custom_values.business_name}} — sorry we missed you!' } }] });
    expect(outbox(r.contactId)).toEqual([
      { channel: 'sms', recipient: '+15125550123', sender: '+15125550100', subject: null, body: 'Hi Ana, this is Bright Smile Dental — sorry we missed you!', status: 'delivered' },
    ]);
    expect(r.execution.steps[0]!.output).toMatchObject({ status: 'delivered', body: 'Hi Ana, this is Bright Smile Dental — sorry we missed you!' });
  });

  it('send-email to the contact', async () => {
    const r = await runChain({ nodes: [{ id: 'em', type: 'send-email', config: { subject: 'We missed you, {{contact.firstName}}', body: 'Call {{custom_values.business_name}} back.' } }] });
    expect(outbox(r.contactId)).toEqual([{ channel: 'email', recipient: 'ana@clinic.dental', sender: null, subject: 'We missed you, Ana', body: 'Call Bright Smile Dental back.', status: 'delivered' }]);
  });

  it('book-appointment books the recorded time; the same slot again is a failed run with the failing step', async () => {
    const slot = '2026-12-01T15:00:00.000Z';
    const config = { campaignConfig: { calendarId: 'cal_1' }, outcome: 'SUCCESS', fields: [{ key: 'appointment_time', value: slot }] };
    const r = await runChain({ ...config, nodes: [{ id: 'book', type: 'book-appointment', config: { durationMinutes: 45 } }] });
    expect(r.result).toMatchObject({ status: 'succeeded' });
    const booked = h.db.prepare('SELECT calendar_id, starts_at, ends_at FROM appointments WHERE contact_id = ?').all(r.contactId);
    expect(booked).toEqual([{ calendar_id: 'cal_1', starts_at: slot, ends_at: '2026-12-01T15:45:00.000Z' }]);

    // Another call of the same location asks for an overlapping slot on the same calendar.
    const again = await runChain({ ...config, on: r, nodes: [{ id: 'book', type: 'book-appointment', config: { durationMinutes: 30 } }, { id: 'after', type: 'add-tag', config: { tags: ['booked'] } }] });
    expect(again.result).toMatchObject({ status: 'failed', failedNodeId: 'book' });
    expect(again.execution.status).toBe('failed');
    expect(again.execution.error).toMatch(/already booked/);
    // Permanent: not retried, and the chain stopped there.
    expect(again.execution.steps.map((s) => [s.nodeId, s.status, s.attempts])).toEqual([['book', 'failed', 1]]);
    expect((await again.contact()).tags).toEqual([]);
    const api = await h.api('GET', `/api/agent-builder/agents/${again.agentId}/campaign/workflow/executions/${again.execution.id}`);
    expect(api.body.data).toMatchObject({ status: 'failed', steps: [{ nodeId: 'book', status: 'failed', error: expect.stringMatching(/already booked/) }] });
  });
});

describe('branches', () => {
  const ifGraph = (field: string) => ({
    outcome: 'CALLBACK',
    nodes: [
      { id: 'cond', type: 'if', config: { match: 'all', conditions: [{ field, op: 'exists' }] } },
      { id: 'yes', type: 'set-field', config: { field: 'contact.callback_time', value: '{{call.fields.callback_time}}' } },
      { id: 'no', type: 'add-tag', config: { tags: ['callback-unscheduled'] } },
    ],
    edges: [
      { id: 'e1', source: 'cond', target: 'yes', sourceHandle: 'true' },
      { id: 'e2', source: 'cond', target: 'no', sourceHandle: 'false' },
    ],
  });

  it('if: true and false paths, the evaluation recorded as a step', async () => {
    const yes = await runChain({ ...ifGraph('call.fields.callback_time'), fields: [{ key: 'callback_time', value: '2026-11-23T15:00:00Z' }] });
    expect((await yes.contact())).toMatchObject({ fields: { callback_time: '2026-11-23T15:00:00Z' }, tags: [] });
    expect(yes.execution.steps.map((s) => [s.nodeId, s.status])).toEqual([['cond', 'evaluated'], ['yes', 'succeeded']]);
    expect(yes.execution.steps[0]!.output).toEqual({ handle: 'true' });
    const no = await runChain(ifGraph('call.fields.callback_time'));
    expect((await no.contact())).toMatchObject({ fields: {}, tags: ['callback-unscheduled'] });
    expect(no.execution.steps.map((s) => s.nodeId)).toEqual(['cond', 'no']);
  });

  it('switch: the first matching case, else default; drafts are skipped and recorded', async () => {
    const graph = (duration: number) => ({
      outcome: 'NO_ACTION',
      nodes: [
        { id: 'sw', type: 'switch', config: { cases: [{ id: 'long', label: 'Long call', match: 'all', conditions: [{ field: 'call.duration', op: 'gte', value: duration }] }, { id: 'vip', label: 'VIP', match: 'any', conditions: [{ field: 'contact.tags', op: 'contains', value: 'vip' }] }] } },
        { id: 'l', type: 'add-tag', config: { tags: ['long'] } },
        { id: 'd', type: 'add-tag', config: {} },
        { id: 'd2', type: 'add-tag', config: { tags: ['short'] } },
      ],
      edges: [
        { id: 'e1', source: 'sw', target: 'l', sourceHandle: 'long' },
        { id: 'e2', source: 'sw', target: 'd', sourceHandle: 'default' },
        { id: 'e3', source: 'd', target: 'd2' },
      ],
    });
    const long = await runChain(graph(30));
    expect((await long.contact()).tags).toEqual(['long']);
    expect(long.execution.steps[0]!.output).toEqual({ handle: 'long' });
    const short = await runChain(graph(100));
    expect((await short.contact()).tags).toEqual(['short']);
    expect(short.execution.steps.map((s) => [s.nodeId, s.status])).toEqual([['sw', 'evaluated'], ['d', 'skipped'], ['d2', 'succeeded']]);
  });
});

describe('branch conditions see the contact as earlier steps left it', () => {
  it('a tag added earlier in the chain is visible to a later if', async () => {
    const r = await runChain({
      nodes: [
        { id: 'tag', type: 'add-tag', config: { tags: ['vip'] } },
        { id: 'cond', type: 'if', config: { match: 'all', conditions: [{ field: 'contact.tags', op: 'contains', value: 'vip' }] } },
        { id: 'yes', type: 'add-tag', config: { tags: ['saw-vip'] } },
      ],
      edges: [
        { id: 'e1', source: 'tag', target: 'cond' },
        { id: 'e2', source: 'cond', target: 'yes', sourceHandle: 'true' },
      ],
    });
    expect((await r.contact()).tags).toEqual(['vip', 'saw-vip']);
  });
});

describe('version pinning', () => {
  it('a graph edit made while a run is in flight does not change that run', async () => {
    const ctx = await createProjectAgentCampaign(h);
    const contact = await h.store.crm.createContact(h.agencyId, { locationId: ctx.locationId, firstName: 'Ana', phone: '+15125550123' });
    const wf = `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow`;
    const appended = await h.api('POST', `${wf}/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['v1'] } }] } });
    expect(appended.status, appended.text).toBe(200);
    const tagNode = appended.body.workflow.nodes[0].id as string;
    // Stop the worker so the run waits, edit the graph, then let the run go.
    await h.restartWorker(undefined, { startAgain: false });
    const event = callEnded(ctx.campaignId, { contactId: contact.id });
    expect((await postCallEvent(h, event)).status).toBe(202);
    const patched = await h.api('PATCH', wf, { body: { nodes: [{ id: tagNode, config: { tags: ['v2'] } }], expectedVersion: 1 } });
    expect(patched.status, patched.text).toBe(200);
    // The patch is stored: version 2, the step's new tag, the graph otherwise the same.
    const stored = (await h.api('GET', wf)).body.data;
    expect(stored.version).toBe(2);
    expect(stored.nodes.map((n: Node) => [n.id, n.config])).toEqual([[tagNode, { tags: ['v2'] }]]);
    expect(stored.dispositionEntries).toEqual({ VOICEMAIL: tagNode });
    expect((await h.store.workflows.version(h.agencyId, ctx.campaignId, 1))!.graph.nodes[0]!.config).toEqual({ tags: ['v1'] });
    await h.restartWorker();
    await awaitRun(h, event.call.callId);

    // The run used the graph pinned when the call ended: its recorded step applied v1.
    const run = (await h.store.executions.firstOfCall(h.agencyId, event.call.callId))!;
    expect(run).toMatchObject({ graphVersion: 1, status: 'succeeded' });
    expect(run.steps.map((st) => ({ nodeId: st.nodeId, nodeType: st.nodeType, status: st.status }))).toEqual([{ nodeId: tagNode, nodeType: 'add-tag', status: 'succeeded' }]);
    expect(JSON.stringify(run.steps[0]!.input)).toContain('v1');
    expect(JSON.stringify(run.steps[0]!.input)).not.toContain('v2');
    expect((await h.store.crm.getContact(h.agencyId, ctx.locationId, contact.id))!.tags).toEqual(['v1']);

    // The next call runs the patched graph.
    const next = callEnded(ctx.campaignId, { contactId: contact.id });
    expect((await postCallEvent(h, next)).status).toBe(202);
    await awaitRun(h, next.call.callId);
    expect(await h.store.executions.firstOfCall(h.agencyId, next.call.callId)).toMatchObject({ graphVersion: 2, status: 'succeeded' });
    expect((await h.store.crm.getContact(h.agencyId, ctx.locationId, contact.id))!.tags).toEqual(['v1', 'v2']);
  });
});
