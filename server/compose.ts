import type { Logger } from 'pino';
import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { Config } from './config.js';
import path from 'node:path';
import type { Store } from './store/index.js';
import { openSqliteStore } from './store/sqlite/store.js';
import { describeUpgrade } from './store/sqlite/db.js';
import { openPostgresStore, type PostgresStore } from './store/postgres/store.js';
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Services } from './services.js';
import { createEmbeddedPorts, createNumberInventory } from './adapters/embedded-ports.js';
import { embeddedDirectory } from './adapters/embedded-directory.js';
import { credentialStore, type CredentialStore } from './providers/credentials.js';
import { providerRegistry, type ProviderRegistry } from './providers/registry.js';
import { createSealer, loadSealingKey } from './providers/sealing.js';
import { nudgeAlerts } from './alerts/nudge.js';
import { createAlertActivities } from './alerts/activities.js';
import { sandboxMessaging } from './adapters/sandbox-messaging.js';
import type { Ports, VoicePlatform } from '../engine/ports.js';
import type { WorkflowStarter } from './temporal/client.js';
import { sandboxVoice } from './adapters/sandbox-voice.js';
import { vapiVoice } from './adapters/vapi/voice.js';
import { PermanentPortError } from '../engine/ports.js';
import { createLeadCadenceActivities } from '../engine/activities/lead-cadence.js';
import { storeLeadQueue } from './adapters/lead-queue.js';
import { createWorker } from './temporal/worker.js';
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import { createMetrics, instrumentedPorts, type Metrics } from './ops/metrics.js';
import { startTracing, type Tracing } from './ops/tracing.js';
import { freePort } from './temporal/launcher.js';
import { outboundClient } from './outbound/guarded-client.js';
import { voicePlatformOf } from './providers/choice.js';
import { numberPurchasing } from './domain/phone-numbers/purchasing.js';
import { createReplayActivities } from './replay/activities.js';

/**
 * How the product's parts are wired, written once: `server/main.ts`, the test harness and the
 * benchmarks all build the product through these functions, so a setting that main honours (the
 * sandbox carrier's latency, the sandbox voice platform's timing and script) is honoured in every
 * test too. Callers choose what to replace (a test's flaky ports, a controllable voice platform),
 * never how the rest is put together.
 */

export interface Providers {
  credentials: CredentialStore;
  registry: ProviderRegistry;
  /** what post-call actions act through: per location, the real CRM and carrier or the sandbox */
  ports: Ports;
  /** metrics and traces of this instance; its ports record run and step metrics */
  ops: Ops;
}

export interface Ops {
  metrics: Metrics;
  tracing: Tracing;
}

let runtime: { metricsAddress: string | null } | undefined;

/**
 * The Temporal SDK's Core runtime, once per process and before any worker: its logger, and its
 * worker metrics exported in Prometheus format on `TEMPORAL_METRICS_ADDRESS` (unset: a free
 * loopback port), which `GET /metrics` reads and serves after the product's own series.
 */
export async function installTemporalRuntime(config: Pick<Config, 'temporalMetricsAddress'>, logLevel: LogLevel = 'WARN'): Promise<{ metricsAddress: string | null }> {
  if (runtime) return runtime;
  const metricsAddress = config.temporalMetricsAddress ?? `127.0.0.1:${await freePort()}`;
  try {
    Runtime.install({
      logger: new DefaultLogger(logLevel),
      // Our own handlers stop the worker on SIGINT/SIGTERM, in order; the runtime must not race them.
      shutdownSignals: [],
      // Temporal's metric names as its documentation lists them; durations in seconds, like ours.
      telemetryOptions: { metrics: { prometheus: { bindAddress: metricsAddress, useSecondsForDurations: true } } },
    });
    runtime = { metricsAddress };
  } catch {
    // Installed earlier in this process by someone else: its settings stand.
    runtime = { metricsAddress: null };
  }
  return runtime;
}

