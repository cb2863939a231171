import type Router from '@koa/router';
import type { Context } from 'koa';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { Role, Scope } from '../store/index.js';
import type { Services } from '../services.js';
import { AppError } from './errors.js';
import type { Caller } from './request-context.js';
import { validate } from '../domain/validation.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Infer<S> = S extends JSONSchema ? (S extends true ? unknown : FromSchema<S>) : undefined;

export type Access = { scope: Scope; roles: readonly Role[] } | 'public' | 'signature';

export interface Response {
  description: string;
  schema?: object;
  contentType?: string;
  /** response headers by name (OpenAPI header objects: description, required, schema) */
  headers?: Record<string, { description: string; required?: boolean; schema: object }>;
}

export interface Deprecation {
  since: string;
  sunset: string;
  /** the section of the deprecations page (`/docs/deprecations#<anchor>`) that describes it */
  anchor: string;
  /** the successor of this request, for the `Link rel="successor-version"` header */
  successor: (ctx: Context) => string;
  /** the successor operation's path for a deprecated path (OpenAPI braces), for the deprecations page */
  replacedBy: (path: string) => string;
}

/** Where `Link rel="deprecation"` points: a page listing every deprecated route (server/http/deprecations.ts). */
export const DEPRECATIONS_PAGE = '/docs/deprecations';

export interface RouteContext<P, Q, B> {
  ctx: Context;
  params: P;
  query: Q;
  body: B;
  /** present on every route whose access is not 'public' / 'signature' */
  caller: Caller;
  /** the services to act with: under an atomic Idempotency-Key, `store` is the transaction that also stores the answer */
  services: Services;
}

/**
 * One declaration per operation: its access rule, the schemas of what it accepts and returns, and a
 * thin handler. The same declaration drives authorisation, validation, idempotency and the OpenAPI
 * document, so none of them can drift from the others.
 */
interface TypedRoute<P extends JSONSchema | undefined, Q extends JSONSchema | undefined, B extends JSONSchema | undefined> {
  method: Method;
  /** koa-router path, e.g. /api/v2/projects/:id */
  path: string;
  operationId: string;
  summary: string;
  /** longer rules an integrator needs (OpenAPI `description`) */
  description?: string;
  /** for `signature` access: the scheme the sender signs with (default our own `eventSignature`) */
  signatureScheme?: 'eventSignature' | 'vapiSignature';
  tag: string;
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * The body with every rule stated, for the OpenAPI document, where validation runs in two stages
   * (this route's `body`, then a domain validator with the same rules, for clearer messages).
   */
  documentedBody?: object;
  responses: Record<number, Response>;
  /**
   * Create-style: an Idempotency-Key header replays the stored response. `atomic`: the handler's
   * writes, the key's claim and the stored answer commit in one transaction (the handler does no
   * outside I/O); `claim`: the key is claimed first, the handler (which talks to a vendor or
   * Temporal) runs outside it, and the answer is stored after, so a retry after a crash re-runs it.
   */
  idempotent?: IdempotencyMode | ((input: { body: unknown }) => IdempotencyMode);
  /** a deprecated route answers with Deprecation/Sunset/Link pointing at this successor */
  deprecated?: Deprecation;
  /** `raw` keeps the handler's body as is (plain text, HTML) */
  handler(input: RouteContext<Infer<P>, Infer<Q>, Infer<B>>): unknown | Promise<unknown>;
}

/** A declared route with its types erased, as the router and the OpenAPI builder see it. */
export type RouteDef = Omit<TypedRoute<undefined, undefined, undefined>, 'params' | 'query' | 'body' | 'handler'> & {
  params?: object;
  query?: object;
  body?: object;
  handler(input: RouteContext<any, any, any>): unknown | Promise<unknown>;
};

export function defineRoute<
  const P extends JSONSchema | undefined = undefined,
  const Q extends JSONSchema | undefined = undefined,
  const B extends JSONSchema | undefined = undefined,
>(def: TypedRoute<P, Q, B>): RouteDef {
  // Erased once here, so comparing route types never makes the compiler expand FromSchema<any>.
  return def as unknown as RouteDef;
}

/** Standard 4xx/5xx list per access type, so each route lists only what is particular to it. */
export function authorize(access: Access, caller: Caller | undefined): Caller {
  if (access === 'public' || access === 'signature') return caller as Caller;
  if (!caller) throw new AppError('UNAUTHORIZED', 'missing API key');
  if (!access.roles.includes(caller.role)) {
    throw new AppError('FORBIDDEN', `this operation needs the role ${access.roles.join(' or ')}; the key has ${caller.role}`);
  }
  if (!caller.scopes.has(access.scope)) {
    throw new AppError('FORBIDDEN', `this API key lacks the scope ${access.scope}`);
  }
  return caller;
}

export type IdempotencyMode = 'atomic' | 'claim';

/** Runs `run` under the request's Idempotency-Key, if it has one, with the services it is to act with. */
export type IdempotencyGuard = (ctx: Context, mode: IdempotencyMode, run: (services: Services) => Promise<void>) => Promise<void>;

export function mountRoutes(router: Router, routes: readonly RouteDef[], services: Services, idempotency: IdempotencyGuard): void {
  for (const def of routes) {
    router[def.method](def.operationId, def.path, async (ctx: Context) => {
      const caller = authorize(def.access, ctx.state.caller as Caller | undefined);
      const params = { ...ctx.params };
      const query = { ...(ctx.query as Record<string, unknown>) };
      if (def.params) validate('params', def.params, params);
      if (def.query) validate('query', def.query, query);
      let body: unknown = (ctx.request as { body?: unknown }).body;
      if (def.body) {
        const sentBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
        if (sentBody && !ctx.is('application/json')) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'request body must be application/json');
        }
        // The OpenAPI document (and spec 4.1) call every declared body required: none is a 400,
        // even where `{}` would be valid.
        if (!sentBody) throw new AppError('VALIDATION', 'body is required: send a JSON object with Content-Type: application/json');
        validate('body', def.body, body);
      }
      const input = { ctx, params, query, body, caller, services } as RouteContext<unknown, unknown, unknown>;
      try {
        if (def.idempotent) {
          const mode = typeof def.idempotent === 'function' ? def.idempotent({ body }) : def.idempotent;
          await idempotency(ctx, mode, async (acting) => finish(ctx, await def.handler({ ...input, services: acting })));
        } else {
          // No closure per request here: the hot reads take this path.
          finish(ctx, await def.handler(input));
        }
      } finally {
        // After the handler: the successor link may name what the handler resolved.
        if (def.deprecated) setDeprecation(ctx, def.deprecated);
      }
    });
  }
}

function finish(ctx: Context, result: unknown): void {
  if (result !== undefined) ctx.body = result;
  if (!ctx.status || ctx.status === 404) ctx.status = 200;
}

function setDeprecation(ctx: Context, dep: Deprecation): void {
  // RFC 9745: Deprecation is a structured-field date, "@" + epoch seconds. RFC 8594: Sunset is an HTTP date.
  ctx.set('Deprecation', `@${Math.floor(Date.parse(dep.since) / 1000)}`);
  ctx.set('Sunset', new Date(dep.sunset).toUTCString());
  const successor = dep.successor(ctx);
  ctx.set('Link', `<${successor}>; rel="successor-version", <${DEPRECATIONS_PAGE}#${dep.anchor}>; rel="deprecation"`);
}
