/**
 * An Idempotency-Key claim of a request that talks to a vendor or Temporal (`claim` mode) is a
 * lease: its request renews it while it runs, however long that is, so no other request (of this
 * process or another) takes it over; once the request is done the answer is replayed. The route
 * here is a declared route like any other, mounted with the product's own guard, whose handler
 * waits on the test; the lease is one second.
 */
import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { until } from '../helpers/processes.js';
import { authenticate } from '../../server/http/auth.js';
import { errorEnvelope } from '../../server/http/error-envelope.js';
import { idempotencyGuard } from '../../server/http/idempotency.js';
import { defineRoute, mountRoutes } from '../../server/http/route.js';

let h: Harness;
let server: Server;
let url = '';
let release: () => void = () => undefined;
let runs = 0;

beforeAll(async () => {
  h = await createHarness({ config: { idempotencyLeaseSeconds: 1 } });
  const route = defineRoute({
    method: 'post', path: '/api/test/slow', operationId: 'slowTestOperation', summary: 'test', tag: 'test',
    access: { scope: 'projects:write', roles: ['agency_admin'] }, idempotent: 'claim',
    body: { type: 'object' },
    responses: { 200: { description: 'done' } },
    handler: async () => {
      runs++;
      await new Promise<void>((r) => (release = r));
      return { success: true, data: { run: runs } };
    },
  });
  const app = new Koa();
  const router = new Router();
  mountRoutes(router, [route], h.services, idempotencyGuard(h.services));
  app.use(errorEnvelope()).use(authenticate(h.store.apiKeys)).use(bodyParser()).use(router.routes());
  server = app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/test/slow`;
});
afterAll(async () => {
  release();
  await new Promise((r) => server?.close(r));
  await h?.close();
});

const post = () => fetch(url, { method: 'POST', headers: { authorization: `Bearer ${h.adminKey}`, 'content-type': 'application/json', 'Idempotency-Key': 'long-one' }, body: '{"a":1}' });
const leaseOf = () => (h.db.prepare("SELECT lease_until FROM idempotency_keys WHERE idem_key = 'long-one'").get() as { lease_until: string } | undefined)?.lease_until;

it('a request running past its lease keeps its claim: the same key meanwhile is told it is in progress, and then gets the answer', async () => {
  const first = post();
  await until(() => runs === 1, 10_000);
  const firstLease = Date.parse(leaseOf()!);
  // Past the first lease, and renewed beyond it: without the renewal the claim would be up for grabs now.
  await until(() => Date.now() > firstLease + 200 && Date.parse(leaseOf() ?? '0') > Date.now(), 10_000);
  const meanwhile = await post();
  expect(meanwhile.status).toBe(409);
  expect(await meanwhile.json()).toMatchObject({ code: 'IdempotencyKeyInProgress' });
  expect(runs).toBe(1);
  release();
  const done = await first;
  expect(done.status).toBe(200);
  const replay = await post();
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(await replay.json()).toEqual({ success: true, data: { run: 1 } });
  expect(runs).toBe(1);
});
