import type { Middleware } from 'koa';
import type { ApiKeysRepository } from '../store/index.js';
import { AppError } from './errors.js';
import { callerOf } from './request-context.js';

/** Paths under /api that do not take an API key: health, the API description, and call events (signed). */
export function isPublicPath(path: string): boolean {
  return path === '/api/health' || path === '/api/health/live' || path === '/api/health/ready' || path === '/api/openapi.json' || path.startsWith('/api/events/');
}

/**
 * Authenticates `Authorization: Bearer <key>` on every /api path but the public ones. Authorisation
 * (scope, role, project) needs the matched route, so it happens in the route's own stack.
 */
export function authenticate(keys: ApiKeysRepository): Middleware {
  return async function authenticateMiddleware(ctx, next) {
    if (!ctx.path.startsWith('/api') || isPublicPath(ctx.path)) return next();
    const header = ctx.get('authorization');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new AppError('UNAUTHORIZED', 'missing API key: send Authorization: Bearer <API_KEY>');
    const key = match[1]!.length <= 512 ? await keys.authenticate(match[1]!) : undefined;
    if (!key) throw new AppError('UNAUTHORIZED', 'invalid, expired or revoked API key');
    ctx.state.caller = callerOf(key);
    return next();
  };
}