/** Metrics (with the Temporal runtime's, when it was installed here) and tracing (process-wide). */
export function composeOps(config: Config): Ops {
  return {
    metrics: createMetrics({ temporalMetricsUrl: runtime?.metricsAddress ? `http://${runtime.metricsAddress}/metrics` : null }),
    tracing: startTracing({ otlpEndpoint: config.otlpEndpoint, serviceName: config.serviceName }),
  };
}

/**
 * The outside world: vendor credentials (sealed at rest), and per CRM location the real CRM and
 * SMS carrier when the project is connected to them, else the embedded sandbox.
 */
export function composeProviders(config: Config, store: Store, logger: Logger, ops: Ops = composeOps(config)): Providers {
  const credentials = credentialStore(store.credentials, createSealer(loadSealingKey(config.dataDir, config.credentialsKey)));
  const embedded = createEmbeddedPorts(store, { carrierLatencyMs: config.sandboxCarrierLatencyMs });
  const registry = providerRegistry({
    config,
    store,
    credentials,
    journal: store.effectJournal,
    sandbox: { ...embedded, directory: embeddedDirectory(store) },
    logger,
    onAlert: nudgeAlerts,
  });
  return { credentials, registry, ports: instrumentedPorts(registry.ports(), ops.metrics, store.executions), ops };
}

/**
 * The voice platform the dialer places calls on, per agency: Vapi when the agency chose it (with its
 * Vapi credentials, assistants and numbers mapped), else the sandbox one, which reports each call's
 * end to the API's own events endpoint, signed (`apiUrl` is asked at report time, so a server on a
 * port chosen at listen time works).
 */
export function composeVoice(config: Config, store: Store, logger: Logger, apiUrl: () => string | readonly string[], credentials: CredentialStore): VoicePlatform & { close(): void } {
  const sandbox = sandboxVoice({
    baseUrl: apiUrl,
    secretOf: async (agencyId) => (await store.agencies.get(agencyId))?.signingSecret,
    callSeconds: config.sandboxCallSeconds,
    outcomes: config.sandboxOutcomes,
    logger,
  });
  const vapi = vapiVoice({
    baseUrl: config.vapiBaseUrl,
    timeoutMs: config.vendorTimeoutMs,
    journal: store.effectJournal,
    apiKey: async (agencyId) => {
      const cred = await credentials.get(agencyId, 'agency', 'vapi');
      if (!cred) throw new PermanentPortError('the agency places calls on Vapi but has no Vapi credentials: PUT /api/agency/credentials/vapi');
      return cred.apiKey;
    },
    resolve: async ({ agencyId, campaignId, from }) => {
      const campaign = await store.campaigns.get(agencyId, campaignId);
      const agent = campaign && (await store.agents.get(agencyId, campaign.agentId));
      if (!agent?.vapiAssistantId) throw new PermanentPortError(`agent ${agent?.id ?? '?'} has no vapiAssistantId: set it (PATCH /api/agent-builder/agents/{id})`);
      const number = from ? await store.phoneNumbers.get(agencyId, from) : undefined;
      if (!number?.vapiPhoneNumberId) throw new PermanentPortError(`caller ID ${from ?? '(none)'} has no vapiPhoneNumberId: register it (PUT /api/agent-builder/phone-numbers/{number})`);
      return { assistantId: agent.vapiAssistantId, phoneNumberId: number.vapiPhoneNumberId };
    },
  });
  return {
    async placeCall(req) {
      if (voicePlatformOf(await store.agencies.settings(req.agencyId)) === 'vapi') return { ...(await vapi.placeCall(req)), platform: 'vapi' };
      return { ...(await sandbox.placeCall(req)), platform: 'sandbox' };
    },
    close: () => sandbox.close(),
  };
}

/** Everything a route handler may reach. */
export function composeServices(parts: { config: Config; store: Store; providers: Providers; ports?: Ports; temporal: WorkflowStarter | null; logger: Logger }): Services {
  const { providers, ports, ...rest } = parts;
  const numbers = createNumberInventory(parts.store);
  return {
    ...rest,
    ports: ports ?? providers.ports,
    providers: providers.registry,
    credentials: providers.credentials,
    numbers,
    purchasing: numberPurchasing({ config: parts.config, store: parts.store, credentials: providers.credentials, sandbox: numbers, logger: parts.logger }),
    metrics: providers.ops.metrics,
    tracing: providers.ops.tracing,
    outbound: outboundClient({ allowPrivate: parts.config.outboundAllowPrivate }),
    rateLimiter: composeRateLimiter(parts.config, parts.store),
  };
}

