/**
 * API requests/s and p99 for the hot read and write paths, each beside a bare Koa JSON endpoint
 * on the same machine in the same run (what Node + Koa give with no auth, validation or store).
 * Load from autocannon on loopback, 10 connections, a few seconds per figure.
 */
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { emit } from './figures.js';
import { seedCampaign, startInstance } from './support/instance.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

function load(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 10, duration: SECONDS, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

async function bareKoa() {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = { success: true, data: { hello: 'world' } };
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const result = await load({ url });
  server.close();
  return result;
}

export async function run() {
  const baseline = await bareKoa();
  const inst = await startInstance({ temporal: false });
  try {
    const ctx = await seedCampaign(inst);
    const wf = `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow`;
    await inst.api('POST', `${wf}/outcomes/VOICEMAIL/nodes`, { nodes: [{ type: 'add-tag', config: { tags: ['a'] } }, { type: 'add-note', config: { body: 'n' } }] });
    // A stored call to read back by id.
    const doc = { callId: 'bench-call', date: '2026-11-22', dateTime: new Date().toISOString(), leadName: 'Ana', phoneNumber: '+15125550123', direction: 'outbound', status: 'ended', duration: 42, agent: 'Bench', callSummary: 's', projectName: 'p', cost: 0.1, agentType: 'appointment_booking', campaignId: ctx.campaignId, campaignName: 'c', disposition: { type: 'voicemail', label: 'Voicemail', color: '#8b5cf6' }, transcript: 't', fields: [], transcriptSource: 'live', contactId: 'ct' };
    inst.repos.calls.insert(inst.agency.id, ctx.projectId, ctx.agentId, doc);
    const headers = { authorization: `Bearer ${inst.key}`, 'content-type': 'application/json' };
    const against = 'bare Koa JSON endpoint';
    const figures: [string, autocannon.Options][] = [
      ['call_by_id', { url: `${inst.url}/api/call-history/by-call-id/bench-call`, headers }],
      ['workflow_get', { url: `${inst.url}${wf}`, headers }],
      // Appends grow the graph; a fresh agent per run keeps the figure comparable between runs.
      ['workflow_append', { url: `${inst.url}${wf}/outcomes/CALLBACK/nodes`, method: 'POST', headers, body: JSON.stringify({ nodes: [{ type: 'add-tag', config: { tags: ['b'] } }] }) }],
    ];
    for (const [name, opts] of figures) {
      const r = await load(opts);
      if (r.non2xx > 0) process.stderr.write(`[api] ${name}: ${r.non2xx} non-2xx responses\n`);
      emit({ name: `api_${name}_rps`, value: r.requests.average, unit: 'req/s', baseline: baseline.requests.average, against });
      emit({ name: `api_${name}_p99`, value: r.latency.p99, unit: 'ms', baseline: baseline.latency.p99, against });
    }
  } finally {
    await inst.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
