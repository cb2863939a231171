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
 *
 * Crash safety: a synchronous handler (every create-style one but the phone purchase and the lead
 * enrolment, which await a port) runs inside the one transaction that claims the key and stores
 * the response, so a process killed at any instant leaves either the write and its stored
 * response, or neither. An asynchronous handler claims the key first (status 0, "in progress") and
 * stores the response when it is done; a claim its dead process left behind is released at the
 * next start-up (`releaseAbandoned`), and both asynchronous handlers are safe to re-run (the
 * carrier purchase is keyed, an enrolled contact is returned as is).
 */
export function idempotencyGuard(repo: IdempotencyRepo): IdempotencyGuard {
  return async function idempotent(ctx: Context, run: () => void | Promise<void>) {
    // Absent: no idempotency. Present but empty (or over 255): a 400, never silently ignored.
    if (ctx.headers['idempotency-key'] === undefined) return run();
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
    const settle = () => {
      if (ctx.status >= 200 && ctx.status < 300) repo.complete(caller.agencyId, key, ctx.status, ctx.body);
      else repo.release(caller.agencyId, key);
    };
    let pending: Promise<void> | undefined;
    // A handler that throws synchronously rolls the whole transaction back, the claim included.
    const existing = repo.atomically(() => {
      const found = repo.reserve(caller.agencyId, key, fingerprint);
      if (found) return found;
      const result = run();
      if (result) pending = result;
      else settle();
      return null;
    });
    if (existing) {
      if (existing.fingerprint !== fingerprint && existing.fingerprint !== rawFingerprint) {
        throw new AppError('CONFLICT', 'Idempotency-Key was already used with a different request', { detailCode: 'IdempotencyKeyReused' });
      }
      if (existing.status === 0) {
        throw new AppError('CONFLICT', 'a request with this Idempotency-Key is still being processed; retry shortly', { detailCode: 'IdempotencyKeyInProgress' });
      }
      ctx.status = existing.status;
      ctx.body = existing.body;
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    if (!pending) return;
    try {
      await pending;
    } catch (err) {
      repo.release(caller.agencyId, key);
      throw err;
    }
    settle();
  };
}

/** JSON with object keys sorted at every depth and no whitespace: one spelling per value. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value as Record<string, unknown>).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
