import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Store } from './store/index.js';
import type { WorkflowStarter } from './temporal/client.js';
import type { Metrics } from './ops/metrics.js';
import type { Tracing } from './ops/tracing.js';
import type { NumberInventory, Ports } from '../engine/ports.js';
import type { ProviderRegistry } from './providers/registry.js';
import type { CredentialStore } from './providers/credentials.js';
import type { NumberPurchasing } from './domain/phone-numbers/purchasing.js';
import type { Outbound } from './outbound/guarded-client.js';

/**
 * Everything the domain and the route handlers may reach. `store` is the port
 * (server/store/index.ts); under an Idempotency-Key the guard hands a handler these services with
 * `store` bound to the transaction that also stores the answer.
 */
export interface Services {
  config: Config;
  store: Store;
  /** post-call action ports (server/providers/registry.ts routes them per location) */
  ports: Ports;
  providers: ProviderRegistry;
  credentials: CredentialStore;
  /** the sandbox carrier's inventory (what `purchasing` buys from without Twilio credentials) */
  numbers: NumberInventory;
  /** buying caller IDs and listing what can be bought, from the agency's carrier */
  purchasing: NumberPurchasing;
  temporal: WorkflowStarter | null;
  logger: Logger;
  metrics: Metrics;
  tracing: Tracing;
  /** the guarded client for addresses a tenant chose: saving such a URL asks it first */
  outbound: Outbound;
  /** the per-key request counters (server/compose.ts: process memory, or Postgres on a shared store) */
  rateLimiter: RateLimiterAbstract;
}
