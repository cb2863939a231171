import type { Middleware } from 'koa';
import { AppError } from './errors.js';

export const MAX_JSON_DEPTH = 64;

/** Depth of a parsed JSON value, iteratively: a hostile body must not exhaust the stack here either. */
export function jsonDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

/**
 * Refuses bodies nested deeper than any real request (graphs and windows stay under 10 levels):
 * storing or validating a 10,000-level document would overflow the stack further down.
 */
export function limitJsonDepth(limit = MAX_JSON_DEPTH): Middleware {
  return async function limitJsonDepthMiddleware(ctx, next) {
    const body = (ctx.request as { body?: unknown }).body;
    if (body && typeof body === 'object' && jsonDepth(body, limit) > limit) {
      throw new AppError('VALIDATION', `body: JSON nested deeper than ${limit} levels`);
    }
    return next();
  };
}
