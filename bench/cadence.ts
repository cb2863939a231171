/**
 * The power dialer on the embedded Temporal: leads enrolled per second through the API
 * (POST /api/power-dialer/leads: store + workflow start), against bare Temporal client starts of
 * the same workflow with the same input, in alternating rounds (a warm-up of both, then
 * BENCH_ROUNDS (5) rounds of BENCH_CADENCE_LEADS (200) leads per side, 16 in flight, each round
 * lasting until the worker has run the first step of every workflow it started, so that none
 * leaves its work to the next: `cadence.enrol`; `cadence.enrol.eager_starts`, like for like, against
 * bare starts that ask for eager starts as our route does; `cadence.enrol_accepted` is the same rounds until
 * the last request is answered; the API's requests come from a worker thread, as bench/api.ts's
 * do, so the client's HTTP work does not share the server's event loop, over node:http keep-alive
 * connections, support/http-post.mjs); then the durable timers in flight (every lead sleeps until
 * its first step, a day away). `cadence.enrol_floor` is what an HTTP hop alone costs: a bare Koa
 * endpoint doing only the same start, behind the same client, against the bare starts in the same
 * way. `cadence.enrol_handler_floor`: the route's own handler behind bare Koa with only the key
 * check (support/api-floor.ts), against the bare starts in the same way: what the handler's own work
 * (reads, checks, the lead's insert, the start) leaves of the goal before our framework.
 * `cadence.enrol_cpu_ms_per_lead.*` and `cadence.enrol_floor_cpu_ms_per_lead.*`: where a lead's
 * CPU goes over the same rounds, this process's (less the client's thread, given apart) and the dev
 * server's: the two cores everything here shares.
 *
 *   npx tsx bench/cadence.ts              # BENCH_CADENCE_LEADS=200 BENCH_CONCURRENCY=16
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { LEAD_CADENCE_WORKFLOW, type LeadCadenceInput } from '../engine/workflows/lead-cadence-types.js';
import { allRoutes, createApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { rateLimitPolicy } from '../server/http/rate-limit.js';
import { createLogger } from '../server/logger.js';
import { sqliteRepositories, openSqliteStore } from '../server/store/sqlite/store.js';
import { composeProviders, composeServices, composeWorker } from '../server/compose.js';
import { openDb } from '../server/store/sqlite/db.js';
import { SCOPES } from '../server/store/index.js';
import { connectTemporal } from '../server/temporal/client.js';
import { startDevServer } from '../server/temporal/launcher.js';
import { bundleWorkflows } from '../server/temporal/worker.js';
import { DefaultLogger, Runtime, type Worker as TemporalWorker } from '@temporalio/worker';
import { serve, startEndpoint } from './support/serve.js';
import { handlerFloor } from './support/api-floor.js';
import { alternate, cpuMs, emit, median, paired, peakRssMb } from './figures.js';

/** Runs `fn` over 0..n-1 with `concurrency` in flight; resolves with the wall time in ms. */
async function pool(n: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      for (let i = next++; i < n; i = next++) await fn(i);
    }),
  );
  return performance.now() - started;
}

/**
 * Lead workflows that have taken their first step on this worker, from its own counts: a lead's
 * workflow is created on its first task, which runs to its timer (in `leadCadenceWorkflow`,
 * through a local activity first). `reached(k)` resolves once k have been created and the worker
 * has no activation or activity in flight.
 */
function firstStepsOn(worker: TemporalWorker) {
  let created = 0;
  let cached = 0;
  let activations = 0;
  let activities = 0;
  const waiting: { k: number; resolve: () => void }[] = [];
  const check = () => {
    if (activations > 0 || activities > 0) return;
    for (let i = waiting.length - 1; i >= 0; i--) if (waiting[i]!.k <= created) waiting.splice(i, 1)[0]!.resolve();
  };
  // The cache also shrinks (evictions once it is full): only its growth counts.
  worker.numRunningWorkflowInstances$.subscribe((n) => {
    if (n > cached) created += n - cached;
    cached = n;
    check();
  });
  worker.numInFlightActivations$.subscribe((n) => {
    activations = n;
    check();
  });
  worker.numInFlightActivities$.subscribe((n) => {
    activities = n;
    check();
  });
  return {
    reached: (k: number) =>
      new Promise<void>((resolve) => {
        waiting.push({ k, resolve });
        check();
      }),
  };
}

