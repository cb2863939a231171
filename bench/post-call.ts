/**
 * Post-call throughput and latency: N signed `call.ended` events with a three-action chain pushed
 * through the HTTP API against the embedded Temporal dev server, measured from "event accepted"
 * (the 202) to "last action done" (the run's result). Baseline: the same three steps as a plain
 * Temporal workflow with no-op activities, started directly, in the same run.
 */
import { postCallWorkflowId } from '../engine/workflows/post-call-types.js';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { signPayload, AGENCY_HEADER, SIGNATURE_HEADER } from '../server/routes/events.js';
import { emit, percentile } from './figures.js';
import { seedCampaign, startInstance } from './support/instance.js';

const N = Number(process.env.BENCH_CALLS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);

async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>) {
  let i = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (i < items.length) await fn(items[i++]!);
  }));
}

export async function run() {
  const inst = await startInstance({ temporal: true });
  try {
    const ctx = await seedCampaign(inst);
    const contact = inst.repos.crm.createContact(inst.agency.id, { locationId: ctx.locationId, firstName: 'Ana', phone: '+15125550123' });
    const wf = `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow`;
    await inst.api('POST', `${wf}/outcomes/VOICEMAIL/nodes`, {
      nodes: [
        { type: 'add-tag', config: { tags: ['vm-left'] } },
        { type: 'set-field', config: { field: 'contact.last_call', value: '{{call.callId}}' } },
        { type: 'add-note', config: { body: 'Left a voicemail: {{call.callSummary}}' } },
      ],
    });

    // Warm-up: the first runs pay for worker caches and connections.
    await drive(inst, ctx.campaignId, contact.id, 10, 'warm');
    const ours = await drive(inst, ctx.campaignId, contact.id, N, 'run');

    const baseline = await baselineRun(inst.address);
    emit({ name: 'post_call_throughput', value: ours.perSecond, unit: 'calls/s', baseline: baseline.perSecond, against: 'plain Temporal workflow, 3 no-op activities' });
    for (const p of [50, 95, 99]) {
      emit({ name: `post_call_latency_p${p}`, value: percentile(ours.latencies, p), unit: 's', baseline: percentile(baseline.latencies, p), against: 'plain Temporal workflow, 3 no-op activities' });
    }
  } finally {
    await inst.stop();
  }
}

async function drive(inst: Awaited<ReturnType<typeof startInstance>>, campaignId: string, contactId: string, n: number, tag: string) {
  const latencies: number[] = [];
  const ids = Array.from({ length: n }, (_, i) => `bench-${tag}-${Date.now()}-${i}`);
  const started = performance.now();
  await pool(ids, CONCURRENCY, async (callId) => {
    const raw = JSON.stringify({ type: 'call.ended', call: { callId, campaignId, contactId, phoneNumber: '+15125550123', disposition: 'VOICEMAIL', dateTime: new Date().toISOString(), callSummary: 'no answer' } });
    const res = await fetch(`${inst.url}/api/events/calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [AGENCY_HEADER]: inst.agency.id, [SIGNATURE_HEADER]: signPayload(inst.agency.signingSecret, raw) },
      body: raw,
    });
    if (res.status !== 202) throw new Error(`event refused: ${res.status} ${await res.text()}`);
    const accepted = performance.now();
    const result = (await inst.temporal!.client.workflow.getHandle(postCallWorkflowId(inst.agency.id, callId)).result()) as { status: string };
    if (result.status !== 'succeeded') throw new Error(`run failed: ${JSON.stringify(result)}`);
    latencies.push((performance.now() - accepted) / 1000);
  });
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(`[post-call] ${tag}: ${n} calls in ${seconds.toFixed(1)} s\n`);
  return { perSecond: n / seconds, latencies: latencies.sort((a, b) => a - b) };
}

async function baselineRun(address: string) {
  const { NativeConnection } = await import('@temporalio/worker');
  const { Client, Connection } = await import('@temporalio/client');
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    taskQueue: 'baseline',
    workflowsPath: path.resolve(import.meta.dirname, 'support/baseline-workflows.ts'),
    activities: { noop: async (step: number) => step },
  });
  const running = worker.run();
  const client = new Client({ connection: await Connection.connect({ address }) });
  const latencies: number[] = [];
  const ids = Array.from({ length: N }, (_, i) => `baseline-${Date.now()}-${i}`);
  const started = performance.now();
  await pool(ids, CONCURRENCY, async (workflowId) => {
    const handle = await client.workflow.start('baselineChain', { taskQueue: 'baseline', workflowId });
    const accepted = performance.now();
    await handle.result();
    latencies.push((performance.now() - accepted) / 1000);
  });
  const seconds = (performance.now() - started) / 1000;
  worker.shutdown();
  await running;
  await client.connection.close();
  await connection.close();
  return { perSecond: N / seconds, latencies: latencies.sort((a, b) => a - b) };
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
