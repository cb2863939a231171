import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { calendarDate } from '../../server/calls/accept-call-ended.js';
import type { Services } from '../../server/services.js';
import type { RouteDef } from '../../server/http/route.js';
import { callerOf } from '../../server/http/request-context.js';

/**
 * The floor of GET /api/call-history/by-call-id/:callId: bare Koa doing only what that read cannot
 * skip, and nothing else. The key checked as the product checks it (hash, `PRAGMA data_version` for
 * revocation at once, the key cache), the call read from the store (one statement, with its
 * project's time zone), the local date, and the same response: the same body, byte for byte, and
 * the same headers (request id, the two RateLimit fields). No router, validation, rate limiter,
 * error envelope, request log or metrics. Ours over this is what the product's own layers cost;
 * this over bare Koa is what the work itself costs on this machine.
 */
export async function apiFloor(s: Services, policy: string) {
  const app = new Koa({ proxy: false });
  app.use((ctx) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
    const key = match ? s.repos.apiKeys.authenticate(match[1]!) : undefined;
    const callId = /^\/api\/call-history\/by-call-id\/([^/]+)$/.exec(ctx.path)?.[1];
    if (!key || !callId) {
      ctx.status = 401;
      return;
    }
    ctx.set('X-Request-Id', randomUUID());
    ctx.set('RateLimit-Policy', policy);
    ctx.set('RateLimit', '"default";r=9999999;t=60');
    const call = s.repos.calls.get(key.agencyId, decodeURIComponent(callId));
    if (!call) {
      ctx.status = 404;
      return;
    }
    const doc = { ...call.doc, reviewed: call.reviewed };
    if (call.timezone) doc.date = calendarDate(doc.dateTime, call.timezone);
    ctx.body = { success: true, data: doc };
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * The floor of any GET route: bare Koa running the route's own handler, and nothing else around it
 * (the key checked as the product checks it, the path's parameters matched by one regular
 * expression, the same three headers). What ours adds over this is the framework: router,
 * middlewares, validation, authorisation, rate limit, error envelope, request log and metrics.
 */
export async function handlerFloor(s: Services, route: RouteDef, policy: string) {
  const names: string[] = [];
  const pattern = new RegExp(`^${route.path.replace(/:(\w+)/g, (_, n: string) => (names.push(n), '([^/]+)'))}$`);
  const app = new Koa({ proxy: false });
  app.use(async (ctx) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
    const key = match ? s.repos.apiKeys.authenticate(match[1]!) : undefined;
    const found = pattern.exec(ctx.path);
    if (!key || !found) {
      ctx.status = 401;
      return;
    }
    ctx.set('X-Request-Id', randomUUID());
    ctx.set('RateLimit-Policy', policy);
    ctx.set('RateLimit', '"default";r=9999999;t=60');
    const params = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(found[i + 1]!)]));
    ctx.body = await route.handler({ ctx, params, query: { ...ctx.query }, body: undefined, caller: callerOf(key) });
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}