/**
 * A round's two rates: requests answered (starts accepted) per second, and leads settled (first
 * step taken) per second; and the CPU time (user + system) per lead of this process less the
 * bench's HTTP client thread (API, worker, bare starts), of that thread, and of the dev server.
 */
interface Rates {
  accepted: number;
  settled: number;
  cpuMs: { process: number; client: number; temporal: number };
}
/** A round's requests: their wall time, and the CPU time of the thread that sent them (none for bare starts). */
interface Sent {
  ms: number;
  clientCpuMs: number;
}

export async function run(): Promise<void> {
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    /* installed */
  }
  const n = Number(process.env.BENCH_CADENCE_LEADS || 200);
  const concurrency = Number(process.env.BENCH_CONCURRENCY || 16);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-bench-cadence-'));
  process.stderr.write('[cadence] starting the embedded Temporal dev server and a worker...\n');
  const dev = await startDevServer({ uiPort: null });
  const store = openSqliteStore(path.join(dir, 'app.db'));
  const db = store.db;
  // Setup on the SQLite implementation itself, synchronously; the product runs on `store`.
  const repos = sqliteRepositories(db);
  // The API's per-key rate limit would cap the measurement, not the dialer: lifted for the bench.
  const config = { ...loadConfig({}), dataDir: dir, taskQueue: `bench-cadence-${process.pid}`, logLevel: 'silent', rateLimitPoints: 1_000_000 };
  const logger = createLogger(config.logLevel);
  const providers = composeProviders(config, store, logger);
  const ports = providers.ports;
  // No call is due during the bench (the first step is a day away); a voice platform that places nothing.
  const voice = { placeCall: async (r: { callId: string }) => ({ callId: r.callId }) };
  const { worker, connection } = await composeWorker({ config, address: dev.address, store, ports, voice, bundle: await bundleWorkflows({ tracing: false }), eagerStarts: true });
  // As `npm start` runs it: the API's client shares the worker's connection (the baseline's bare starts use the same client).
  const temporal = await connectTemporal(dev.address, 'default', config.taskQueue, { shared: connection, tracing: false });
  const firstSteps = firstStepsOn(worker);
  const running = worker.run();
  const services = composeServices({ config, store, providers, temporal, logger });
  const api = await serve(createApp(services));
  const url = api.origin;

  try {
    const agencyId = 'bench';
    repos.agencies.ensure(agencyId, 'Bench', 10);
    const key = repos.apiKeys.create({ agencyId, name: 'bench', role: 'agency_admin', scopes: [...SCOPES], projectIds: [] }).secret;
    const project = repos.projects.insert({ agencyId, crm: 'crm_a', locationId: 'loc_bench', timezone: 'America/Chicago', agencyName: 'Bench', active: true, status: 'live', installed: true, businessName: 'Clinic' });
    const agent = repos.agents.insert({ agencyId, projectId: project.id, locationId: project.locationId, name: 'a', agentType: 'outreach', capabilities: [], campaignId: null, postCallFields: [] } as never);
    const cadence = repos.cadences.insert({ agencyId, name: 'daily', steps: [{ delayMinutes: 1440 }, { delayMinutes: 1440 }] });
    const campaign = repos.campaigns.insert({ agencyId, projectId: project.id, agentId: agent.id, name: 'Bench', activeTags: ['new-lead'], inactiveTags: [], dialing: 'pd', agentType: null, fromNumbers: [], active: true, config: { cadenceId: cadence.id } });
    const rounds = Number(process.env.BENCH_ROUNDS ?? 5) + 1;
    // Contacts for ours (against plain and eager bare starts) and for the handler's floor, a round's worth each per round, and a first lead.
    const contacts = Array.from({ length: 3 * n * rounds + 1 }, (_, i) =>
      repos.crm.createContact(agencyId, { locationId: project.locationId, firstName: `Lead${i}`, phone: `+1512${String(3_000_000 + i).padStart(7, '0')}`, tags: ['new-lead'] }).id,
    );
    const enrolOne = async (contactId: string) => {
      const res = await fetch(`${url}/api/power-dialer/leads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ campaignId: campaign.id, contactId }),
      });
      if (res.status !== 200) throw new Error(`enrol ${contactId}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    // The baseline's input: the workflow input the API gave a first lead, enrolled before the rounds.
    const first = contacts.pop()!;
    await enrolOne(first);
    const sample = repos.leads.inCampaign(agencyId, campaign.id, first)!;
    const history = await temporal.client.workflow.getHandle(`lead:${sample.id}`).fetchHistory();
    const { defaultPayloadConverter } = await import('@temporalio/common');
    const input = defaultPayloadConverter.fromPayload(history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!) as LeadCadenceInput;

    /** Enrols these contacts through the API from a worker thread; resolves with the wall time and the thread's CPU time. */
    const enrolFromThread = (contactIds: string[], origin = url) =>
      new Promise<Sent>((resolve, reject) => {
        const w = new Worker(path.join(import.meta.dirname, 'support/enrol-worker.mjs'), { workerData: { url: origin, key, campaignId: campaign.id, contactIds, concurrency } });
        w.once('message', (m: { ms?: number; cpuMs?: number; error?: string }) => {
          void w.terminate();
          if (m.error) reject(new Error(m.error));
          else resolve({ ms: m.ms!, clientCpuMs: m.cpuMs! });
        });
        w.once('error', reject);
      });
    // Lead workflows started so far, by any side: a round ends when all have taken their first step,
    // so each starts with an idle worker and none leaves its workflows' work to the next.
    let startedWorkflows = 1;
    await firstSteps.reached(startedWorkflows);
    /** Times a round of n starts (`send` resolves with its requests' wall time and client CPU), then its settling. */
    const timed = async (send: () => Promise<Sent>): Promise<Rates> => {
      startedWorkflows += n;
      const cpu0 = { process: cpuMs('self'), temporal: cpuMs(dev.process.pid!) };
      const sent = await send();
      const answered = performance.now();
      await firstSteps.reached(startedWorkflows);
      const cpuMsPerLead = {
        process: (cpuMs('self') - cpu0.process - sent.clientCpuMs) / n,
        client: sent.clientCpuMs / n,
        temporal: (cpuMs(dev.process.pid!) - cpu0.temporal) / n,
      };
      return { accepted: n / (sent.ms / 1000), settled: n / ((sent.ms + performance.now() - answered) / 1000), cpuMs: cpuMsPerLead };
    };
    let next = 0;
    let bare = 0;
    /** A round of n enrolments of fresh contacts through the API at `origin` (ours, or the handler's floor). */
    const apiRound = (origin = url) => {
      const batch = contacts.slice(next, next + n);
      next += n;
      return timed(() => enrolFromThread(batch, origin));
    };
    /**
     * A round of bare starts of the same workflow and input: through the plain client (the goal's
     * baseline), or asking for eager starts as our route does (the like-for-like baseline).
     */
    const bareRound = (eager = false) =>
      timed(async () => ({
        ms: await pool(n, concurrency, async () => {
          const i = bare++;
          await temporal.client.workflow.start(LEAD_CADENCE_WORKFLOW, { workflowId: `bare:${i}`, taskQueue: config.taskQueue, args: [{ ...input, leadId: `bare_${i}` }], requestEagerStart: eager });
        }),
        clientCpuMs: 0,
      }));
    const show = (r: Rates) => `${r.settled.toFixed(0)} settled (${r.accepted.toFixed(0)} accepted)`;
    process.stderr.write(`[cadence] ${rounds - 1} rounds after a warm-up: ${n} leads through the API / ${n} bare starts, ${concurrency} at a time; a round ends when its last lead's workflow has taken its first step\n`);
    const { ours, base } = await alternate({
      ours: () => apiRound(),
      base: () => bareRound(),
      onRound: (r, o, b) => process.stderr.write(`[cadence] round ${r + 1}: leads/s through the API ${show(o)} / bare starts ${show(b)}\n`),
    });
    const temporalRssMb = peakRssMb(dev.process.pid!);
    // The server takes a start eagerly only when the worker has a free workflow-task slot.
    const eagerSoFar = () => process.stderr.write(`[cadence] the API's starts so far: ${temporal.stats.eagerlyStarted} of ${temporal.stats.started} eager\n`);
    eagerSoFar();
    const settled = (rs: Rates[]) => rs.map((r) => r.settled);
    const accepted = (rs: Rates[]) => rs.map((r) => r.accepted);
    const against = `bare Temporal client starts of the same workflow and input, ${concurrency} concurrent, ${n} per side per round`;
    paired('cadence.enrol', 'leads/s', `${against}; each round until its last lead's workflow has taken its first step`, settled(ours), settled(base), { temporalRssMb });
    paired('cadence.enrol_accepted', 'leads/s', `${against}; the same rounds until their last request is answered (the workflows' work still running)`, accepted(ours), accepted(base), { temporalRssMb });
    // Where a lead's CPU goes, each side: this process without the HTTP client (the API and the worker;
    // the bare starts and the worker), the client's thread (ours only), the dev server.
    const cpu = (figure: string, side: 'process' | 'temporal', what: string, o: Rates[], b: Rates[], vs: string) =>
      paired(`${figure}.${side}`, 'ms', `${vs}; CPU time (user + system) per lead of ${what}, over the same rounds`, o.map((r) => r.cpuMs[side]), b.map((r) => r.cpuMs[side]), {
        temporalRssMb: peakRssMb(dev.process.pid!),
        ...(side === 'process' && { clientCpuMs: median(o.map((r) => r.cpuMs.client)) }),
      });
    const PROCESS = "this process less the bench's HTTP client thread (API and worker; the bare starts and worker); `clientCpuMs`: that thread's, ours only";
    cpu('cadence.enrol_cpu_ms_per_lead', 'process', PROCESS, ours, base, against);
    cpu('cadence.enrol_cpu_ms_per_lead', 'temporal', 'the embedded Temporal dev server', ours, base, against);

    // Like for like: our route starts each lead's workflow eagerly (its worker shares the API's
    // connection), which the goal's baseline does not; against bare starts that do too, what is left
    // is what our route and the HTTP hop cost.
    const eagerStarts = await alternate({
      ours: () => apiRound(),
      base: () => bareRound(true),
      onRound: (r, o, b) => process.stderr.write(`[cadence] like-for-like round ${r + 1}: leads/s through the API ${show(o)} / bare eager starts ${show(b)}\n`),
    });
    const eagerAgainst = `bare Temporal client starts asking for eager starts, as our route does (its worker shares the client's connection), of the same workflow and input, ${concurrency} concurrent, ${n} per side per round; each round until its last lead's workflow has taken its first step`;
    eagerSoFar();
    paired('cadence.enrol.eager_starts', 'leads/s', eagerAgainst, settled(eagerStarts.ours), settled(eagerStarts.base), { temporalRssMb: peakRssMb(dev.process.pid!) });

    // The floor: what an HTTP hop alone costs. A bare Koa endpoint at the same path that reads the
    // JSON body and does the same start, nothing else, behind the same worker-thread client,
    // against the bare starts in alternating rounds.
    let floorStarts = 0;
    const floorServer = await serve(
      startEndpoint(async (body: { contactId: string }) => {
        const i = floorStarts++;
        await temporal.client.workflow.start(LEAD_CADENCE_WORKFLOW, { workflowId: `floor:${i}`, taskQueue: config.taskQueue, args: [{ ...input, leadId: `floor_${i}`, contactId: body.contactId }] });
        return { id: `floor_${i}` };
      }),
    );
    try {
      let f = 0;
      const floor = await alternate({
        ours: () => timed(() => enrolFromThread(Array.from({ length: n }, () => `ct_floor_${f++}`), floorServer.origin)),
        base: () => bareRound(),
        onRound: (r, o, b) => process.stderr.write(`[cadence] floor round ${r + 1}: starts/s behind a bare HTTP endpoint ${show(o)} / bare starts ${show(b)}\n`),
      });
      const floorAgainst = 'bare Temporal client starts, as cadence.enrol; the floor: a bare Koa endpoint doing only the same start, behind the same HTTP client';
      const floorRss = { temporalRssMb: peakRssMb(dev.process.pid!) };
      paired('cadence.enrol_floor', 'leads/s', floorAgainst, settled(floor.ours), settled(floor.base), floorRss);
      paired('cadence.enrol_floor_accepted', 'leads/s', `${floorAgainst}; until the last request is answered, as cadence.enrol_accepted`, accepted(floor.ours), accepted(floor.base), floorRss);
      cpu('cadence.enrol_floor_cpu_ms_per_lead', 'process', PROCESS.replace('API and worker', 'bare endpoint and worker'), floor.ours, floor.base, floorAgainst);
      cpu('cadence.enrol_floor_cpu_ms_per_lead', 'temporal', 'the embedded Temporal dev server', floor.ours, floor.base, floorAgainst);
    } finally {
      await floorServer.close();
    }
    // The handler's floor: the route's own handler (its reads, checks, the lead's insert and the
    // start) behind bare Koa with nothing around it but the key check: what ours adds over it is the
    // framework (router, validation, rate limit, idempotency, error envelope, request log, metrics).
    const route = allRoutes(services).find((r) => r.operationId === 'enrolLead')!;
    const handlerServer = await handlerFloor(services, route, rateLimitPolicy({ points: config.rateLimitPoints, windowSeconds: config.rateLimitWindowSeconds }));
    try {
      const handler = await alternate({
        ours: () => apiRound(handlerServer.origin),
        base: () => bareRound(),
        onRound: (r, o, b) => process.stderr.write(`[cadence] handler floor round ${r + 1}: leads/s through the route's handler alone ${show(o)} / bare starts ${show(b)}\n`),
      });
      const handlerAgainst = "bare Temporal client starts, as cadence.enrol; the handler's floor: the route's own handler behind bare Koa with only the key check, behind the same HTTP client";
      const handlerRss = { temporalRssMb: peakRssMb(dev.process.pid!) };
      paired('cadence.enrol_handler_floor', 'leads/s', handlerAgainst, settled(handler.ours), settled(handler.base), handlerRss);
      cpu('cadence.enrol_handler_floor_cpu_ms_per_lead', 'process', PROCESS.replace('API and worker', "the handler's endpoint and worker"), handler.ours, handler.base, handlerAgainst);
    } finally {
      await handlerServer.close();
    }
    const total = 1 + next + bare + floorStarts;

    // Every lead's workflow now sleeps on a durable timer until its first step.
    const query = `WorkflowType="${LEAD_CADENCE_WORKFLOW}" AND ExecutionStatus="Running"`;
    const deadline = Date.now() + 60_000;
    let inFlight = 0;
    while (Date.now() < deadline) {
      inFlight = (await temporal.client.workflow.count(query)).count;
      if (inFlight >= total) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    emit({ name: 'cadence.timers-in-flight', value: inFlight, unit: 'workflows', baseline: total, against: 'lead workflows started (API, bare starts, the two floors), each asleep until its first step', temporalRssMb: peakRssMb(dev.process.pid!) });
  } finally {
    await api.close();
    worker.shutdown();
    await running;
    await connection.close();
    await temporal.close();
    await dev.stop();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
