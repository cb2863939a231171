import path from 'node:path';
import type { Server } from 'node:http';
import { loadConfig, sharedStoreProblems } from './config.js';
import { createLogger, flushLogs } from './logger.js';
import { createApp, createOpsApp, listen } from './app.js';
import { connectTemporal } from './temporal/client.js';
import { startDevServer, type DevServer } from './temporal/launcher.js';
import { seedDemo } from './domain/seed.js';
import { apiUrlOf, composeOps, composeProviders, composeServices, composeVoice, composeWorker, installTemporalRuntime, openStore } from './compose.js';
import { startAlertDispatcher } from './alerts/dispatcher.js';

type Role = 'all' | 'server' | 'worker';

/**
 * `npm start` runs every part in one process: store, embedded Temporal (unless TEMPORAL_ADDRESS
 * names a cluster), a worker, the API and the editor. `--role=server` / `--role=worker` run one
 * part, for scaling out against a shared Temporal cluster.
 */
async function main() {
  const role = (process.argv.find((a) => a.startsWith('--role='))?.slice(7) ?? 'all') as Role;
  const config = loadConfig();
  const problems = sharedStoreProblems(config, role);
  if (problems.length > 0) throw new Error(`cannot start with a shared store:\n- ${problems.join('\n- ')}`);
  // Where the sandbox voice platform reports call ends: an API process, this one (or for a worker
  // on its own, PUBLIC_URL, else the API on this host) unless API_URL says.
  const reportTo = config.apiUrls.length > 0 ? config.apiUrls : role === 'worker' && config.publicUrl ? [config.publicUrl] : [apiUrlOf(config)];
  // Before anything Temporal: the runtime's logger and its worker metrics exporter (see /metrics).
  await installTemporalRuntime(config, (process.env.TEMPORAL_LOG_LEVEL as 'WARN' | undefined) ?? 'WARN');
  const ops = composeOps(config);
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  // STORE_CHECK_TRANSACTIONS=true: a store call from inside its own transaction fails loudly (as in the tests) instead of waiting.
  const store = await openStore(config, logger, { checkTransactions: process.env.STORE_CHECK_TRANSACTIONS === 'true' });
  const providers = composeProviders(config, store, logger, ops);
  const ports = providers.ports;
  const stops: (() => Promise<void>)[] = [];

  if (role !== 'worker' && config.seedDemo) {
    const seeded = await seedDemo({ store, planLimit: config.defaultPlanLimit });
    if (seeded) {
      process.stdout.write(
        `\nDemo agency "demo" created. Its admin API key (shown once, stored only hashed):\n\n  ${seeded.adminKey}\n\n` +
          `Open http://${config.host}:${config.port}/editor/ and paste it to sign in.\n\n`,
      );
    }
  }

  let address = config.temporalAddress;
  let dev: DevServer | undefined;
  if (!address) {
    logger.info('starting the embedded Temporal dev server');
    dev = await startDevServer({
      dbFile: path.join(config.dataDir, 'temporal.db'),
      port: Number(process.env.TEMPORAL_DEV_PORT || 7233),
      uiPort: Number(process.env.TEMPORAL_UI_PORT || 8233),
    });
    address = dev.address;
    logger.info({ address, ui: dev.uiUrl }, 'embedded Temporal is up');
    stops.push(() => dev!.stop());
  }

  // The worker first: in the all-in-one process the API's client shares its connection, so the
  // server can hand a post-call run's first task straight to it (eager start, server/temporal/client.ts).
  let workerConnection: import('@temporalio/worker').NativeConnection | undefined;
  if (role !== 'server') {
    const voice = composeVoice(config, store, logger, () => reportTo, providers.credentials);
    const { worker, connection } = await composeWorker({ config, address, store, ports, voice, tracing: ops.tracing, eagerStarts: role === 'all' });
    workerConnection = connection;
    const running = worker.run();
    stops.unshift(async () => {
      voice.close();
      worker.shutdown();
      await running;
      await connection.close();
    });
    logger.info({ taskQueue: config.taskQueue }, 'worker running');
  }
  const temporal = await connectTemporal(address, config.temporalNamespace, config.taskQueue, {
    shared: role === 'all' ? workerConnection : undefined,
    tracing: ops.tracing.enabled,
    access: config.temporalAccess,
  });
  stops.unshift(() => temporal.close());

  const services = composeServices({ config, store, providers, temporal, logger });
  const serve = async (app: import('koa'), port: number, host: string) => {
    const server: Server = listen(app, port, host);
    await new Promise<void>((r) => server.once('listening', () => r()));
    stops.unshift(() => new Promise<void>((r) => server.close(() => r())));
  };
  if (role !== 'worker') {
    const alerts = startAlertDispatcher({ store, temporal, taskQueue: config.taskQueue, logger });
    stops.unshift(async () => alerts.stop());
    await serve(createApp(services), config.port, config.host);
    logger.info({ role, port: config.port, host: config.host }, 'API listening');
    process.stdout.write(`API on http://${config.host}:${config.port}/api  editor on http://${config.host}:${config.port}/editor/` + (dev?.uiUrl ? `  Temporal UI on ${dev.uiUrl}` : '') + '\n');
  }
  // /metrics and the health probes on their own listener; a worker process (no API) serves them only there.
  if (config.metricsAddress) {
    const [host, port] = [config.metricsAddress.slice(0, config.metricsAddress.lastIndexOf(':')), Number(config.metricsAddress.slice(config.metricsAddress.lastIndexOf(':') + 1))];
    await serve(createOpsApp(services), port, host || '127.0.0.1');
    logger.info({ address: config.metricsAddress }, '/metrics served on its own listener');
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    for (const stop of stops) {
      try {
        await stop();
      } catch (err) {
        logger.error({ err }, 'shutdown step failed');
      }
    }
    await ops.tracing.shutdown().catch(() => undefined);
    await store.close();
    await flushLogs(logger).catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`startup failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
