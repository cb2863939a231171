/**
 * The shared store and the many-machines topology.
 *
 * Part 1, the store: the product on Postgres (a cluster of the bench's own, initdb + pg_ctl)
 * against the same product on SQLite, each as `npm start` runs it (API and worker in one process,
 * the embedded Temporal dev server), in alternating rounds:
 * - post-call throughput at saturation: BENCH_CALLS (200) signed `call.ended` events per side per
 *   round, BENCH_CONCURRENCY (20) in flight, a three-action chain, 200 contacts in turn; the CPU
 *   time per call of this process and of the Postgres cluster (every backend);
 * - post-call latency at 10 calls/s offered (open loop), p50 and p99;
 * - the API's call-by-id read, requests/s and p99 (autocannon, 10 connections).
 *
 * Part 2, the topology: one API process and one worker process (`server/main.ts --role=...`, as
 * docs/deploy.md runs them), the product's store on one Postgres cluster, the real Temporal server
 * (built by `scripts/setup.sh --test`) with its persistence on a second cluster, all on this
 * machine. Both clusters commit durably (fsync, synchronous_commit on: a production server's
 * defaults; SQLite runs as the product sets it, WAL with synchronous NORMAL). BENCH_ROUNDS rounds of BENCH_CALLS calls at saturation; CPU time per call of each kind
 * of process (/proc, 10 ms ticks; a cluster's time is its postmaster's, its live backends' and the
 * exited backends' it reaped). These are the costs docs/deploy.md's capacity model is built from.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import pg from 'pg';
import { postCallWorkflowId } from '../engine/workflows/post-call-types.js';
import { AGENCY_HEADER, SIGNATURE_HEADER, signPayload } from '../server/domain/event-signature.js';
import { openPostgresStore } from '../server/store/postgres/store.js';
import { SCOPES } from '../server/store/index.js';
import { alternate, cpuMs, emit, median, paired, percentile, ROUNDS, spreadOf } from './figures.js';
import { httpPoster, type HttpPoster } from './support/http-post.mjs';
import { offered, pool } from './support/arrivals.js';
import { load, type Load } from './support/load.js';
import { BENCH_CALL_PATH, seedCampaign, startInstance, storeBenchCall, type Instance } from './support/instance.js';
import { startPostgresCluster, type PostgresCluster } from '../test/helpers/postgres-cluster.js';
import { startTemporalServer, TEMPORAL_SERVER } from '../test/helpers/temporal-server.js';
import { startProductProcess, type ProductProcess } from '../test/helpers/product-process.js';

const N = Number(process.env.BENCH_CALLS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const RATE = 10;
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const CONTACTS = 200;
const AGAINST = 'the same product on SQLite (embedded default), same process shape, same rounds';
const log = (s: string) => process.stderr.write(`[postgres] ${s}\n`);
/** A production server's durability (the test clusters turn it off for speed): every commit flushed. */
const DURABLE = { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on' };

/**
 * CPU time (ms) of a Postgres cluster so far: the postmaster's own, the backends it has reaped
 * (cutime/cstime) and those alive now. A backend that exits between two readings is counted once
 * it is reaped, which the postmaster does at once.
 */
function clusterCpuMs(dataDir: string): number {
  const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const stat = (pid: number | string) => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const own = stat(postmaster);
  let ms = (Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14])) * 10;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const f = stat(pid);
      if (Number(f[1]) === postmaster) ms += (Number(f[11]) + Number(f[12])) * 10;
    } catch {
      // gone since the listing
    }
  }
  return ms;
}

async function createDatabase(cluster: PostgresCluster, name: string) {
  const c = new pg.Client({ connectionString: cluster.url });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  return `postgres://postgres@127.0.0.1:${cluster.port}/${name}`;
}

/** What one side needs to send calls and await their runs. */
interface Side {
  agencyId: string;
  signingSecret: string;
  campaignId: string;
  contacts: string[];
  poster: HttpPoster;
  client: Client;
}

