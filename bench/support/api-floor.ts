import { randomUUID } from 'node:crypto';
import Koa, { type Context } from 'koa';
import { calendarDate } from '../../server/domain/calls/calendar-date.js';
import type { Services } from '../../server/services.js';
import type { RouteDef } from '../../server/http/route.js';
import { callerOf } from '../../server/http/request-context.js';
import type { ApiKey } from '../../server/store/index.js';
import { jsonBody, serve } from './serve.js';

/**
 * Bare Koa around `answer`, and nothing else: the key checked as the product checks it (hash,
 * `PRAGMA data_version` for revocation at once, the key cache), the path matched by `pattern`, and
 * the headers ours sends (request id, the two RateLimit fields). No router, validation, rate
 * limiter, error envelope, request log or metrics.
 */
function floor(s: Services, policy: string, pattern: RegExp, answer: (ctx: Context, key: ApiKey, found: RegExpExecArray) => void | Promise<void>) {
  const app = new Koa({ proxy: false });
  app.use(async (ctx) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
    const key = match ? await s.store.apiKeys.authenticate(match[1]!) : undefined;
    const found = pattern.exec(ctx.path);
    if (!key || !found) {
      ctx.status = 401;
      return;
    }
    ctx.set('X-Request-Id', randomUUID());
    ctx.set('RateLimit-Policy', policy);
    ctx.set('RateLimit', '"default";r=9999999;t=60');
    return answer(ctx, key, found);
  });
  return serve(app);
}

/**
 * The floor of GET /api/call-history/by-call-id/:callId: only what that read cannot skip. The key
 * check, the call read from the store (one statement, with its project's time zone), the local
 * date, and the same body, byte for byte. Ours over this is what the product's own layers cost;
 * this over bare Koa is what the work itself costs on this machine.
 */
export function apiFloor(s: Services, policy: string) {
  return floor(s, policy, /^\/api\/call-history\/by-call-id\/([^/]+)$/, async (ctx, key, found) => {
    const call = await s.store.calls.get(key.agencyId, decodeURIComponent(found[1]!));
    if (!call) {
      ctx.status = 404;
      return;
    }
    const doc = { ...call.doc, reviewed: call.reviewed };
    if (call.timezone) doc.date = calendarDate(doc.dateTime, call.timezone);
    ctx.body = { success: true, data: doc };
  });
}

/**
 * The floor of any route: the route's own handler with nothing around it but the key check (the
 * path's parameters matched by one regular expression; a body read as JSON, unchecked). What ours
 * adds over this is the framework: router, middlewares, validation, authorisation, rate limit,
 * idempotency, error envelope, request log and metrics.
 */
export function handlerFloor(s: Services, route: RouteDef, policy: string) {
  const names: string[] = [];
  const pattern = new RegExp(`^${route.path.replace(/:(\w+)/g, (_, n: string) => (names.push(n), '([^/]+)'))}$`);
  return floor(s, policy, pattern, async (ctx, key, found) => {
    const params = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(found[i + 1]!)]));
    const body = route.body ? await jsonBody(ctx.req) : undefined;
    ctx.body = await route.handler({ ctx, params, query: { ...ctx.query }, body, caller: callerOf(key), services: s });
  });
}
