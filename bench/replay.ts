/**
 * What-if replay (issue 40, item 7): how long a replay of 200 real calls takes on this machine,
 * from `POST …/workflow/replays` to the end of its Temporal workflow, the product as `npm start`
 * runs it (embedded Temporal, in-process worker). The calls are 200 real runs' stored inputs (as a
 * call's acceptance stores them) on a 12-step graph; the replay compares that version with one that
 * changes a tag, a branch and the SMS. Not a goal: the issue asks for the figure.
 *
 *   npx tsx bench/replay.ts        # BENCH_CALLS=200 BENCH_ROUNDS=5
 */
import { pathToFileURL } from 'node:url';
import { postCallWorkflowId, type PostCallInput } from '../engine/workflows/post-call-types.js';
import { replayWorkflowId } from '../engine/workflows/replay-types.js';
import { emit, median, ROUNDS } from './figures.js';
import { seedCampaign, startInstance } from './support/instance.js';

const graph = (tag: string, longCall: number, sms: string) => ({
  nodes: [
    { id: 'n1', type: 'add-tag', config: { tags: [tag] } },
    { id: 'n2', type: 'if', config: { match: 'all', conditions: [{ field: 'call.duration', op: 'gt', value: longCall }] } },
    { id: 'n3', type: 'send-sms', config: { body: sms } },
    { id: 'n4', type: 'add-note', config: { body: 'Call of {{call.duration}} s: {{call.callSummary}}' } },
    { id: 'n5', type: 'switch', config: { cases: [{ id: 'c_vip', label: 'VIP', match: 'all', conditions: [{ field: 'contact.tags', op: 'contains', value: 'vip' }] }, { id: 'c_new', label: 'New', match: 'all', conditions: [{ field: 'contact.tags', op: 'contains', value: 'new-lead' }] }] } },
    { id: 'n6', type: 'move-stage', config: { pipelineId: 'pl_patients', stageId: 'st_vip' } },
    { id: 'n7', type: 'set-field', config: { field: 'contact.last_voicemail', value: '{{call.dateTime}}' } },
    { id: 'n8', type: 'add-tag', config: { tags: ['follow-up'] } },
    { id: 'n9', type: 'remove-tag', config: { tags: ['new-lead'] } },
    { id: 'n10', type: 'send-email', config: { subject: 'We missed you', body: 'Hi {{contact.firstName}}' } },
    { id: 'n11', type: 'add-note', config: {} },
    { id: 'n12', type: 'add-tag', config: { tags: ['short-call'] } },
  ],
  edges: [
    { id: 'e1', source: 'n1', target: 'n2' },
    { id: 'e2', source: 'n2', target: 'n3', sourceHandle: 'true' },
    { id: 'e3', source: 'n2', target: 'n12', sourceHandle: 'false' },
    { id: 'e4', source: 'n3', target: 'n4' },
    { id: 'e5', source: 'n4', target: 'n5' },
    { id: 'e6', source: 'n5', target: 'n6', sourceHandle: 'c_vip' },
    { id: 'e7', source: 'n5', target: 'n7', sourceHandle: 'c_new' },
    { id: 'e8', source: 'n7', target: 'n8' },
    { id: 'e9', source: 'n8', target: 'n9' },
    { id: 'e10', source: 'n9', target: 'n10' },
    { id: 'e11', source: 'n10', target: 'n11' },
  ],
  dispositionEntries: { VOICEMAIL: 'n1' },
});

export async function run(): Promise<void> {
  const calls = Number(process.env.BENCH_CALLS || 200);
  const inst = await startInstance({ temporal: true });
  try {
    const c = await seedCampaign(inst);
    const wf = `/api/agent-builder/agents/${c.agentId}/campaign/workflow`;
    const v1 = graph('vm-left', 30, 'Hi {{contact.firstName}}, sorry we missed you!');
    const put1 = await inst.api('PUT', wf, { ...v1, expectedVersion: 0 });
    if (put1.status !== 200) throw new Error(`PUT v1: ${JSON.stringify(put1.body)}`);
    if ((await inst.api('PUT', wf, { ...graph('voicemail-left', 15, 'Hi {{contact.firstName}}, we will call you back today.'), expectedVersion: 1 })).status !== 200) throw new Error('PUT v2');
    const stored = await inst.store.workflows.version(inst.agency.id, c.campaignId, 1);
    // 200 real calls as the events endpoint stores them: the execution and the run's exact input.
    const tagsOf = ['vip', 'new-lead', 'lead'];
    for (let i = 0; i < calls; i++) {
      const callId = `bench_call_${i}`;
      const workflowId = postCallWorkflowId(inst.agency.id, callId);
      const executionId = `exe_bench_${i}`;
      await inst.store.executions.create({ id: executionId, agencyId: inst.agency.id, workflowId, campaignId: c.campaignId, agentId: c.agentId, callId, outcome: 'VOICEMAIL', graphVersion: 1 });
      const input: PostCallInput = {
        agencyId: inst.agency.id,
        locationId: c.locationId,
        executionId,
        campaignId: c.campaignId,
        outcome: 'VOICEMAIL',
        graphVersion: 1,
        graph: stored!.graph,
        call: { callId, contactId: `ct_${i}`, phoneNumber: '+15125550123', leadName: `Lead ${i}`, duration: (i * 7) % 60, disposition: 'VOICEMAIL', callSummary: 'Left a voicemail.', transcript: 'Agent: Hello', fields: {}, dateTime: new Date().toISOString() },
        campaign: { callerId: '+15125550100', calendarId: null },
        contact: { id: `ct_${i}`, firstName: `Ana${i}`, tags: [tagsOf[i % 3]!], fields: {} },
        effectScope: workflowId,
      };
      await inst.store.runInputs.put(inst.agency.id, workflowId, input);
    }
    const times: number[] = [];
    let changed = 0;
    for (let r = -1; r < ROUNDS; r++) {
      const t = performance.now();
      const started = await inst.api('POST', `${wf}/replays`, { fromVersion: 1, toVersion: 2 });
      if (started.status !== 202) throw new Error(`replay: ${started.status} ${JSON.stringify(started.body)}`);
      const result = (await inst.temporal!.client.workflow.getHandle(replayWorkflowId(inst.agency.id, started.body.data.id)).result()) as { status: string; replayed: number };
      const ms = performance.now() - t;
      const got = await inst.api('GET', `${wf}/replays/${started.body.data.id}?calls=none`);
      if (result.status !== 'done' || got.body.data.done !== calls) throw new Error(`replay ended ${result.status} with ${got.body.data.done} calls`);
      changed = got.body.data.changed;
      process.stderr.write(`[replay] round ${r}: ${calls} calls in ${ms.toFixed(0)} ms, ${changed} changed\n`);
      if (r >= 0) times.push(ms);
    }
    emit({ name: `replay.${calls}_calls_s`, value: median(times) / 1000, unit: 's', baseline: null, against: `POST …/workflow/replays to the end of its workflow (embedded Temporal, in-process worker, batches of 10, 4 at a time): ${calls} stored calls dry-run through two 12-step versions, ${changed} found changed; median of ${ROUNDS} rounds after a warm-up (${times.map((x) => (x / 1000).toFixed(2)).join(', ')} s)`, rounds: ROUNDS });
  } finally {
    await inst.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
