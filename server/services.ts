import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Db } from './store/db.js';
import { agenciesRepo } from './store/agencies.js';
import { agentsRepo } from './store/agents.js';
import { apiKeysRepo } from './store/api-keys.js';
import { callsRepo } from './store/calls.js';
import { campaignsRepo } from './store/campaigns.js';
import { crmRepo } from './store/crm.js';
import { effectsRepo } from './store/effects.js';
import { executionsRepo } from './store/executions.js';
import { idempotencyRepo } from './store/idempotency.js';
import { projectsRepo } from './store/projects.js';
import { workflowsRepo } from './store/workflows.js';
import { runInputsRepo } from './store/run-inputs.js';
import { phoneNumbersRepo } from './store/phone-numbers.js';
import { numberPurchasesRepo } from './store/number-purchases.js';
import { numberInventoryRepo } from './store/number-inventory.js';
import { cadencesRepo } from './store/cadences.js';
import { leadsRepo } from './store/leads.js';
import { webhookSignaturesRepo } from './store/webhook-signatures.js';
import { credentialsRepo } from './store/credentials.js';
import { placedCallsRepo } from './store/placed-calls.js';
import { alertsRepo } from './store/alerts.js';
import { sandboxNumberInventory } from './adapters/sandbox-voice-numbers.js';
import type { WorkflowStarter } from './temporal/client.js';
import type { Metrics } from './ops/metrics.js';
import type { Tracing } from './ops/tracing.js';
import type { NumberInventory, Ports } from '../engine/ports.js';
import type { ProviderRegistry } from './providers/registry.js';
import type { CredentialStore } from './providers/credentials.js';
import type { NumberPurchasing } from './phone-numbers/purchasing.js';
import { embeddedCrm } from './adapters/embedded-crm.js';
import { sandboxMessaging } from './adapters/sandbox-messaging.js';
import { embeddedCalendar } from './adapters/embedded-calendar.js';
import { storeExecutionLog } from './adapters/execution-log.js';
import { nudgeAlerts } from './alerts/nudge.js';
import type { Outbound } from './outbound/guarded-client.js';

export function createRepos(db: Db) {
  return {
    agencies: agenciesRepo(db),
    apiKeys: apiKeysRepo(db),
    projects: projectsRepo(db),
    agents: agentsRepo(db),
    campaigns: campaignsRepo(db),
    workflows: workflowsRepo(db),
    idempotency: idempotencyRepo(db),
    calls: callsRepo(db),
    executions: executionsRepo(db),
    crm: crmRepo(db),
    effects: effectsRepo(db),
    runInputs: runInputsRepo(db),
    phoneNumbers: phoneNumbersRepo(db),
    numberPurchases: numberPurchasesRepo(db),
    numberInventory: numberInventoryRepo(db),
    cadences: cadencesRepo(db),
    leads: leadsRepo(db),
    webhookSignatures: webhookSignaturesRepo(db),
    credentials: credentialsRepo(db),
    placedCalls: placedCallsRepo(db),
    alerts: alertsRepo(db),
  };
}
export type Repos = ReturnType<typeof createRepos>;

/** The embedded adapters: the product's own sandbox of the outside world, on the store. */
export function createEmbeddedPorts(db: Db, repos: Repos, opts: { carrierLatencyMs?: number } = {}): Ports {
  return {
    crm: embeddedCrm(repos.crm, repos.effects),
    messaging: sandboxMessaging(db, repos.effects, opts.carrierLatencyMs ?? 0),
    calendar: embeddedCalendar(db, repos.effects),
    executionLog: storeExecutionLog(db, repos.executions, repos.alerts, nudgeAlerts),
  };
}

export function createNumberInventory(repos: Repos): NumberInventory {
  return sandboxNumberInventory(repos.numberInventory, repos.effects);
}

/** Everything a route handler may reach. */
export interface Services {
  config: Config;
  db: Db;
  repos: Repos;
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
}
