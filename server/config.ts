import path from 'node:path';
import { temporalTargetFromEnv, type TemporalAccess } from './temporal/connection-options.js';

/** Every setting comes from the environment, with a default that runs the product on one machine. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /**
   * DATABASE_URL (postgres://user:password@host:port/database): the store is that Postgres
   * database, shared by any number of API and worker processes. Unset: SQLite in DATA_DIR.
   */
  databaseUrl: string | undefined;
  /** host:port of an external Temporal frontend; unset means: start the embedded dev server. */
  temporalAddress: string | undefined;
  temporalNamespace: string;
  /** TLS (client certificate and key, server CA, server name), API key and gRPC metadata for that cluster */
  temporalAccess: TemporalAccess;
  temporalCli: string | undefined;
  taskQueue: string;
  logLevel: string;
  /** requests per window per API key */
  rateLimitPoints: number;
  rateLimitWindowSeconds: number;
  /** live projects an agency may have unless its own row says otherwise */
  defaultPlanLimit: number;
  /** max accepted age of a signed call event */
  eventToleranceSeconds: number;
  /** seconds a sandbox call lasts before the voice platform reports its end */
  sandboxCallSeconds: number;
  /** outcomes the sandbox voice platform reports, in turn per lead (SANDBOX_OUTCOMES=VOICEMAIL,SUCCESS) */
  sandboxOutcomes: string[];
  /** a dialled call whose end is not reported within this long counts as unanswered */
  dialerCallTimeoutSeconds: number;
  /** divides cadence delays: 60 makes a cadence minute last a second (demos only; 1 in production) */
  cadenceTimeScale: number;
  seedDemo: boolean;
  /** start-to-close timeout of one post-call action attempt */
  actionTimeoutSeconds: number;
  /** simulated latency of the sandbox SMS/email carrier */
  sandboxCarrierLatencyMs: number;
  /** vendors' API base URLs: their real hosts by default; tests and staging point them at mocks */
  gohighlevelBaseUrl: string;
  twilioBaseUrl: string;
  vapiBaseUrl: string;
  /** a GoHighLevel marketplace app's OAuth client, to refresh OAuth-connected locations' tokens */
  gohighlevelClientId: string | undefined;
  gohighlevelClientSecret: string | undefined;
  /** 32-byte key sealing vendor credentials at rest (unset: <DATA_DIR>/credentials.key, generated once) */
  credentialsKey: string | undefined;
  /** deadline of one vendor request */
  vendorTimeoutMs: number;
  /** how long CRM setup reads (pipelines, calendars, custom fields and values) are reused */
  crmReadCacheSeconds: number;
  /** how long an Idempotency-Key claim in progress lasts unless its request renews it (it does, every third of it, while it runs) */
  idempotencyLeaseSeconds: number;
  /** after a rotation, how long the previous webhook signing secret still verifies */
  webhookSecretGraceSeconds: number;
  /**
   * API_URL: where this process reaches an API (comma-separated: several, tried in turn): the
   * sandbox voice platform reports call ends there. Unset: this process's own API, or for a
   * worker-only process PUBLIC_URL.
   */
  apiUrls: string[];
  /** where vendors reach this API (a Server URL given to Vapi); unset: the address a request came to */
  publicUrl: string | undefined;
  /** `GET /metrics` needs `Authorization: Bearer <token>` when set */
  metricsToken: string | undefined;
  /** host:port of a separate listener for /metrics (and the health probes); when set, the API port does not serve /metrics */
  metricsAddress: string | undefined;
  /** host:port where the Temporal SDK's Prometheus exporter listens; unset: a free loopback port (its series are served in /metrics) */
  temporalMetricsAddress: string | undefined;
  /** OTLP/HTTP base URL for traces (OTEL_EXPORTER_OTLP_ENDPOINT); unset: no tracing */
  otlpEndpoint: string | undefined;
  serviceName: string;
  /** the Temporal Web UI that execution links point at; null: no links (an external cluster without TEMPORAL_UI_URL) */
  temporalUiUrl: string | null;
  /** log lines: `pretty` (readable) or `json`; unset: pretty when stdout is a terminal */
  logFormat: 'pretty' | 'json' | undefined;
  /**
   * OUTBOUND_ALLOW_PRIVATE: requests to tenants' URLs (alert webhooks) may reach loopback and
   * private addresses. For development and the test suite; unsafe wherever tenants share a server.
   */
  outboundAllowPrivate: boolean;
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function urlsFrom(env: NodeJS.ProcessEnv, name: string): string[] {
  const urls = (env[name] ?? '').split(',').map((u) => u.trim().replace(/\/+$/, '')).filter(Boolean);
  for (const u of urls) {
    if (!/^https?:\/\/[^/]+$/.test(u)) throw new Error(`${name} must be base URLs with their scheme, comma-separated (http://api-1:3000,http://api-2:3000), got "${u}"`);
  }
  return urls;
}

