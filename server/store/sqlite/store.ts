import { AsyncLocalStorage } from 'node:async_hooks';
import type { Repositories, Store } from '../index.js';
import type { Sync } from './sync.js';
import { openDb, type Db, type UpgradeProgress } from './db.js';
import { agenciesRepo } from './agencies.js';
import { agentsRepo } from './agents.js';
import { alertsRepo } from './alerts.js';
import { apiKeysRepo } from './api-keys.js';
import { appointmentsRepo } from './appointments.js';
import { cadencesRepo } from './cadences.js';
import { callsRepo } from './calls.js';
import { campaignsRepo } from './campaigns.js';
import { credentialsRepo } from './credentials.js';
import { crmRepo } from './crm.js';
import { crmSetupRepo } from './crm-setup.js';
import { storeEffectJournal } from './effect-journal.js';
import { effectsRepo } from './effects.js';
import { executionsRepo } from './executions.js';
import { idempotencyRepo } from './idempotency.js';
import { leadListSearch } from './lead-list.js';
import { leadSearchWriter } from './lead-search-flush.js';
import { leadsRepo } from './leads.js';
import { leasesRepo } from './leases.js';
import { numberInventoryRepo } from './number-inventory.js';
import { numberPurchasesRepo } from './number-purchases.js';
import { outboxRepo } from './outbox.js';
import { phoneNumbersRepo } from './phone-numbers.js';
import { placedCallsRepo } from './placed-calls.js';
import { projectsRepo } from './projects.js';
import { replaysRepo } from './replays.js';
import { runInputsRepo } from './run-inputs.js';
import { webhookSignaturesRepo } from './webhook-signatures.js';
import { workflowsRepo } from './workflows.js';

/** The SQLite store, with its connection for what only SQLite has (tests reading raw rows, the benchmarks). */
export interface SqliteStore extends Store {
  readonly db: Db;
  /**
   * The synchronous repositories every call goes through, looked up per call: a test replaces a
   * method here to inject a fault (a crash between two writes), and both the store and its
   * transactions meet it.
   */
  readonly sync: { [K in keyof Repositories]: Sync<Repositories[K]> };
}

export interface SqliteStoreOptions {
  /** told of each step that upgrades an existing store */
  onUpgrade?: UpgradeProgress;
  /**
   * Fail a call of this store made from inside its own open transaction, instead of letting it
   * wait for that transaction forever. Costs a context per transaction (AsyncLocalStorage): the
   * test suite turns it on; production code paths it would catch are covered there.
   */
  checkTransactions?: boolean;
}

/** Every repository of the port on one connection, in the synchronous form its statements have (the store tests and benchmarks of the SQLite implementation use it as is). */
export function sqliteRepositories(db: Db): { [K in keyof Repositories]: Sync<Repositories[K]> } {
  const searchIndex = leadSearchWriter(db);
  return {
    agencies: agenciesRepo(db),
    apiKeys: apiKeysRepo(db),
    projects: projectsRepo(db),
    agents: agentsRepo(db),
    campaigns: campaignsRepo(db),
    workflows: workflowsRepo(db),
    idempotency: idempotencyRepo(db),
    leases: leasesRepo(db),
    calls: callsRepo(db),
    executions: executionsRepo(db),
    crm: crmRepo(db),
    crmSetup: crmSetupRepo(db),
    effects: effectsRepo(db),
    effectJournal: storeEffectJournal(db),
    runInputs: runInputsRepo(db),
    phoneNumbers: phoneNumbersRepo(db),
    numberInventory: numberInventoryRepo(db),
    numberPurchases: numberPurchasesRepo(db),
    cadences: cadencesRepo(db),
    leads: leadsRepo(db, searchIndex),
    leadSearch: leadListSearch(db, searchIndex),
    webhookSignatures: webhookSignaturesRepo(db),
    credentials: credentialsRepo(db),
    placedCalls: placedCallsRepo(db),
    alerts: alertsRepo(db),
    outbox: outboxRepo(db),
    appointments: appointmentsRepo(db),
    replays: replaysRepo(db),
  };
}

type Enter = <R>(op: () => R) => Promise<Awaited<R>>;

/** The port's asynchronous form of a synchronous repository: each call goes through `enter`. */
function asPort<T>(impl: Sync<T>, enter: Enter): T {
  const out: Record<string, unknown> = {};
  const methods = impl as Record<string, (...a: unknown[]) => unknown>;
  for (const [name, member] of Object.entries(methods)) {
    if (typeof member !== 'function') continue;
    out[name] = (...args: unknown[]) => enter(() => methods[name]!(...args));
  }
  return out as T;
}

const settled = <R>(op: () => R): Promise<Awaited<R>> => {
  try {
    return Promise.resolve(op()) as Promise<Awaited<R>>;
  } catch (err) {
    return Promise.reject(err);
  }
};

/**
 * The embedded store: one better-sqlite3 connection per process, statements prepared once and
 * run synchronously, the port's promises around them.
 *
 * Transactions span awaits here, on the one connection everything in this process shares, so
 * while one is open the connection belongs to it: its repositories run at once, and any other
 * call of the store waits until it commits or rolls back (else another request's write would join
 * the open transaction, and be rolled back with it). Calls that find no transaction open run at
 * once, as before. Transactions hold no outside I/O (see the port), so the wait is short.
 */
export function openSqliteStore(file: string, opts: SqliteStoreOptions = {}): SqliteStore {
  const db = openDb(file, opts.onUpgrade);
  const sync = sqliteRepositories(db);
  const context = opts.checkTransactions ? new AsyncLocalStorage<symbol>() : null;
  let open: symbol | null = null;
  let waiting: (() => void)[] = [];
  const idle = () => new Promise<void>((resolve) => waiting.push(resolve));
  const release = () => {
    open = null;
    const woken = waiting;
    waiting = [];
    for (const wake of woken) wake();
  };
  const insideOwnTransaction = () => context !== null && open !== null && context.getStore() === open;
  const misuse = () => new Error("the store was used inside its own open transaction, where it would wait for that transaction forever: use the transaction's repositories (tx)");

  const enterOutside: Enter = (op) => {
    if (open === null) return settled(op);
    if (insideOwnTransaction()) return Promise.reject(misuse());
    return idle().then(() => enterOutside(op));
  };
  const build = (enter: Enter) =>
    Object.fromEntries(Object.entries(sync).map(([name, repo]) => [name, asPort(repo as Sync<unknown>, enter)])) as unknown as Repositories;

  const inTransaction: Store = {
    ...build(settled),
    withTransaction: (fn) => fn(inTransaction),
    ping: async () => {},
    close: async () => {},
  };

  const store: SqliteStore = {
    ...build(enterOutside),
    db,
    sync,
    async withTransaction(fn) {
      while (open !== null) {
        if (insideOwnTransaction()) throw misuse();
        await idle();
      }
      const token = Symbol('transaction');
      open = token;
      try {
        db.exec('BEGIN IMMEDIATE');
      } catch (err) {
        release();
        throw err;
      }
      try {
        const result = context ? await context.run(token, () => fn(inTransaction)) : await fn(inTransaction);
        db.exec('COMMIT');
        return result;
      } catch (err) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw err;
      } finally {
        release();
      }
    },
    ping: (() => {
      const one = db.prepare('SELECT 1');
      return () => enterOutside(() => void one.get());
    })(),
    async close() {
      while (open !== null) await idle();
      if (db.open) db.close();
    },
  };
  return store;
}
