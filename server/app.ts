import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Koa, { type Context, type Middleware } from 'koa';
import compose from 'koa-compose';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import serve from 'koa-static';
import mount from 'koa-mount';
import { authenticate } from './http/auth.js';
import { errorEnvelope } from './http/error-envelope.js';
import { AppError } from './http/errors.js';
import { idempotencyGuard } from './http/idempotency.js';
import { rateLimit } from './http/rate-limit.js';
import { limitJsonDepth } from './http/json-depth.js';
import { requireUtf8, watchUtf8 } from './http/utf8.js';
import { mountRoutes, type RouteDef } from './http/route.js';
import { deprecationsPage } from './http/deprecations.js';
import { securityHeaders } from './http/security-headers.js';
import { metricsEndpoint } from './ops/endpoints.js';
import { traceRequests } from './ops/tracing.js';
import { readiness, API_VERSION } from './domain/health.js';
import type { Services } from './services.js';
import { projectRoutes } from './routes/projects.js';
import { agencyRoutes } from './routes/agency.js';
import { vapiEventRoutes } from './routes/vapi-events.js';
import { workflowToolRoutes } from './routes/workflow-tools.js';
import { failedRunRoutes } from './routes/failed-runs.js';
import { agentRoutes } from './routes/agents.js';
import { campaignRoutes } from './routes/campaigns.js';
import { workflowRoutes } from './routes/workflows.js';
import { executionRoutes } from './routes/executions.js';
import { eventRoutes } from './routes/events.js';
import { systemRoutes } from './routes/system.js';
import { phoneNumberRoutes } from './routes/phone-numbers.js';
import { crmRoutes } from './routes/crm.js';
import { callHistoryRoutes } from './routes/call-history.js';
import { powerDialerRoutes } from './routes/power-dialer.js';
import { contactEventRoutes } from './routes/contact-events.js';
import { apiKeyRoutes } from './routes/api-keys.js';

export const EDITOR_DIST = path.resolve(import.meta.dirname, '../editor/dist');

/** Every API operation, in registration order (fixed paths before parameterised ones). */
export function allRoutes(s: Services): RouteDef[] {
  const routes: RouteDef[] = [];
  routes.push(
    ...systemRoutes(s, () => routes),
    ...projectRoutes(s),
    ...agentRoutes(s),
    ...campaignRoutes(s),
    ...phoneNumberRoutes(s),
    ...crmRoutes(s),
    ...callHistoryRoutes(s),
    ...powerDialerRoutes(s),
    ...workflowRoutes(s),
    ...executionRoutes(s),
    ...eventRoutes(s),
    ...contactEventRoutes(s),
    ...agencyRoutes(s),
    ...vapiEventRoutes(s),
    ...workflowToolRoutes(s),
    ...failedRunRoutes(s),
    ...apiKeyRoutes(s),
  );
  return routes;
}

/** Where call events from a voice platform arrive (by path: a body the parser refuses never reaches a route). */
const callEventSource = (path: string) => (path === '/api/events/calls' ? 'calls' : path.startsWith('/api/events/vapi/') ? 'vapi' : null);

/** Signed deliveries from a voice platform or CRM: the agency a delivery names, as sent. */
function signedDelivery(ctx: Context): { source: string; agencyId: string | null } | null {
  const vapi = /^\/api\/events\/vapi\/([^/]+)$/.exec(ctx.path);
  if (vapi) {
    let agencyId: string;
    try {
      agencyId = decodeURIComponent(vapi[1]!);
    } catch {
      agencyId = vapi[1]!;
    }
    return { source: 'vapi', agencyId: agencyId.slice(0, 200) };
  }
  const source = ctx.path === '/api/events/calls' ? 'calls' : ctx.path === '/api/events/contacts' ? 'contacts' : null;
  return source ? { source, agencyId: ctx.get('x-agency-id').slice(0, 200) || null } : null;
}

/**
 * A refused delivery gets one warn line with the reason the sender was told: the access line's
 * status alone does not tell a wrong secret from a drifting clock or a call placed elsewhere. The
 * reason is the error's message, which never quotes a secret or a signature; headers are not read.
 */