function databaseUrlFrom(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!/^postgres(ql)?:\/\//.test(raw)) throw new Error('DATABASE_URL must be a postgres:// (or postgresql://) URL; unset it to use SQLite in DATA_DIR');
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const int = (name: string, fallback: number) => intFrom(env, name, fallback);
  const temporal = temporalTargetFromEnv(env);
  return {
    port: int('PORT', 3000),
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: databaseUrlFrom(env.DATABASE_URL),
    temporalAddress: temporal.address,
    temporalNamespace: temporal.namespace,
    temporalAccess: temporal.access,
    temporalCli: env.TEMPORAL_CLI || undefined,
    taskQueue: env.TEMPORAL_TASK_QUEUE || 'voice-campaigns',
    logLevel: env.LOG_LEVEL || 'info',
    rateLimitPoints: int('RATE_LIMIT_POINTS', 600),
    rateLimitWindowSeconds: int('RATE_LIMIT_WINDOW_SECONDS', 60),
    defaultPlanLimit: int('PLAN_LIMIT_DEFAULT', 3),
    eventToleranceSeconds: int('EVENT_TOLERANCE_SECONDS', 300),
    sandboxCallSeconds: int('SANDBOX_CALL_SECONDS', 5),
    sandboxOutcomes: (env.SANDBOX_OUTCOMES || 'VOICEMAIL,SUCCESS').split(',').map((o) => o.trim()).filter(Boolean),
    dialerCallTimeoutSeconds: int('DIALER_CALL_TIMEOUT_SECONDS', 1800),
    cadenceTimeScale: Math.max(1, int('CADENCE_TIME_SCALE', 1)),
    seedDemo: env.SEED_DEMO !== 'false',
    actionTimeoutSeconds: int('ACTION_TIMEOUT_SECONDS', 30),
    sandboxCarrierLatencyMs: int('SANDBOX_CARRIER_LATENCY_MS', 0),
    gohighlevelBaseUrl: env.GHL_BASE_URL || 'https://services.leadconnectorhq.com',
    twilioBaseUrl: env.TWILIO_BASE_URL || 'https://api.twilio.com',
    vapiBaseUrl: env.VAPI_BASE_URL || 'https://api.vapi.ai',
    gohighlevelClientId: env.GHL_CLIENT_ID || undefined,
    gohighlevelClientSecret: env.GHL_CLIENT_SECRET || undefined,
    credentialsKey: env.CREDENTIALS_KEY || undefined,
    vendorTimeoutMs: int('VENDOR_TIMEOUT_MS', 15_000),
    crmReadCacheSeconds: int('CRM_READ_CACHE_SECONDS', 60),
    idempotencyLeaseSeconds: Math.max(1, int('IDEMPOTENCY_LEASE_SECONDS', 30)),
    webhookSecretGraceSeconds: int('WEBHOOK_SECRET_GRACE_SECONDS', 86_400),
    apiUrls: urlsFrom(env, 'API_URL'),
    publicUrl: env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, '') : undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsAddress: env.METRICS_ADDRESS || undefined,
    temporalMetricsAddress: env.TEMPORAL_METRICS_ADDRESS || undefined,
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
    serviceName: env.OTEL_SERVICE_NAME || 'voice-campaigns',
    // The embedded dev server's UI by default; an external cluster's UI only when named.
    temporalUiUrl: (env.TEMPORAL_UI_URL || (temporal.address ? '' : `http://127.0.0.1:${env.TEMPORAL_UI_PORT || 8233}`)).replace(/\/+$/, '') || null,
    logFormat: env.LOG_FORMAT === 'pretty' || env.LOG_FORMAT === 'json' ? env.LOG_FORMAT : undefined,
    outboundAllowPrivate: env.OUTBOUND_ALLOW_PRIVATE === 'true',
  };
}

/**
 * With `DATABASE_URL` the store is shared by processes on other machines, so nothing they must agree
 * on may come from this machine: what a process of this role would be missing, each with why
 * (empty: it may start).
 */
export function sharedStoreProblems(config: Config, role: 'all' | 'server' | 'worker'): string[] {
  if (!config.databaseUrl) return [];
  const problems: string[] = [];
  if (!config.credentialsKey) {
    problems.push('CREDENTIALS_KEY is required with DATABASE_URL: every process must seal and open vendor credentials with the same key (a key generated into this DATA_DIR would be this machine\'s alone)');
  }
  if (!config.temporalAddress) {
    problems.push('TEMPORAL_ADDRESS is required with DATABASE_URL: the processes sharing the store must share a Temporal cluster (the embedded dev server keeps its state in this DATA_DIR)');
  }
  if (role === 'worker' && config.apiUrls.length === 0 && !config.publicUrl) {
    problems.push('API_URL (or PUBLIC_URL) is required for a worker with DATABASE_URL: where the sandbox voice platform reports the end of the calls it places');
  }
  return problems;
}
