import { createHash, randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { Services } from '../services.js';
import type { IdempotencyClaim, Store } from '../store/index.js';
import { AppError } from './errors.js';
import type { Caller } from './request-context.js';
import type { IdempotencyGuard } from './route.js';
import { canonicalJson } from '../domain/canonical-json.js';

export { canonicalJson };

/**
 * Spec 4.12: the same key with the same request returns the original result; the same key with a
 * different request is 409. Only successful responses are kept: a request that failed changed
 * nothing, so its key is released and a corrected retry (say, with a fresh expectedVersion) may
 * reuse it.
 *
 * Crash safety: an `atomic` route's handler runs inside the one transaction that claims the key
 * and stores the response (it acts on that transaction's store), so a process killed at any instant
 * leaves either the write and its stored response, or neither. A `claim` route's handler talks to a
 * vendor or Temporal, which cannot be inside a transaction: the key is claimed first (status 0,
 * "in progress") and the response stored when the handler is done. The claim is a lease the
 * request renews while it runs (IDEMPOTENCY_LEASE_SECONDS, renewed every third of it): a claim
 * whose process died runs out and the next request with the key takes it over, from whichever API
 * process; a live request's claim is never taken, however long it runs. Those handlers are safe to
 * re-run (a carrier purchase is journaled, an enrolled contact is returned as is).
 */
export function idempotencyGuard(services: Services): IdempotencyGuard {
  return async function idempotent(ctx: Context, mode, run) {
    // Absent: no idempotency. Present but empty (or over 255): a 400, never silently ignored.
    if (ctx.headers['idempotency-key'] === undefined) return run(services);
    const key = ctx.get('Idempotency-Key');
    if (key.length < 1 || key.length > 255) {
      throw new AppError('VALIDATION', 'header Idempotency-Key must be 1 to 255 characters (maxLength)');
    }
    const caller = ctx.state.caller as Caller;
    // The same request is the same JSON, however it is spelled: keys in any order, any whitespace.
    const query = [...new URLSearchParams(ctx.querystring)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const body = canonicalJson((ctx.request as { body?: unknown }).body ?? null);
    const fingerprint = createHash('sha256').update(`${ctx.method} ${ctx.path}?${new URLSearchParams(query)}\n${body}`).digest('hex');
    // Keys stored before requests were compared canonically hold the fingerprint of the raw bytes.
    const raw = (ctx.request as { rawBody?: string }).rawBody ?? JSON.stringify((ctx.request as { body?: unknown }).body ?? null);
    const rawFingerprint = createHash('sha256').update(`${ctx.method} ${ctx.path}?${ctx.querystring}\n${raw}`).digest('hex');
    const holder = randomUUID();
    const leaseMs = services.config.idempotencyLeaseSeconds * 1000;
    const settle = (store: Store) =>
      ctx.status >= 200 && ctx.status < 300 ? store.idempotency.complete(caller.agencyId, key, holder, ctx.status, ctx.body) : store.idempotency.release(caller.agencyId, key, holder);

    let existing: IdempotencyClaim | null;
    if (mode === 'atomic') {
      // A handler that throws rolls the whole transaction back, the claim included.
      existing = await services.store.withTransaction(async (tx) => {
        const found = await tx.idempotency.reserve(caller.agencyId, key, fingerprint, holder, leaseMs);
        if (found) return found;
        await run({ ...services, store: tx });
        await settle(tx);
        return null;
      });
    } else {
      existing = await services.store.idempotency.reserve(caller.agencyId, key, fingerprint, holder, leaseMs);
      if (!existing) {
        const renewing = setInterval(() => {
          services.store.idempotency.renew(caller.agencyId, key, holder, leaseMs).catch((err: unknown) => services.logger.warn({ err, reqId: ctx.state.requestId }, 'renewing an Idempotency-Key claim failed'));
        }, leaseMs / 3);
        try {
          await run(services);
        } catch (err) {
          await services.store.idempotency.release(caller.agencyId, key, holder);
          throw err;
        } finally {
          clearInterval(renewing);
        }
        await settle(services.store);
      }
    }
    if (!existing) return;
    if (existing.fingerprint !== fingerprint && existing.fingerprint !== rawFingerprint) {
      throw new AppError('CONFLICT', 'Idempotency-Key was already used with a different request', { detailCode: 'IdempotencyKeyReused' });
    }
    if (existing.status === 0) {
      throw new AppError('CONFLICT', 'a request with this Idempotency-Key is still being processed; retry shortly', { detailCode: 'IdempotencyKeyInProgress' });
    }
    ctx.status = existing.status;
    ctx.body = existing.body;
    ctx.set('Idempotent-Replayed', 'true');
  };
}
