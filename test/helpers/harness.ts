import { checkContract } from './contract.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inject } from 'vitest';
import { createApp, listen } from '../../server/app.js';
import { loadConfig, type Config } from '../../server/config.js';
import { createLogger } from '../../server/logger.js';
import type { Services } from '../../server/services.js';
import { composeOps, composeProviders, composeServices, composeVoice, composeWorker, installTemporalRuntime } from '../../server/compose.js';
import { startAlertDispatcher } from '../../server/alerts/dispatcher.js';
import type { Db } from '../../server/store/sqlite/db.js';
import { openSqliteStore, type SqliteStore } from '../../server/store/sqlite/store.js';
import { openPostgresStore } from '../../server/store/postgres/store.js';
import { createDatabase } from './postgres.js';
import { SCOPES, type Role, type Scope } from '../../server/store/index.js';
import { connectTemporal, type WorkflowStarter } from '../../server/temporal/client.js';
import type { Ports, VoicePlatform } from '../../engine/ports.js';
import type { NativeConnection, Worker } from '@temporalio/worker';

export interface Harness {
  url: string;
  dir: string;
  taskQueue: string;
  temporalAddress: string;
  /** the SQLite connection under `store`, for tests that read rows as they are */
  db: Db;
  dbFile: string;
  /** the product's store (the port), as the product uses it */
  store: SqliteStore;
  services: Services;
  temporal: WorkflowStarter | null;
  agencyId: string;
  adminKey: string;
  /** a key of the same kind in another agency, for isolation tests */
  otherAgencyKey: string;
  key(opts: { role?: Role; scopes?: Scope[] | 'all'; projectIds?: string[]; agencyId?: string }): Promise<string>;
  api(method: string, path: string, opts?: { key?: string | null; body?: unknown; headers?: Record<string, string>; rawBody?: string }): Promise<{ status: number; body: any; headers: Headers; text: string }>;
  worker: Worker | null;
  /** stops the worker and (unless startAgain is false) starts a fresh one on the same task queue */
  restartWorker(ports?: Ports, opts?: { startAgain?: boolean }): Promise<void>;
  close(): Promise<void>;
}

let counter = 0;

/**
 * A real product instance for a test file: SQLite file in a temp dir, the Koa app on a free port,
 * and, when asked, a Temporal worker on its own task queue against the run's dev server. It is
 * wired by the same functions as `server/main.ts` (server/compose.ts), from the same config: a
 * test replaces only what it names (`ports`, `voice`), and by default calls are placed on the
 * sandbox voice platform, which reports their end to this instance's API, signed.
 */
