/**
 * API requests/s and latency of the hot read and write paths, each beside a bare Koa JSON endpoint
 * (what Node + Koa give with no auth, validation, store or logging), in alternating rounds: after a
 * warm-up of both, BENCH_ROUNDS rounds (5) each load ours and the bare endpoint for BENCH_SECONDS
 * (2) s, in alternating order. The product runs as `npm start` runs it: request logs at info (into
 * a file in the temp dir, where main writes them to stdout). Load: autocannon on a worker thread
 * (the other core; the server's event loop has the main thread), 10 keep-alive connections;
 * latencies kept at full resolution. `BENCH_API=call_by_id,workflow_get` runs some of them only.
 */
import Koa from 'koa';
import { alternate, paired } from './figures.js';
import { load, type Load } from './support/load.js';
import { BENCH_CALL_PATH, seedCampaign, startInstance, storeBenchCall } from './support/instance.js';
import { apiFloor, handlerFloor } from './support/api-floor.js';
import { serve } from './support/serve.js';
import { allRoutes } from '../server/app.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const log = (s: string) => process.stderr.write(`[api] ${s}\n`);

async function bareKoa() {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = { success: true, data: { hello: 'world' } };
  });
  const { origin, close } = await serve(app);
  return { url: `${origin}/`, close };
}

export async function run() {
  const bare = await bareKoa();
  const inst = await startInstance({ temporal: false, requestLog: true });
  try {
    const ctx = await seedCampaign(inst);
    const wf = `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow`;
    await inst.api('POST', `${wf}/outcomes/VOICEMAIL/nodes`, { nodes: [{ type: 'add-tag', config: { tags: ['a'] } }, { type: 'add-note', config: { body: 'n' } }] });
    // A stored call to read back by id.
    await storeBenchCall(inst, ctx);
    const headers = { authorization: `Bearer ${inst.key}`, 'content-type': 'application/json' };
    const against = 'bare Koa JSON endpoint, same rounds';
    // Appends grow the graph: each round appends to a fresh agent's workflow, so rounds compare.
    const appendUrl = async () => {
      const agent = await inst.api('POST', '/api/agent-builder/agents', { name: 'Append', agentType: 'outreach', locationId: ctx.locationId, capabilityIds: ['appointment_booking'] });
      return `${inst.url}/api/agent-builder/agents/${agent.body.data.id}/campaign/workflow/outcomes/CALLBACK/nodes`;
    };
    const figures: [string, () => Promise<Parameters<typeof load>[0]>][] = [
      ['call_by_id', async () => ({ url: inst.url + BENCH_CALL_PATH, headers, duration: SECONDS })],
      ['workflow_get', async () => ({ url: `${inst.url}${wf}`, headers, duration: SECONDS })],
      ['workflow_append', async () => ({ url: await appendUrl(), method: 'POST', headers, body: JSON.stringify({ nodes: [{ type: 'add-tag', config: { tags: ['b'] } }] }), duration: SECONDS })],
    ];
    // BENCH_API=call_by_id,... measures some figures only (e.g. under --cpu-prof).
    const only = process.env.BENCH_API?.split(',');
    for (const [name, opts] of figures.filter(([n]) => !only || only.includes(n))) {
      const { ours, base } = await alternate<Load>({
        ours: async () => load(await opts()),
        base: async () => load({ url: bare.url, duration: SECONDS }),
        onRound: (r, o, b) => log(`${name} round ${r + 1}: ${o.rps.toFixed(0)} req/s p99 ${o.p99.toFixed(2)} ms / bare ${b.rps.toFixed(0)} req/s p99 ${b.p99.toFixed(2)} ms${o.non2xx ? `; ${o.non2xx} non-2xx` : ''}`),
      });
      if (ours.some((o) => o.non2xx > 0)) log(`${name}: non-2xx responses: ${ours.map((o) => o.non2xx).join(', ')}`);
      paired(`api_${name}_rps`, 'req/s', against, ours.map((o) => o.rps), base.map((b) => b.rps));
      paired(`api_${name}_p50`, 'ms', against, ours.map((o) => o.p50), base.map((b) => b.p50));
      paired(`api_${name}_p99`, 'ms', against, ours.map((o) => o.p99), base.map((b) => b.p99));
      if (name === 'call_by_id') await floorOf(inst, name, BENCH_CALL_PATH, headers, against);
      if (name === 'workflow_get') await floorOf(inst, name, wf, headers, against);
    }
  } finally {
    await inst.stop();
    await bare.close();
  }
}

/**
 * What a read's own work costs (bench/support/api-floor.ts), against the bare endpoint in
 * alternating rounds: for call-by-id, the same response from bare Koa with only the key check and
 * the store read; for the workflow GET, bare Koa running the route's own handler (its reads and the
 * warnings) with nothing around it.
 */
async function floorOf(inst: Awaited<ReturnType<typeof startInstance>>, name: string, path: string, headers: Record<string, string>, against: string) {
  const ours = await fetch(inst.url + path, { headers });
  const policy = ours.headers.get('ratelimit-policy')!;
  const route = allRoutes(inst.services).find((r) => r.operationId === 'getWorkflow')!;
  const floor = name === 'call_by_id' ? await apiFloor(inst.services, policy) : await handlerFloor(inst.services, route, policy);
  const what = name === 'call_by_id' ? 'the same answer with only the key check and the store read' : "the same answer from the route's own handler, with nothing around it but the key check";
  const bare = await bareKoa();
  try {
    // The floor is only a floor if it answers with what ours answers.
    const same = await fetch(floor.origin + path, { headers });
    const [a, b] = [await ours.text(), await same.text()];
    if (same.status !== 200 || a !== b) throw new Error(`the floor's answer differs from ours: ${same.status} ${b}`);
    const { ours: f, base } = await alternate<Load>({
      ours: () => load({ url: floor.origin + path, headers, duration: SECONDS }),
      base: () => load({ url: bare.url, duration: SECONDS }),
      onRound: (r, o, b) => log(`${name} floor round ${r + 1}: ${o.rps.toFixed(0)} req/s p99 ${o.p99.toFixed(2)} ms / bare ${b.rps.toFixed(0)} req/s p99 ${b.p99.toFixed(2)} ms`),
    });
    paired(`api_${name}_floor_rps`, 'req/s', `${against}; the floor: ${what}`, f.map((o) => o.rps), base.map((b) => b.rps));
    paired(`api_${name}_floor_p99`, 'ms', `${against}; the floor: ${what}`, f.map((o) => o.p99), base.map((b) => b.p99));
    // What the product's layers cost over the floor, measured against it directly (not through two
    // ratios to bare Koa taken in different rounds).
    const direct = await alternate<Load>({
      ours: () => load({ url: inst.url + path, headers, duration: SECONDS }),
      base: () => load({ url: floor.origin + path, headers, duration: SECONDS }),
      onRound: (r, o, b) => log(`${name} over its floor round ${r + 1}: ${o.rps.toFixed(0)} req/s / floor ${b.rps.toFixed(0)} req/s`),
    });
    paired(`api_${name}_over_floor_rps`, 'req/s', `the floor (${what}), same rounds`, direct.ours.map((o) => o.rps), direct.base.map((b) => b.rps));
  } finally {
    await floor.close();
    await bare.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