let seq = 0;
/** One call: the signed event through the API, then its run's result; seconds from accepted to done. */
async function oneCall(s: Side): Promise<number> {
  const callId = `pg-bench-${process.pid}-${seq}`;
  const contactId = s.contacts[seq++ % s.contacts.length]!;
  const raw = JSON.stringify({ type: 'call.ended', call: { callId, campaignId: s.campaignId, contactId, phoneNumber: '+15125550123', disposition: 'VOICEMAIL', dateTime: new Date().toISOString(), callSummary: 'no answer' } });
  const res = await s.poster.post('/api/events/calls', raw, { [AGENCY_HEADER]: s.agencyId, [SIGNATURE_HEADER]: signPayload(s.signingSecret, raw) });
  if (res.status !== 202) throw new Error(`event refused: ${res.status} ${res.text}`);
  const accepted = performance.now();
  const result = (await s.client.workflow.getHandle(postCallWorkflowId(s.agencyId, callId)).result()) as { status: string };
  if (result.status !== 'succeeded') throw new Error(`run failed: ${JSON.stringify(result)}`);
  return (performance.now() - accepted) / 1000;
}

/** The bench's campaign: a three-action chain on VOICEMAIL and CONTACTS contacts, through the API. */
async function seedChain(api: Instance['api'], createContact: (i: number) => Promise<string>) {
  const ctx = await seedCampaign({ api } as Instance);
  const contacts: string[] = [];
  for (let i = 0; i < CONTACTS; i++) contacts.push(await createContact(i));
  const wf = `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow`;
  const added = await api('POST', `${wf}/outcomes/VOICEMAIL/nodes`, {
    nodes: [
      { type: 'add-tag', config: { tags: ['vm-left'] } },
      { type: 'set-field', config: { field: 'contact.last_call', value: '{{call.callId}}' } },
      { type: 'add-note', config: { body: 'Left a voicemail: {{call.callSummary}}' } },
    ],
  });
  if (added.status !== 200) throw new Error(`chain not saved: ${added.status}`);
  return { ...ctx, contacts };
}

async function sideOf(inst: Instance): Promise<Side> {
  const ctx = await seedChain(inst.api, async (i) => (await inst.store.crm.createContact(inst.agency.id, { locationId: `bench_loc_0`, firstName: `Ana ${i}`, phone: `+1512555${String(i).padStart(4, '0')}` })).id);
  return { agencyId: inst.agency.id, signingSecret: inst.agency.signingSecret, campaignId: ctx.campaignId, contacts: ctx.contacts, poster: httpPoster(inst.url), client: inst.temporal!.client };
}

export async function run() {
  const cluster = await startPostgresCluster({ settings: DURABLE });
  try {
    await storeFigures(cluster);
    await topologyFigures(cluster);
  } finally {
    cluster.stop();
  }
}

