import { defineRoute, type RouteDef } from '../http/route.js';
import { buildOpenApi } from '../http/openapi.js';
import { ErrorBody } from '../../schemas/common.js';
import type { Services } from '../services.js';

export const API_VERSION = '1.0.0';

export function systemRoutes(s: Services, all: () => RouteDef[]): RouteDef[] {
  let doc: unknown;
  return [
    defineRoute({
      method: 'get', path: '/api/health', operationId: 'health', tag: 'System',
      summary: 'Liveness and dependency status (no key needed)',
      access: 'public',
      responses: {
        200: { description: 'healthy', schema: { type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data: { type: 'object' } } } },
        503: { description: 'a dependency is down (the message says which)', schema: ErrorBody },
      },
      handler: async ({ ctx }) => {
        let store = 'ok';
        try {
          s.db.prepare('SELECT 1').get();
        } catch {
          store = 'down';
        }
        const temporal = s.temporal ? ((await s.temporal.health()) ? 'ok' : 'down') : 'not_configured';
        if (store === 'ok' && temporal !== 'down') return { success: true, data: { store, temporal, version: API_VERSION } };
        // An error like any other (spec 7 envelope, decisions.md: 503 ServiceUnavailable); the
        // message names each dependency's state.
        ctx.status = 503;
        return { success: false, error: 'ServiceUnavailable', message: `a dependency is down: store ${store}, temporal ${temporal}` };
      },
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