function logRefusal(s: Services, ctx: Context, requestId: string): void {
  if (ctx.status < 400 || ctx.status >= 500) return;
  const delivery = signedDelivery(ctx);
  if (!delivery) return;
  const body = ctx.body as { message?: unknown; error?: unknown } | undefined;
  const reason = typeof body?.message === 'string' ? body.message : typeof body?.error === 'string' ? body.error : `HTTP ${ctx.status}`;
  s.logger.warn({ reqId: requestId, source: delivery.source, agencyId: delivery.agencyId, status: ctx.status, reason }, delivery.source === 'contacts' ? 'contact event refused' : 'call event refused');
}

/**
 * Request id first, and one log line per request: method, path, status, time. Never headers or
 * bodies. The same place counts the request and its duration by route template (Prometheus).
 */
function requestLog(s: Services): Middleware {
  // The line's fields are fixed and hold no secret (a key's id, never the key), so it skips the
  // redaction every other line gets: redacting cost ~23 µs a line, a tenth of a read's time.
  const lines = s.logger.child({}, { redact: [] });
  return async function requestLogMiddleware(ctx, next) {
    const id = /^[\w.-]{1,64}$/.test(ctx.get('x-request-id')) ? ctx.get('x-request-id') : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    const started = performance.now();
    try {
      await next();
    } finally {
      const seconds = (performance.now() - started) / 1000;
      // The template, never the concrete path: ids in paths would make a series per resource.
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? (ctx.path.startsWith('/api') ? 'unmatched' : ctx.path.startsWith('/editor') ? '/editor' : ctx.path === '/metrics' ? '/metrics' : 'other');
      const labels = { route, method: ctx.method, status: String(ctx.status) };
      s.metrics.httpRequests.inc(labels);
      s.metrics.httpDuration.observe(labels, seconds);
      const source = callEventSource(ctx.path);
      if (source) {
        // What the handler decided; anything it did not get to is a refusal (signature, body, 503).
        const decided = ctx.state.callEvent as { type: string; result: string } | undefined;
        s.metrics.callEvents.inc({ source, type: decided?.type ?? 'unknown', result: decided?.result ?? 'refused', status: String(ctx.status) });
      }
      logRefusal(s, ctx, id);
      if (ctx.path.startsWith('/api')) {
        lines.info({ reqId: id, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(seconds * 1000), key: ctx.state.caller?.keyId }, 'request');
      }
    }
  };
}

function editor(): Middleware {
  const index = path.join(EDITOR_DIST, 'index.html');
  const assets = serve(EDITOR_DIST, { index: false, maxage: 3600_000, immutable: false });
  return async function editorMiddleware(ctx, next) {
    if (ctx.path === '/' ) return ctx.redirect('/editor/');
    if (ctx.path !== '/editor' && !ctx.path.startsWith('/editor/')) return next();
    if (!fs.existsSync(index)) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The editor is not built: run `npm run build:editor`.';
      return;
    }
    // The editor is a single-page app: assets by path, every other /editor/... URL gets index.html.
    const rel = ctx.path.replace(/^\/editor/, '') || '/';
    if (rel.startsWith('/assets/')) return mount('/editor', assets)(ctx, next);
    ctx.type = 'text/html';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = fs.createReadStream(index);
  };
}

/**
 * OPTIONS and 405 answers name the methods of the best-matching operation path, as the OpenAPI
 * document does: a fixed segment beats a parameter (`/api/v2/projects/systems` is GET only, not
 * also the PUT and DELETE of `/api/v2/projects/:id`, which the router alone would merge in).
 */
function allowOfBestMatch(): Middleware {
  return async function allowOfBestMatchMiddleware(ctx, next) {
    await next();
    const matched = (ctx as { matched?: { path: string; methods: string[] }[] }).matched;
    if (!ctx.response.get('Allow') || !matched?.length) return;
    const params = (p: string) => (p.match(/:/g) ?? []).length;
    const fewest = Math.min(...matched.map((l) => params(l.path)));
    ctx.set('Allow', [...new Set(matched.filter((l) => params(l.path) === fewest).flatMap((l) => l.methods))].join(', '));
  };
}

/** Methods whose bodies the parser never reads (its defaults): the body checks around it have nothing to do. */
const BODYLESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

