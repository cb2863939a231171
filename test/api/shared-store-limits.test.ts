/**
 * Two API processes on one Postgres database (each its own store, services and HTTP listener, as
 * `npm run server` composes them; nothing shared but the database): the rate limit is one limit
 * across both, and a key revoked through one is refused by the other at its next request.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp, listen } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { composeProviders, composeServices } from '../../server/compose.js';
import { createLogger } from '../../server/logger.js';
import { openPostgresStore, type PostgresStore } from '../../server/store/postgres/store.js';
import { SCOPES } from '../../server/store/index.js';
import { createDatabase } from '../helpers/postgres.js';

const LIMIT = 6;
let db: Awaited<ReturnType<typeof createDatabase>>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-shared-'));
const apis: { url: string; server: Server; store: PostgresStore }[] = [];
let adminKey = '';

beforeAll(async () => {
  db = await createDatabase('limits');
  const config = { ...loadConfig({}), dataDir: dir, databaseUrl: db.url, credentialsKey: randomBytes(32).toString('hex'), logLevel: 'silent', rateLimitPoints: LIMIT, rateLimitWindowSeconds: 300 };
  for (let i = 0; i < 2; i++) {
    const store = await openPostgresStore(db.url);
    const logger = createLogger('silent');
    const services = composeServices({ config, store, providers: composeProviders(config, store, logger), temporal: null, logger });
    const server = listen(createApp(services), 0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', () => r()));
    apis.push({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, store });
  }
  await apis[0]!.store.agencies.ensure('agy_shared', 'Shared', 3);
  adminKey = (await apis[0]!.store.apiKeys.create({ agencyId: 'agy_shared', name: 'admin', role: 'agency_admin', scopes: [...SCOPES], projectIds: [] })).secret;
});
afterAll(async () => {
  for (const a of apis) {
    await new Promise((r) => a.server.close(r));
    await a.store.close();
  }
  await db?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (api: number, key: string) => fetch(`${apis[api]!.url}/api/v2/projects`, { headers: { authorization: `Bearer ${key}` } });

it('one rate limit across both APIs: a key gets its points in total, wherever its requests land', async () => {
  const key = (await apis[1]!.store.apiKeys.create({ agencyId: 'agy_shared', name: 'busy', role: 'agency_admin', scopes: ['projects:read'], projectIds: [] })).secret;
  const statuses: number[] = [];
  for (let i = 0; i < LIMIT + 4; i++) statuses.push((await get(i % 2, key)).status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
  expect(statuses.slice(LIMIT)).toEqual([429, 429, 429, 429]);
  const last = await get(0, key);
  expect(last.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
});

it('a key revoked through one API is refused by the other at its next request', async () => {
  const made = await fetch(`${apis[0]!.url}/api/keys`, { method: 'POST', headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'short-lived', role: 'agency_admin', scopes: ['projects:read'] }) });
  expect(made.status).toBe(201);
  const { data } = (await made.json()) as { data: { secret: string; key: { id: string } } };
  expect((await get(1, data.secret)).status).toBe(200);
  const revoked = await fetch(`${apis[0]!.url}/api/keys/${data.key.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${adminKey}` } });
  expect(revoked.status).toBe(200);
  expect((await get(1, data.secret)).status).toBe(401);
});
