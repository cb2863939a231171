import type { Context, Middleware } from 'koa';
import { AppError, DomainError, errorNameOf, fromDomain, statusOf, type ErrorCode } from './errors.js';

/**
 * The spec gives three error body shapes. Which one a response uses depends on the API area the
 * path belongs to, so the family is decided here, once, from the path.
 */
export type ErrorFamily = 'standard' | 'projects' | 'power-dialer';

export function familyOf(path: string): ErrorFamily {
  if (path.startsWith('/api/power-dialer')) return 'power-dialer';
  if (path.startsWith('/api/v2/projects')) return 'projects';
  return 'standard';
}

const powerDialerText: Partial<Record<ErrorCode, string>> = {
  UNAUTHORIZED: 'Unauthorized',
  TOO_MANY_REQUESTS: 'TooManyRequests',
  INTERNAL: 'An unexpected server error occurred',
};

import { NO_PROJECT_ACCESS } from '../domain/actor.js';

export { NO_PROJECT_ACCESS };

export function errorBody(family: ErrorFamily, err: AppError): Record<string, unknown> {
  if (family === 'power-dialer') {
    // The dialer's short body: the text itself for 400, a fixed word for the others. Every 403
    // starts with the spec's sentence; a refusal for another reason (scope, role) says it after.
    if (err.code === 'FORBIDDEN') return { success: false, error: err.message === NO_PROJECT_ACCESS ? err.message : `${NO_PROJECT_ACCESS}: ${err.message}` };
    return { success: false, error: powerDialerText[err.code] ?? err.message };
  }
  if (family === 'projects' && err.code === 'NOT_FOUND') {
    return { success: false, message: err.message };
  }
  const body: Record<string, unknown> = { success: false, error: errorNameOf[err.code], message: err.message };
  if (err.detailCode) body.code = err.detailCode;
  return body;
}

/** Turns whatever a downstream middleware threw into an AppError, never leaking internals. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof DomainError) return fromDomain(err);
  const e = err as { status?: number; statusCode?: number; type?: string; expose?: boolean; message?: string };
  const status = e?.status ?? e?.statusCode;
  // Errors raised by koa's body parser and http-errors carry a status and a safe message.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', 'request body is too large');
    if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'request body must be application/json');
    // @hapi/bourne (inside the body parser) refuses prototype-poisoning keys.
    if (/prototype property/i.test(e.message ?? '')) return new AppError('VALIDATION', 'body: a "__proto__" key is not allowed');
    if (e.type === 'entity.parse.failed' || /json/i.test(e.message ?? ''))
      return new AppError('VALIDATION', 'body: malformed JSON');
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported')
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'request body encoding is not supported');
    const code = (Object.keys(statusOf) as ErrorCode[]).find((c) => statusOf[c] === status) ?? 'VALIDATION';
    const message = e.expose && e.message ? e.message : 'malformed request';
    return code === 'CONFLICT' ? new AppError(code, message, { detailCode: 'Conflict' }) : new AppError(code, message);
  }
  return new AppError('INTERNAL', 'an unexpected server error occurred');
}

/**
 * First in the chain after the request id: decides what reaches the client and still emits the
 * original error for the log (koa's error-handling guide). Unknown routes end here too.
 */
export function errorEnvelope(): Middleware {
  return async function errorEnvelopeMiddleware(ctx: Context, next) {
    try {
      await next();
      if (ctx.path.startsWith('/api') && ctx.body == null) {
        // The router's answers for a path it knows under another method: 405 (a standard method)
        // or 501 (TRACE, CONNECT, ...), with an empty body. Both become a 405 naming the methods
        // the path has, in the envelope; with no such path at all it is a plain 404.
        const allow = ctx.status === 405 || ctx.status === 501 ? ctx.response.get('Allow') : '';
        if (allow) {
          throw new AppError('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on ${ctx.path}; allowed: ${allow}`, { headers: { Allow: allow } });
        }
        if (ctx.status === 404 || ctx.status === 405 || ctx.status === 501) {
          ctx.remove('Allow');
          throw new AppError('NOT_FOUND', `no route for ${ctx.method} ${ctx.path}`);
        }
      }
    } catch (raw) {
      const err = toAppError(raw);
      if (err.code === 'INTERNAL') ctx.app.emit('error', raw, ctx);
      ctx.state.errorCode = err.code;
      ctx.status = err.status;
      for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
      ctx.body = errorBody(familyOf(ctx.path), err);
    }
  };
}
