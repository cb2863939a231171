import { timingSafeEqual, createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Services } from '../services.js';

export const METRICS_PATH = '/metrics';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
export const isLoopback = (address: string | undefined) => !!address && LOOPBACK.test(address);

const sameSecret = (a: string, b: string) => timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/**
 * Who may scrape `GET /metrics` (its series name routes, agencies' traffic and volumes):
 * - `METRICS_TOKEN` set: whoever sends `Authorization: Bearer <token>`;
 * - else on the separate `METRICS_ADDRESS` listener: whoever reaches that address (bind it to an
 *   internal interface);
 * - else: clients on the loopback interface only.
 */
export function metricsAccess(opts: { token: string | undefined; dedicatedListener: boolean; remoteAddress: string | undefined; authorization: string }): 'ok' | 'unauthorized' | 'forbidden' {
  if (opts.token) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(opts.authorization);
    return m && sameSecret(m[1]!, opts.token) ? 'ok' : 'unauthorized';
  }
  if (opts.dedicatedListener || isLoopback(opts.remoteAddress)) return 'ok';
  return 'forbidden';
}

/**
 * `GET /metrics` in Prometheus text format: the product's series, then the Temporal SDK's. On the
 * API listener it is served unless `METRICS_ADDRESS` moves it to its own listener.
 */
export function metricsEndpoint(s: Services, opts: { dedicatedListener: boolean }): Middleware {
  return async function metricsMiddleware(ctx, next) {
    if (ctx.path !== METRICS_PATH) return next();
    if (!opts.dedicatedListener && s.config.metricsAddress) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, HEAD');
      return;
    }
    const access = metricsAccess({ token: s.config.metricsToken, dedicatedListener: opts.dedicatedListener, remoteAddress: ctx.socket.remoteAddress, authorization: ctx.get('authorization') });
    if (access !== 'ok') {
      ctx.status = access === 'unauthorized' ? 401 : 403;
      if (access === 'unauthorized') ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      ctx.type = 'text/plain';
      ctx.body = access === 'unauthorized' ? 'metrics need Authorization: Bearer <METRICS_TOKEN>\n' : 'metrics are served to loopback clients only: set METRICS_TOKEN or METRICS_ADDRESS to scrape from elsewhere\n';
      return;
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.type = s.metrics.contentType;
    ctx.body = await s.metrics.text();
  };
}
