import type { Middleware } from 'koa';
import { AppError } from './errors.js';

/**
 * JSON text is UTF-8 (RFC 8259). The body parser decodes with replacement characters, so invalid
 * bytes would be stored as U+FFFD instead of refused. `watchUtf8` (just before the body parser)
 * checks the bytes as they arrive, beside the parser; `requireUtf8` (just after it) turns invalid
 * ones into a 400.
 *
 * The watcher's 'data' listener is attached in the same tick as the parser's own (the middleware
 * chain is synchronous until the parser awaits the stream), so both see every chunk. Compressed
 * bodies are not watched: their bytes are not the text.
 */
export function watchUtf8(): Middleware {
  return function watchUtf8Middleware(ctx, next) {
    const identity = (ctx.get('content-encoding') || 'identity').toLowerCase() === 'identity';
    if (identity && ['POST', 'PUT', 'PATCH'].includes(ctx.method) && ctx.is('json', '+json')) {
      const decoder = new TextDecoder('utf-8', { fatal: true });
      const state = { valid: true };
      ctx.state.utf8 = state;
      const check = (chunk?: Buffer) => {
        if (!state.valid) return;
        try {
          if (chunk) decoder.decode(chunk, { stream: true });
          else decoder.decode();
        } catch {
          state.valid = false;
        }
      };
      ctx.req.on('data', check);
      ctx.req.on('end', () => check());
      // When the parser stops early (a body over the limit), it pauses the stream; with a listener
      // of ours attached Node would no longer drain it after the response, and the keep-alive
      // connection would stall. Drain what is left once the response is sent.
      ctx.res.once('finish', () => {
        ctx.req.off('data', check);
        if (!ctx.req.complete) ctx.req.resume();
      });
    }
    return next();
  };
}

export function requireUtf8(): Middleware {
  return function requireUtf8Middleware(ctx, next) {
    if ((ctx.state.utf8 as { valid: boolean } | undefined)?.valid === false) {
      throw new AppError('VALIDATION', 'body: not valid UTF-8 (JSON text must be UTF-8)');
    }
    return next();
  };
}