export async function createHarness(opts: { temporal?: boolean; /** false: no in-process worker (the test runs worker processes) */ worker?: boolean; config?: Partial<Config>; ports?: (base: Ports, store: SqliteStore) => Ports; voice?: VoicePlatform; /** start from a copy of this database file (an older schema's fixture) */ fromDb?: string; /** where the product's log lines go (default: nowhere at the default 'silent' level) */ logSink?: NodeJS.WritableStream; /** Temporal frontend to use instead of the run's dev server (a proxy a test can cut) */ temporalAddress?: string; /** the API's client shares the in-process worker's connection, as `npm start` runs it (eager starts); the worker cannot be restarted */ sharedConnection?: boolean } = {}): Promise<Harness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-test-'));
  const dbFile = path.join(dir, 'app.db');
  if (opts.fromDb) fs.copyFileSync(opts.fromDb, dbFile);
  // TEST_STORE=postgres: the product on a Postgres database of its own (the run's cluster), for
  // the tests that reach the store only through the port. `h.db` and SQLite's extras are absent.
  const onPostgres = process.env.TEST_STORE === 'postgres' && !opts.fromDb;
  const pgDatabase = onPostgres ? await createDatabase('harness') : null;
  // A call of the store from inside its own open transaction fails the test instead of hanging it.
  const store = pgDatabase
    ? ((await openPostgresStore(pgDatabase.url, { checkTransactions: true })) as unknown as SqliteStore)
    : openSqliteStore(dbFile, { checkTransactions: true });
  const db = store.db;
  const taskQueue = `test-${process.pid}-${++counter}-${Date.now()}`;
  // Test receivers listen on loopback: the outbound guard's refusals are tested with this turned off.
  const config: Config = { ...loadConfig({}), dataDir: dir, taskQueue, logLevel: 'silent', outboundAllowPrivate: true, ...opts.config };
  // Once per test process, as main does: the SDK's lifecycle lines would drown test output
  // (warnings and errors still show), and its worker metrics are read by /metrics.
  await installTemporalRuntime(config, 'WARN');
  const ops = composeOps(config);
  const logger = createLogger(config.logLevel, opts.logSink);
  const providers = composeProviders(config, store, logger, ops);
  const basePorts = providers.ports;
  const ports = opts.ports ? opts.ports(basePorts, store) : basePorts;
  let url = '';
  const sandbox = opts.voice ? null : composeVoice(config, store, logger, () => url, providers.credentials);

  let temporal: WorkflowStarter | null = null;
  let worker: Worker | null = null;
  let running: Promise<void> | null = null;
  let workerConn: NativeConnection | null = null;
  const address = opts.temporalAddress ?? inject('temporalAddress');
  const startWorker = async (p: Ports) => {
    const made = await composeWorker({ config, address, store, ports: p, voice: opts.voice ?? sandbox!, bundle: { codePath: inject('workflowBundlePath') }, tracing: ops.tracing, eagerStarts: opts.sharedConnection });
    worker = made.worker;
    workerConn = made.connection;
    running = worker.run();
  };
  const stopWorker = async () => {
    if (!worker) return;
    worker.shutdown();
    await running;
    await workerConn!.close();
    worker = null;
  };
  if (opts.temporal && opts.sharedConnection) {
    await startWorker(ports);
    temporal = await connectTemporal(address, 'default', taskQueue, { shared: workerConn!, tracing: ops.tracing.enabled });
  } else if (opts.temporal) {
    temporal = await connectTemporal(address, 'default', taskQueue, { tracing: ops.tracing.enabled });
    if (opts.worker !== false) await startWorker(ports);
  }

  const services: Services = composeServices({ config, store, providers, ports, temporal, logger });
  const alerts = temporal ? startAlertDispatcher({ store, temporal, taskQueue, logger, intervalMs: 200 }) : null;
  const server: Server = listen(createApp(services), 0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const agencyId = `agency_${counter}_${process.pid}`;
  await store.agencies.ensure(agencyId, 'Test Agency', config.defaultPlanLimit);
  await store.agencies.ensure(`${agencyId}_other`, 'Other Agency', 3);
  const key: Harness['key'] = async ({ role = 'agency_admin', scopes = 'all', projectIds = [], agencyId: a = agencyId }) =>
    (await store.apiKeys.create({ agencyId: a, name: 'test', role, scopes: scopes === 'all' ? [...SCOPES] : scopes, projectIds })).secret;
  const adminKey = await key({});
  const otherAgencyKey = await key({ agencyId: `${agencyId}_other` });

  const api: Harness['api'] = async (method, p, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    const k = o.key === undefined ? adminKey : o.key;
    if (k) headers.authorization = `Bearer ${k}`;
    let body: string | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url + p, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    const violation = checkContract(services, method, p, res.status, parsed, res.headers.get('content-type'));
    if (violation) throw new Error(`contract: ${violation}`);
    return { status: res.status, body: parsed, headers: res.headers, text };
  };

  return {
    url, dir, taskQueue, temporalAddress: address, db, dbFile, store, services, temporal, agencyId, adminKey, otherAgencyKey, key, api,
    get worker() {
      return worker;
    },
    async restartWorker(p = ports, o = {}) {
      if (opts.sharedConnection) throw new Error('restartWorker: the API client shares this worker\'s connection (sharedConnection)');
      await stopWorker();
      if (o.startAgain !== false) await startWorker(p);
    },
    async close() {
      sandbox?.close();
      alerts?.stop();
      await new Promise<void>((r) => server.close(() => r()));
      await stopWorker();
      await temporal?.close();
      await store.close();
      await pgDatabase?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