/**
 * The body's middlewares (UTF-8 watch, parser, UTF-8 and depth checks) as one step that reads skip:
 * four no-op hops per request were a measurable share of a read (bench/README.md).
 */
function forBodies(stack: Middleware[]): Middleware {
  const chain = compose(stack);
  return function bodyMiddleware(ctx, next) {
    return BODYLESS.has(ctx.method) ? next() : chain(ctx, next);
  };
}

export function createApp(s: Services): Koa {
  const app = new Koa({ proxy: false });
  const router = new Router();
  const routes = allRoutes(s);
  mountRoutes(router, routes, s, idempotencyGuard(s));

  // Tracing off (no OTLP endpoint): no span per request, not even a no-op one.
  if (s.tracing.enabled) app.use(traceRequests());
  app.use(requestLog(s));
  app.use(securityHeaders());
  app.use(metricsEndpoint(s, { dedicatedListener: false }));
  app.use(errorEnvelope());
  app.use(authenticate(s.store.apiKeys));
  app.use(rateLimit({ points: s.config.rateLimitPoints, windowSeconds: s.config.rateLimitWindowSeconds, limiter: s.rateLimiter }));
  app.use(
    forBodies([
      watchUtf8(),
      bodyParser({
        enableTypes: ['json'],
        jsonLimit: '1mb',
        encoding: 'utf-8',
        // ctx.request.rawBody keeps the exact bytes: call events are verified by an HMAC over them.
        onError: (err) => {
          // Parser errors carry their status (400, 413, 415); a corrupt gzip/deflate/br body fails in
          // zlib with none, and is the client's fault all the same.
          if (typeof (err as { status?: unknown }).status !== 'number') {
            throw new AppError('VALIDATION', 'body: could not be decompressed as its Content-Encoding says');
          }
          throw err;
        },
      }),
      requireUtf8(),
      limitJsonDepth(),
    ]),
  );
  app.use(router.routes());
  app.use(allowOfBestMatch());
  app.use(router.allowedMethods());
  app.use(deprecationsPage(() => routes));
  app.use(editor());
  app.on('error', (err, ctx) => {
    s.logger.error({ err: { message: (err as Error).message, stack: (err as Error).stack }, reqId: ctx?.state?.requestId }, 'unhandled error');
  });
  return app;
}

/**
 * The operations listener (`METRICS_ADDRESS`, and the whole HTTP face of `--role=worker`):
 * `GET /metrics` and the health probes, nothing else.
 */
export function createOpsApp(s: Services): Koa {
  const app = new Koa({ proxy: false });
  app.use(requestLog(s));
  app.use(securityHeaders());
  app.use(metricsEndpoint(s, { dedicatedListener: true }));
  app.use(async function healthProbes(ctx, next) {
    if (ctx.method !== 'GET') return next();
    if (ctx.path === '/api/health/live') {
      ctx.body = { success: true, data: { status: 'alive', version: API_VERSION, uptimeSeconds: Math.round(process.uptime()) } };
      return;
    }
    if (ctx.path === '/api/health/ready' || ctx.path === '/api/health') {
      const data = await readiness(s);
      ctx.status = data.status === 'ready' ? 200 : 503;
      ctx.body = { success: data.status === 'ready', data };
      return;
    }
    return next();
  });
  return app;
}

/**
 * Listens, and answers what Node's HTTP parser refuses before Koa sees it (URLs or headers over
 * 16 KB: 431, malformed requests: 400) in the same error envelope instead of an empty body.
 */
export function listen(app: Koa, port: number, host: string): import('node:http').Server {
  const server = app.listen(port, host);
  // Idle keep-alive connections stay open longer than any client or load balancer keeps them
  // (they idle out at 4-60 s): with Node's 5 s, a client sending on a connection just as the
  // server closes it gets ECONNRESET (a test that held the event loop for seconds did).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify(
      tooLarge
        ? { success: false, error: 'RequestHeaderFieldsTooLarge', message: 'request line or headers are larger than 16 KB' }
        : { success: false, error: 'VALIDATION', message: 'malformed HTTP request' },
    );
    socket.end(
      `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\ncontent-type: application/json\r\nx-content-type-options: nosniff\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