/**
 * The per-key rate limit's counters: in this process's memory on the embedded store (one API
 * process per SQLite file), in Postgres on a shared store, so every API process counts against
 * one limit (`rate_limits`, Postgres migration 002). If Postgres does not answer, each process
 * falls back to its own memory counters rather than refusing or admitting every request.
 */
export function composeRateLimiter(config: Pick<Config, 'rateLimitPoints' | 'rateLimitWindowSeconds'>, store: Store): RateLimiterAbstract {
  const opts = { points: config.rateLimitPoints, duration: config.rateLimitWindowSeconds, keyPrefix: 'api' };
  const memory = new RateLimiterMemory(opts);
  const pool = (store as Partial<PostgresStore>).pool;
  if (!pool) return memory;
  return new RateLimiterPostgres({ ...opts, storeClient: pool, storeType: 'pool', tableName: 'rate_limits', tableCreated: true, clearExpiredByTimeout: true, insuranceLimiter: memory });
}

/**
 * A worker with every activity: post-call actions on `ports`, the dialer's on `voice` and the lead
 * store, alert delivery (its email through the sandbox carrier), and what-if replays (the store,
 * and of `ports` only the read of a contact).
 */
export async function composeWorker(opts: {
  config: Config;
  address: string;
  store: Store;
  ports: Ports;
  voice: VoicePlatform;
  bundle?: WorkflowBundleWithSourceMap | { codePath: string };
  /** where workflow spans go (the process's tracing) */
  tracing?: Tracing;
  /** the API's client will share this worker's connection and start runs eagerly (the all-in-one process) */
  eagerStarts?: boolean;
}) {
  const activities = {
    ...createLeadCadenceActivities({ voice: opts.voice, leads: storeLeadQueue(opts.store) }),
    ...createAlertActivities({
      config: opts.config,
      store: opts.store,
      email: sandboxMessaging(opts.store, opts.config.sandboxCarrierLatencyMs),
      outbound: outboundClient({ allowPrivate: opts.config.outboundAllowPrivate }),
    }),
    ...createReplayActivities({ store: opts.store, crm: { getContact: (...a) => opts.ports.crm.getContact(...a) } }),
  };
  return createWorker({ address: opts.address, access: opts.config.temporalAccess, namespace: opts.config.temporalNamespace, taskQueue: opts.config.taskQueue, ports: opts.ports, bundle: opts.bundle, activities, eagerStarts: opts.eagerStarts, ...(opts.tracing && { tracing: opts.tracing }) });
}

export { apiUrlOf } from './compose-url.js';

/**
 * The store this process uses: the Postgres database at `DATABASE_URL` when it is set (shared by
 * every process; its schema migrated under an advisory lock, so processes may start together),
 * else SQLite in `DATA_DIR` (the embedded default). Upgrades of an existing store are logged as
 * they go.
 */
export async function openStore(config: Pick<Config, 'dataDir' | 'databaseUrl'>, logger: Logger, opts: { checkTransactions?: boolean } = {}): Promise<Store> {
  const onUpgrade = (e: { version: number; name: string; ms?: number; done?: number; total?: number; unit?: string }) =>
    logger.info({ schema: e.version, migration: e.name, ms: e.ms, done: e.done, total: e.total }, describeUpgrade(e));
  if (config.databaseUrl) {
    return openPostgresStore(config.databaseUrl, { ...opts, onUpgrade, onIdleError: (err) => logger.warn({ err }, 'a pooled Postgres connection failed while idle; the pool replaces it') });
  }
  return openSqliteStore(path.join(config.dataDir, 'app.db'), { ...opts, onUpgrade });
}
