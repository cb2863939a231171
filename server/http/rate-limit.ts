import type { Middleware } from 'koa';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from './errors.js';
import type { Caller } from './request-context.js';

export interface RateLimitOptions {
  points: number;
  windowSeconds: number;
}

/** The `RateLimit-Policy` field the limits give (IETF RateLimit fields draft). */
export const rateLimitPolicy = (opts: RateLimitOptions) => `"default";q=${opts.points};w=${opts.windowSeconds}`;

/**
 * Per API key (per client address for the unauthenticated paths), fixed window, counted by
 * `limiter` (server/compose.ts: this process's memory on the embedded store, Postgres when the
 * store is shared, so several API processes hold one limit). Headers follow the IETF RateLimit
 * fields draft, so clients can pace themselves before a 429.
 */
export function rateLimit(opts: RateLimitOptions & { limiter: RateLimiterAbstract }): Middleware {
  const { limiter } = opts;
  const policy = rateLimitPolicy(opts);
  return async function rateLimitMiddleware(ctx, next) {
    // Call events come from the voice platform and must never be shed here: losing one loses a call.
    if (!ctx.path.startsWith('/api') || ctx.path.startsWith('/api/events/')) return next();
    const caller = ctx.state.caller as Caller | undefined;
    const subject = caller ? `key:${caller.keyId}` : `ip:${ctx.ip}`;
    let res: RateLimiterRes;
    try {
      res = await limiter.consume(subject);
    } catch (rejected) {
      if (!(rejected instanceof RateLimiterRes)) throw rejected;
      const retryAfter = Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
      throw new AppError('TOO_MANY_REQUESTS', `rate limit of ${opts.points} requests per ${opts.windowSeconds}s exceeded; retry after ${retryAfter}s`, {
        headers: {
          'Retry-After': String(retryAfter),
          'RateLimit-Policy': policy,
          RateLimit: `"default";r=0;t=${retryAfter}`,
        },
      });
    }
    ctx.set('RateLimit-Policy', policy);
    ctx.set('RateLimit', `"default";r=${res.remainingPoints};t=${Math.ceil(res.msBeforeNext / 1000)}`);
    return next();
  };
}
