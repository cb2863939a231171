import { defineRoute, type RouteDef } from '../http/route.js';
import { buildOpenApi } from '../http/openapi.js';
import { ErrorBody } from '../../schemas/common.js';
import type { Services } from '../services.js';
import { ok } from '../../schemas/common.js';
import { API_VERSION, readiness } from '../domain/health.js';


const Liveness = {
  type: 'object',
  required: ['status', 'version', 'uptimeSeconds'],
  properties: { status: { const: 'alive' }, version: { type: 'string' }, uptimeSeconds: { type: 'integer', minimum: 0 } },
} as const;

const Readiness = {
  type: 'object',
  required: ['status', 'store', 'temporal', 'version'],
  properties: {
    status: { enum: ['ready', 'not_ready'] },
    store: { enum: ['ok', 'down'] },
    temporal: { enum: ['ok', 'down', 'not_configured'] },
    version: { type: 'string' },
  },
} as const;

/** Not ready is an error like any other (spec 7 envelope, decisions.md: 503 ServiceUnavailable); the message names each check's state. */
const readinessResponses = {
  200: { description: 'ready', schema: ok(Readiness) },
  503: { description: 'a dependency is down: the error envelope, its message naming each check (store ok|down, temporal ok|down|not_configured)', schema: ErrorBody },
};

function answerReadiness(ctx: { status: number }, data: Awaited<ReturnType<typeof readiness>>) {
  if (data.status === 'ready') return { success: true, data };
  ctx.status = 503;
  return { success: false, error: 'ServiceUnavailable', message: `a dependency is down: store ${data.store}, temporal ${data.temporal}` };
}

export function systemRoutes(s: Services, all: () => RouteDef[]): RouteDef[] {
  let doc: unknown;
  return [
    defineRoute({
      method: 'get', path: '/api/health/live', operationId: 'liveness', tag: 'System',
      summary: 'Liveness: the process answers (no key needed); a failure means restart it',
      description: 'Checks nothing outside the process, so a database or Temporal outage never gets a healthy process restarted.',
      access: 'public',
      responses: { 200: { description: 'alive', schema: ok(Liveness) } },
      handler: () => ({ success: true, data: { status: 'alive', version: API_VERSION, uptimeSeconds: Math.round(process.uptime()) } }),
    }),
    defineRoute({
      method: 'get', path: '/api/health/ready', operationId: 'readiness', tag: 'System',
      summary: 'Readiness: the store and Temporal answer (no key needed); while 503, send no traffic',
      description: 'Each check is bounded (Temporal: 2 s). `temporal` is `not_configured` in a process started without it.',
      access: 'public',
      responses: readinessResponses,
      handler: async ({ ctx }) => answerReadiness(ctx, await readiness(s)),
    }),
    defineRoute({
      method: 'get', path: '/api/health', operationId: 'health', tag: 'System',
      summary: 'Readiness, as /api/health/ready (kept for existing probes)',
      access: 'public',
      responses: readinessResponses,
      handler: async ({ ctx }) => answerReadiness(ctx, await readiness(s)),
    }),
    defineRoute({
      method: 'get', path: '/api/openapi.json', operationId: 'openapi', tag: 'System',
      summary: 'This API described in OpenAPI 3.1, assembled from the JSON Schemas in schemas/',
      access: 'public',
      responses: { 200: { description: 'OpenAPI document', schema: { type: 'object' } } },
      handler: () => (doc ??= buildOpenApi(all(), API_VERSION)),
    }),
  ];
}