/** Part 1: the product on Postgres against the product on SQLite. */
async function storeFigures(cluster: PostgresCluster) {
  const url = await createDatabase(cluster, 'bench_store');
  const onPg = await startInstance({ temporal: true, postgresUrl: url });
  const onLite = await startInstance({ temporal: true });
  try {
    const [pgSide, liteSide] = [await sideOf(onPg), await sideOf(onLite)];
    const saturate = async (s: Side, storeCpu: () => number) => {
      const t0 = performance.now();
      const cpu0 = [cpuMs('self'), storeCpu()];
      await pool(Array.from({ length: N }), CONCURRENCY, async () => void (await oneCall(s)));
      return { perSecond: N / ((performance.now() - t0) / 1000), process: (cpuMs('self') - cpu0[0]!) / N, store: (storeCpu() - cpu0[1]!) / N };
    };
    const sat = await alternate({
      ours: () => saturate(pgSide, () => clusterCpuMs(cluster.dataDir)),
      base: () => saturate(liteSide, () => 0),
      onRound: (r, o, b) => log(`saturation round ${r + 1}: Postgres ${o.perSecond.toFixed(1)} calls/s / SQLite ${b.perSecond.toFixed(1)}`),
    });
    const what = `${N} calls per side per round, ${CONCURRENCY} in flight, a 3-action chain`;
    paired('postgres.post_call_throughput', 'calls/s', `${AGAINST}; ${what}`, sat.ours.map((x) => x.perSecond), sat.base.map((x) => x.perSecond));
    paired('postgres.post_call_cpu_ms_per_call.process', 'ms', `${AGAINST}; CPU time of the product's process (API, worker, the bench's clients) per call at saturation`, sat.ours.map((x) => x.process), sat.base.map((x) => x.process));
    const storeCpu = sat.ours.map((x) => x.store);
    emit({ name: 'postgres.post_call_cpu_ms_per_call.postgres', value: median(storeCpu), unit: 'ms', baseline: null, against: `the Postgres cluster's CPU time per call at saturation (SQLite's is inside the process's); ${what}`, spread: spreadOf(storeCpu), rounds: storeCpu.length });

    const lat = await alternate({ ours: () => offered(RATE, RATE_SECONDS, () => oneCall(pgSide)), base: () => offered(RATE, RATE_SECONDS, () => oneCall(liteSide)) });
    const p = (xs: number[], q: number) => percentile([...xs].sort((a, b) => a - b), q);
    for (const q of [50, 99]) {
      const ratios = lat.ours.map((o, i) => p(o, q) / p(lat.base[i]!, q));
      emit({ name: `postgres.post_call_latency_p${q}.${RATE}_per_s`, value: p(lat.ours.flat(), q), unit: 's', baseline: p(lat.base.flat(), q), ratio: median(ratios), spread: spreadOf(ratios), rounds: ratios.length, against: `${AGAINST}; event accepted -> last action done, ${RATE} calls/s offered (open loop), ${RATE_SECONDS} s of arrivals per side per round` });
    }

    const byId = async (inst: Instance) => {
      const ctx = await seedCampaign(inst, 1);
      await storeBenchCall(inst, ctx);
      return { url: inst.url + BENCH_CALL_PATH, headers: { authorization: `Bearer ${inst.key}` }, duration: SECONDS };
    };
    const [pgRead, liteRead] = [await byId(onPg), await byId(onLite)];
    const reads = await alternate<Load>({
      ours: () => load(pgRead),
      base: () => load(liteRead),
      onRound: (r, o, b) => log(`call by id round ${r + 1}: Postgres ${o.rps.toFixed(0)} req/s p99 ${o.p99.toFixed(2)} ms / SQLite ${b.rps.toFixed(0)} req/s p99 ${b.p99.toFixed(2)} ms`),
    });
    if ([...reads.ours, ...reads.base].some((x) => x.non2xx > 0)) throw new Error('call by id: non-2xx answers');
    paired('postgres.api_call_by_id_rps', 'req/s', `${AGAINST}; the key check and the read both on the store; 10 connections, ${SECONDS} s a round`, reads.ours.map((x) => x.rps), reads.base.map((x) => x.rps));
    paired('postgres.api_call_by_id_p99', 'ms', `${AGAINST}; 10 connections`, reads.ours.map((x) => x.p99), reads.base.map((x) => x.p99));
    for (const s of [pgSide, liteSide]) s.poster.close();
  } finally {
    await onPg.stop();
    await onLite.stop();
  }
}

