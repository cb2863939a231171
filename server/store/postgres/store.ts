import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import type { Repositories, Store } from '../index.js';
import { agenciesRepo } from './agencies.js';
import { agentsRepo } from './agents.js';
import { alertsRepo } from './alerts.js';
import { apiKeysRepo, type ApiKeysState } from './api-keys.js';
import { appointmentsRepo } from './appointments.js';
import { cadencesRepo } from './cadences.js';
import { callsRepo } from './calls.js';
import { campaignsRepo } from './campaigns.js';
import { credentialsRepo } from './credentials.js';
import { crmRepo } from './crm.js';
import { crmSetupRepo } from './crm-setup.js';
import { effectsRepo, storeEffectJournal } from './effects.js';
import { executionsRepo } from './executions.js';
import { idempotencyRepo } from './idempotency.js';
import { foldListCounts, leadListSearch } from './lead-list.js';
import { leadsRepo } from './leads.js';
import { leasesRepo } from './leases.js';
import { migratePostgres, type PgUpgradeProgress } from './migrate.js';
import { numberInventoryRepo } from './number-inventory.js';
import { numberPurchasesRepo } from './number-purchases.js';
import { outboxRepo } from './outbox.js';
import { phoneNumbersRepo } from './phone-numbers.js';
import { placedCallsRepo } from './placed-calls.js';
import { projectsRepo } from './projects.js';
import { replaysRepo } from './replays.js';
import { runInputsRepo } from './run-inputs.js';
import { inTransaction, poolSql, type Sql } from './sql.js';
import { webhookSignaturesRepo } from './webhook-signatures.js';
import { workflowsRepo } from './workflows.js';

/** The Postgres store, with its pool for what only Postgres has (tests reading rows, EXPLAIN). */
export interface PostgresStore extends Store {
  readonly pool: pg.Pool;
}

export interface PostgresStoreOptions {
  /** connections this process keeps at most (default 10) */
  poolSize?: number;
  /** told before and after each migration step that upgrades an existing database */
  onUpgrade?: PgUpgradeProgress;
  /** told of an error on an idle pooled connection (the pool drops it and opens another when needed) */
  onIdleError?: (err: Error) => void;
  /** how often the lead-list counts' change rows are folded (default 1000 ms; 0: only by `leadSearch.sync`) */
  foldEveryMs?: number;
  /**
   * Fail a call of this store made from inside one of its own open transactions (it would run on
   * another connection, outside the transaction, and could wait for the transaction's own locks).
   * Costs a context per transaction (AsyncLocalStorage): the test suite turns it on.
   */
  checkTransactions?: boolean;
}

/** What the repositories of one store share across its transactions (per process). */
interface Shared {
  apiKeys: ApiKeysState;
  signatures: { prunedAt: number };
}

/** Every repository of the port on one way to the database: the pool, or a transaction's client. */
function repositories(sql: Sql, shared: Shared): Repositories {
  return {
    agencies: agenciesRepo(sql),
    apiKeys: apiKeysRepo(sql, shared.apiKeys),
    projects: projectsRepo(sql),
    agents: agentsRepo(sql),
    campaigns: campaignsRepo(sql),
    workflows: workflowsRepo(sql),
    idempotency: idempotencyRepo(sql),
    leases: leasesRepo(sql),
    calls: callsRepo(sql),
    executions: executionsRepo(sql),
    crm: crmRepo(sql),
    crmSetup: crmSetupRepo(sql),
    effects: effectsRepo(sql),
    effectJournal: storeEffectJournal(sql),
    runInputs: runInputsRepo(sql),
    phoneNumbers: phoneNumbersRepo(sql),
    numberInventory: numberInventoryRepo(sql),
    numberPurchases: numberPurchasesRepo(sql),
    cadences: cadencesRepo(sql),
    leads: leadsRepo(sql),
    leadSearch: leadListSearch(sql),
    webhookSignatures: webhookSignaturesRepo(sql, shared.signatures),
    credentials: credentialsRepo(sql),
    placedCalls: placedCallsRepo(sql),
    alerts: alertsRepo(sql),
    outbox: outboxRepo(sql),
    appointments: appointmentsRepo(sql),
    replays: replaysRepo(sql),
  };
}

/** Each method of each repository, failing when called inside one of this store's transactions. */
function guarded(repos: Repositories, inside: () => boolean): Repositories {
  const misuse = () => new Error("the store was used inside its own open transaction, outside that transaction: use the transaction's repositories (tx)");
  return Object.fromEntries(
    Object.entries(repos).map(([name, repo]) => [
      name,
      Object.fromEntries(
        Object.entries(repo as Record<string, unknown>).map(([method, fn]) => [
          method,
          typeof fn === 'function' ? (...args: unknown[]) => (inside() ? Promise.reject(misuse()) : (fn as (...a: unknown[]) => unknown)(...args)) : fn,
        ]),
      ),
    ]),
  ) as unknown as Repositories;
}

/**
 * The shared store: any number of processes on one Postgres database, each with a pool of
 * connections. Statements outside a transaction run on any pooled connection; `withTransaction`
 * holds one connection from BEGIN to COMMIT (or ROLLBACK) and gives `fn` repositories bound to
 * it; a `withTransaction` on those joins it. Transactions are READ COMMITTED: what a transaction
 * must keep true until it commits, it locks (the port's `forUpdate` and `lockForUpdate`, and the
 * repositories' own atomic steps).
 *
 * Opening migrates the schema first, under an advisory lock (migrate.ts).
 */
export async function openPostgresStore(url: string, opts: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10 });
  pool.on('error', (err) => opts.onIdleError?.(err));
  try {
    await migratePostgres(pool, opts.onUpgrade);
  } catch (err) {
    await pool.end();
    throw err;
  }
  const shared: Shared = { apiKeys: { lookups: 0 }, signatures: { prunedAt: 0 } };
  const context = opts.checkTransactions ? new AsyncLocalStorage<true>() : null;
  const root = repositories(poolSql(pool), shared);
  // Counts read their change rows too, so a fold that waits changes no answer, only its cost.
  let folding: Promise<unknown> = Promise.resolve();
  const foldEvery = opts.foldEveryMs ?? 1000;
  const folder = foldEvery > 0 ? setInterval(() => (folding = foldListCounts(poolSql(pool)).catch((err: Error) => opts.onIdleError?.(err))), foldEvery).unref() : undefined;

  const withTransaction: Store['withTransaction'] = (fn) => {
    if (context?.getStore()) return Promise.reject(new Error("withTransaction on the store inside its own open transaction: use the transaction's (tx.withTransaction joins it)"));
    return inTransaction(pool, (sql) => {
      const tx: Store = {
        ...repositories(sql, shared),
        withTransaction: (inner) => inner(tx),
        ping: async () => {},
        close: async () => {},
      };
      return context ? context.run(true, () => fn(tx)) : fn(tx);
    });
  };

  return {
    ...(context ? guarded(root, () => context.getStore() === true) : root),
    pool,
    withTransaction,
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      clearInterval(folder);
      await folding;
      await pool.end();
    },
  };
}
