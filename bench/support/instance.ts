import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { createApp, listen } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { createLogger, logDestination } from '../../server/logger.js';
import { composeProviders, composeServices, composeVoice, composeWorker } from '../../server/compose.js';
import { openSqliteStore, type SqliteStore } from '../../server/store/sqlite/store.js';
import { openPostgresStore } from '../../server/store/postgres/store.js';
import { SCOPES } from '../../server/store/index.js';
import { connectTemporal } from '../../server/temporal/client.js';
import { startDevServer } from '../../server/temporal/launcher.js';

try {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
} catch {
  /* installed */
}

/**
 * The product as `npm start` runs it (embedded Temporal, in-process worker), on a temp store.
 * `requestLog`: log at info as main does (one line per request), into a file in the temp dir
 * through the same kind of pino destination main's stdout gets; otherwise silent. `postgresUrl`:
 * the store is that (empty) Postgres database instead of SQLite (`db` is then SQLite's only).
 */
export async function startInstance(opts: { temporal?: boolean; requestLog?: boolean; postgresUrl?: string } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
  const store = opts.postgresUrl ? await openPostgresStore(opts.postgresUrl) : openSqliteStore(path.join(dir, 'app.db'));
  /** the SQLite connection (benchmarks of the SQLite store only) */
  const db = (store as SqliteStore).db;
  const level = opts.requestLog ? 'info' : 'silent';
  const config = { ...loadConfig({}), dataDir: dir, logLevel: level, rateLimitPoints: 10_000_000, defaultPlanLimit: 1000 };
  const logger = opts.requestLog ? createLogger(level, logDestination(path.join(dir, 'app.log'))) : createLogger('silent');
  const providers = composeProviders(config, store, logger);
  const ports = providers.ports;
  let url = '';
  const stops: (() => Promise<void>)[] = [];
  let temporal = null;
  let address = '';
  let temporalPid: number | undefined;
  if (opts.temporal) {
    const dev = await startDevServer({ uiPort: null });
    address = dev.address;
    temporalPid = dev.process.pid;
    stops.push(() => dev.stop());
    const voice = composeVoice(config, store, logger, () => url, providers.credentials);
    const { worker, connection } = await composeWorker({ config, address, store, ports, voice, eagerStarts: true });
    const running = worker.run();
    // As `npm start` runs it: the API's client shares the worker's connection (eager starts).
    temporal = await connectTemporal(address, 'default', config.taskQueue, { shared: connection, tracing: false });
    stops.unshift(async () => {
      voice.close();
      worker.shutdown();
      await running;
      await connection.close();
      await temporal!.close();
    });
  }
  const services = composeServices({ config, store, providers, temporal, logger });
  const server: Server = listen(createApp(services), 0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agency = await store.agencies.ensure('bench', 'Bench', 1000);
  const key = (await store.apiKeys.create({ agencyId: agency.id, name: 'bench', role: 'agency_admin', scopes: [...SCOPES], projectIds: [] })).secret;
  return {
    url, key, agency, services, store, db, address, temporal, temporalPid, config,
    api: async (method: string, p: string, body?: unknown) => {
      const res = await fetch(url + p, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as any };
    },
    async stop() {
      await new Promise<void>((r) => server.close(() => r()));
      for (const s of stops) await s();
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
export type Instance = Awaited<ReturnType<typeof startInstance>>;

export async function seedCampaign(inst: Instance, n = 0) {
  const locationId = `bench_loc_${n}`;
  const project = await inst.api('POST', '/api/v2/projects', { crm: 'crm_a', locationId, timezone: 'America/Chicago', businessName: 'Bench Dental' });
  const agent = await inst.api('POST', '/api/agent-builder/agents', { name: 'Bench', agentType: 'outreach', locationId, capabilityIds: ['appointment_booking'] });
  if (project.status !== 200 || agent.status !== 200) throw new Error('seeding failed');
  return { locationId, projectId: project.body.data.id as string, agentId: agent.body.data.id as string, campaignId: agent.body.data.campaignId as string };
}

/** The call the API benchmarks read back by id (`BENCH_CALL_PATH`), stored in the campaign of `seedCampaign`. */
export async function storeBenchCall(inst: Instance, ctx: Awaited<ReturnType<typeof seedCampaign>>) {
  const doc = { callId: 'bench-call', date: '2026-11-22', dateTime: new Date().toISOString(), leadName: 'Ana', phoneNumber: '+15125550123', direction: 'outbound', status: 'ended', duration: 42, agent: 'Bench', callSummary: 's', projectName: 'p', cost: 0.1, agentType: 'appointment_booking', campaignId: ctx.campaignId, campaignName: 'c', disposition: { type: 'voicemail', label: 'Voicemail', color: '#8b5cf6' }, transcript: 't', fields: [], transcriptSource: 'live', contactId: 'ct' };
  await inst.store.calls.insert(inst.agency.id, ctx.projectId, ctx.agentId, doc as never);
}

export const BENCH_CALL_PATH = '/api/call-history/by-call-id/bench-call';
