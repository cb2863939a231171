import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { IdempotencyRepo } from '../store/idempotency.js';
import { AppError } from './errors.js';
import type { Caller } from './request-context.js';
import type { IdempotencyGuard } from './route.js';

/**
 * Spec 4.12: the same key with the same request returns the original result; the same key with a
 * different request is 409. Only successful responses are kept: a request that failed changed
 * nothing, so its key is released and a corrected retry (say, with a fresh expectedVersion) may
 * reuse it.
 */
export function idempotencyGuard(repo: IdempotencyRepo): IdempotencyGuard {
  return async function idempotent(ctx: Context, run: () => Promise<void>) {
    const key = ctx.get('Idempotency-Key');
    if (!ctx.headers['idempotency-key']) return run();
    if (key.length < 1 || key.length > 255) {
      throw new AppError('VALIDATION', 'header Idempotency-Key must be 1 to 255 characters (maxLength)');
    }
    const caller = ctx.state.caller as Caller;
    const raw = (ctx.request as { rawBody?: string }).rawBody ?? JSON.stringify((ctx.request as { body?: unknown }).body ?? null);
    const fingerprint = createHash('sha256').update(`${ctx.method} ${ctx.path}?${ctx.querystring}\n${raw}`).digest('hex');
    const existing = repo.reserve(caller.agencyId, key, fingerprint);
    if (existing) {
      if (existing.fingerprint !== fingerprint) {
        throw new AppError('CONFLICT', 'Idempotency-Key was already used with a different request');
      }
      if (existing.status === 0) {
        throw new AppError('CONFLICT', 'a request with this Idempotency-Key is still being processed; retry shortly');
      }
      ctx.status = existing.status;
      ctx.body = existing.body;
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    try {
      await run();
    } catch (err) {
      repo.release(caller.agencyId, key);
      throw err;
    }
    if (ctx.status >= 200 && ctx.status < 300) repo.complete(caller.agencyId, key, ctx.status, ctx.body);
    else repo.release(caller.agencyId, key);
  };
}