/** Part 2: an API process and a worker process on Postgres and the real Temporal server. */
async function topologyFigures(cluster: PostgresCluster) {
  if (!fs.existsSync(TEMPORAL_SERVER)) {
    log(`topology figures skipped: ${TEMPORAL_SERVER} is not built (scripts/setup.sh --test builds it)`);
    return;
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-topology-'));
  const temporalPg = await startPostgresCluster({ settings: DURABLE });
  const procs: ProductProcess[] = [];
  let temporal: Awaited<ReturnType<typeof startTemporalServer>> | undefined;
  let connection: Connection | undefined;
  try {
    temporal = await startTemporalServer({ pg: { host: '127.0.0.1', port: temporalPg.port, user: 'postgres' }, dir: path.join(work, 'temporal') });
    const dbUrl = await createDatabase(cluster, 'bench_topology');
    const credentialsKey = randomBytes(32).toString('hex');
    const start = async (role: 'server' | 'worker', env: Record<string, string>) => {
      const proc = await startProductProcess({
        name: role,
        role,
        dir: work,
        env: { DATABASE_URL: dbUrl, CREDENTIALS_KEY: credentialsKey, ...temporal!.env, TEMPORAL_TASK_QUEUE: 'bench', LOG_LEVEL: 'info', LOG_FORMAT: 'json', SEED_DEMO: 'false', RATE_LIMIT_POINTS: '100000000', ...env },
      });
      procs.push(proc);
      return proc;
    };
    const api = await start('server', {});
    const worker = await start('worker', { API_URL: api.url! });
    const store = await openPostgresStore(dbUrl, { poolSize: 2 });
    const agency = await store.agencies.ensure('bench', 'Bench', 1000);
    const key = (await store.apiKeys.create({ agencyId: agency.id, name: 'bench', role: 'agency_admin', scopes: [...SCOPES], projectIds: [] })).secret;
    const call: Instance['api'] = async (method, p, body) => {
      const res = await fetch(api.url + p, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as any };
    };
    const ctx = await seedChain(call, async (i) => (await store.crm.createContact(agency.id, { locationId: 'bench_loc_0', firstName: `Ana ${i}`, phone: `+1512555${String(i).padStart(4, '0')}` })).id);
    await store.close();
    connection = await Connection.connect({ address: temporal.address });
    const side: Side = { agencyId: agency.id, signingSecret: agency.signingSecret, campaignId: ctx.campaignId, contacts: ctx.contacts, poster: httpPoster(api.url!), client: new Client({ connection, namespace: temporal.namespace }) };
    const kinds = {
      api: () => cpuMs(api.child.pid!),
      worker: () => cpuMs(worker.child.pid!),
      temporal: () => cpuMs(temporal!.pid),
      postgres: () => clusterCpuMs(cluster.dataDir),
      temporal_postgres: () => clusterCpuMs(temporalPg.dataDir),
    };
    type Kind = keyof typeof kinds;
    const rounds: { perSecond: number; cpu: Record<Kind, number> }[] = [];
    // A warm-up round (JIT, pools, the server's caches), then the measured rounds.
    for (let r = -1; r < ROUNDS; r++) {
      const before = Object.fromEntries(Object.entries(kinds).map(([k, f]) => [k, f()])) as Record<Kind, number>;
      const t0 = performance.now();
      await pool(Array.from({ length: N }), CONCURRENCY, async () => void (await oneCall(side)));
      const perSecond = N / ((performance.now() - t0) / 1000);
      const cpu = Object.fromEntries(Object.entries(kinds).map(([k, f]) => [k, (f() - before[k as Kind]) / N])) as Record<Kind, number>;
      log(`topology round ${r + 1}${r < 0 ? ' (warm-up)' : ''}: ${perSecond.toFixed(1)} calls/s; CPU ms per call ${Object.entries(cpu).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);
      if (r >= 0) rounds.push({ perSecond, cpu });
    }
    side.poster.close();
    const where = `1 API + 1 worker process, the store on Postgres, the real Temporal server (its persistence on a second Postgres cluster), all on this ${os.cpus().length}-core machine; ${N} calls a round, ${CONCURRENCY} in flight, a 3-action chain`;
    const fig = (name: string, xs: number[], unit: string, what: string) => emit({ name, value: median(xs), unit, baseline: null, against: `${what}; ${where}`, spread: spreadOf(xs), rounds: xs.length });
    fig('topology.post_call_throughput', rounds.map((r) => r.perSecond), 'calls/s', 'saturation, every process sharing the cores');
    const who: Record<Kind, string> = { api: 'the API process', worker: 'the worker process', temporal: 'the Temporal server', postgres: "the store's Postgres cluster", temporal_postgres: "Temporal's Postgres cluster" };
    for (const k of Object.keys(kinds) as Kind[]) fig(`topology.cpu_ms_per_call.${k}`, rounds.map((r) => r.cpu[k]), 'ms', `CPU time (user + system) of ${who[k]} per post-call run`);
    fig('topology.cpu_ms_per_call.total', rounds.map((r) => Object.values(r.cpu).reduce((a, b) => a + b, 0)), 'ms', 'CPU time of every process per post-call run: what the capacity model in docs/deploy.md divides by');
  } finally {
    for (const p of procs) await p.stop('SIGTERM');
    await connection?.close();
    await temporal?.stop();
    temporalPg.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
