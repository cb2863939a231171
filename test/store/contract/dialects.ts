import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Store } from '../../../server/store/index.js';
import { openSqliteStore } from '../../../server/store/sqlite/store.js';
import { openPostgresStore } from '../../../server/store/postgres/store.js';
import { createDatabase } from '../../helpers/postgres.js';

/**
 * The repository contract suite runs every test on each implementation of the port: SQLite on a
 * file, Postgres on a database of its own on the run's cluster. `describe.each(DIALECTS)` names
 * each test with its dialect.
 */
export const DIALECTS = ['sqlite', 'postgres'] as const;
export type Dialect = (typeof DIALECTS)[number];

export interface Opened {
  store: Store;
  /** another store on the same data (another process, as far as the store can tell) */
  another(): Promise<Store>;
  close(): Promise<void>;
}

export async function openDialect(dialect: Dialect): Promise<Opened> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-contract-'));
    const file = path.join(dir, 'app.db');
    const store = openSqliteStore(file, { checkTransactions: true });
    const others: Store[] = [];
    return {
      store,
      another: async () => {
        const s = openSqliteStore(file, { checkTransactions: true });
        others.push(s);
        return s;
      },
      async close() {
        for (const s of [store, ...others]) await s.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const db = await createDatabase('contract');
  const store = await openPostgresStore(db.url, { checkTransactions: true, poolSize: 4 });
  const others: Store[] = [];
  return {
    store,
    another: async () => {
      const s = await openPostgresStore(db.url, { checkTransactions: true, poolSize: 4 });
      others.push(s);
      return s;
    },
    async close() {
      for (const s of [store, ...others]) await s.close();
      await db.drop();
    },
  };
}

/** A fresh store of `dialect` for the enclosing describe block, closed (and dropped) after it. */
export function useStore(dialect: Dialect): Opened {
  const holder = {} as { opened: Opened };
  beforeAll(async () => {
    holder.opened = await openDialect(dialect);
  });
  afterAll(async () => {
    await holder.opened?.close();
  });
  return {
    get store() {
      return holder.opened.store;
    },
    another: () => holder.opened.another(),
    close: () => holder.opened.close(),
  };
}

let n = 0;
/** A unique id for this test file's run (agencies, locations, keys). */
export const unique = (prefix: string) => `${prefix}_${++n}_${Math.random().toString(36).slice(2, 8)}`;

/** An agency with a project, an agent and a campaign on it: what most repositories hang off. */
export async function world(store: Store, opts: { planLimit?: number } = {}) {
  const agencyId = unique('ag');
  const agency = await store.agencies.ensure(agencyId, 'Agency', opts.planLimit ?? 5);
  const project = await store.projects.insert({ agencyId, crm: 'crm_a', locationId: unique('loc'), timezone: 'America/Chicago', agencyName: 'A', active: true, status: 'live', installed: true, businessName: 'B' });
  const agent = await store.agents.insert({ agencyId, projectId: project.id, locationId: project.locationId, name: 'Agent', agentType: 'outreach', capabilities: ['appointment_booking'], campaignId: null, postCallFields: [] });
  const campaign = await store.campaigns.insert({ agencyId, projectId: project.id, agentId: agent.id, name: 'Campaign', activeTags: ['t'], inactiveTags: [], dialing: 'pd', agentType: null, fromNumbers: [], active: true, config: {} });
  return { agencyId, agency, project, agent, campaign };
}

/** Ids in the order lists answer them: created first first, ties (the same millisecond) by id. */
export const creationOrder = (records: { id: string; createdAt: string }[]) =>
  [...records].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((r) => r.id);
