/**
 * The power dialer on the embedded Temporal: leads enrolled per second through the API
 * (POST /api/power-dialer/leads: store + workflow start), against bare Temporal starts of the same
 * workflow; then the durable timers in flight (every lead sleeps until its first step, a day away).
 *
 *   npx tsx bench/cadence.ts              # BENCH_CADENCE_LEADS=1000 BENCH_CONCURRENCY=16
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { LEAD_CADENCE_WORKFLOW, type LeadCadenceInput } from '../engine/workflows/lead-cadence-types.js';
import { createApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/logger.js';
import { createRepos } from '../server/services.js';
import { composeProviders, composeServices, composeWorker } from '../server/compose.js';
import { openDb } from '../server/store/db.js';
import { SCOPES } from '../server/store/api-keys.js';
import { connectTemporal } from '../server/temporal/client.js';
import { startDevServer } from '../server/temporal/launcher.js';
import { bundleWorkflows } from '../server/temporal/worker.js';
import { emit } from './figures.js';

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

export async function run(): Promise<void> {
  const n = Number(process.env.BENCH_CADENCE_LEADS || 1000);
  const concurrency = Number(process.env.BENCH_CONCURRENCY || 16);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-bench-cadence-'));
  process.stderr.write('[cadence] starting the embedded Temporal dev server and a worker...\n');
  const dev = await startDevServer({ uiPort: null });
  const db = openDb(path.join(dir, 'app.db'));
  const repos = createRepos(db);
  // The API's per-key rate limit would cap the measurement, not the dialer: lifted for the bench.
  const config = { ...loadConfig({}), dataDir: dir, taskQueue: `bench-cadence-${process.pid}`, logLevel: 'silent', rateLimitPoints: 1_000_000 };
  const logger = createLogger(config.logLevel);
  const providers = composeProviders(config, db, repos, logger);
  const ports = providers.ports;
  const temporal = await connectTemporal(dev.address, 'default', config.taskQueue);
  // No call is due during the bench (the first step is a day away); a voice platform that places nothing.
  const voice = { placeCall: async (r: { callId: string }) => ({ callId: r.callId }) };
  const { worker, connection } = await composeWorker({ config, address: dev.address, db, repos, ports, voice, bundle: await bundleWorkflows() });
  const running = worker.run();
  const services = composeServices({ config, db, repos, providers, temporal, logger });
  const server: Server = createApp(services).listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  try {
    const agencyId = 'bench';
    repos.agencies.ensure(agencyId, 'Bench', 10);
    const key = repos.apiKeys.create({ agencyId, name: 'bench', role: 'agency_admin', scopes: [...SCOPES], projectIds: [] }).secret;
    const project = repos.projects.insert({ agencyId, crm: 'crm_a', locationId: 'loc_bench', timezone: 'America/Chicago', agencyName: 'Bench', active: true, status: 'live', installed: true, businessName: 'Clinic' });
    const agent = repos.agents.insert({ agencyId, projectId: project.id, locationId: project.locationId, name: 'a', agentType: 'outreach', capabilities: [], campaignId: null, postCallFields: [] } as never);
    const cadence = repos.cadences.insert({ agencyId, name: 'daily', steps: [{ delayMinutes: 1440 }, { delayMinutes: 1440 }] });
    const campaign = repos.campaigns.insert({ agencyId, projectId: project.id, agentId: agent.id, name: 'Bench', activeTags: ['new-lead'], inactiveTags: [], dialing: 'pd', agentType: null, fromNumbers: [], active: true, config: { cadenceId: cadence.id } });
    const contacts = Array.from({ length: n }, (_, i) =>
      repos.crm.createContact(agencyId, { locationId: project.locationId, firstName: `Lead${i}`, phone: `+1512${String(3_000_000 + i).padStart(7, '0')}`, tags: ['new-lead'] }).id,
    );

    process.stderr.write(`[cadence] enrolling ${n} leads through the API, ${concurrency} at a time...\n`);
    const ms = await pool(n, concurrency, async (i) => {
      const res = await fetch(`${url}/api/power-dialer/leads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ campaignId: campaign.id, contactId: contacts[i] }),
      });
      if (res.status !== 200) throw new Error(`enrol ${i}: ${res.status} ${await res.text()}`);
    });

    // Let the worker finish the first task of every lead (its first mirror touches the row), so the
    // baseline does not run against that backlog.
    const mirrored = db.prepare('SELECT count(*) FROM leads WHERE updated_at > created_at').pluck();
    for (const until = Date.now() + 60_000; (mirrored.get() as number) < n && Date.now() < until; ) await new Promise((r) => setTimeout(r, 200));

    // Baseline: the same workflow, the same kind of input, started straight on the Temporal client.
    const sample = repos.leads.inCampaign(agencyId, campaign.id, contacts[0]!)!;
    const history = await temporal.client.workflow.getHandle(`lead:${sample.id}`).fetchHistory();
    const { defaultPayloadConverter } = await import('@temporalio/common');
    const input = defaultPayloadConverter.fromPayload(history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!) as LeadCadenceInput;
    const bareMs = await pool(n, concurrency, async (i) => {
      await temporal.client.workflow.start(LEAD_CADENCE_WORKFLOW, { workflowId: `bare:${i}`, taskQueue: config.taskQueue, args: [{ ...input, leadId: `bare_${i}` }] });
    });
    emit({ name: 'cadence.enrol', value: n / (ms / 1000), unit: 'leads/s', baseline: n / (bareMs / 1000), against: `bare Temporal client starts of the same workflow, ${concurrency} concurrent, ${n} each` });

    // Every lead's workflow now sleeps on a durable timer until its first step.
    const query = `WorkflowType="${LEAD_CADENCE_WORKFLOW}" AND ExecutionStatus="Running"`;
    const deadline = Date.now() + 60_000;
    let inFlight = 0;
    while (Date.now() < deadline) {
      inFlight = (await temporal.client.workflow.count(query)).count;
      if (inFlight >= 2 * n) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    emit({ name: 'cadence.timers-in-flight', value: inFlight, unit: 'workflows', baseline: 2 * n, against: 'lead workflows started (API + bare), each asleep until its first step' });
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
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
