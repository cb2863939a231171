import { defineRoute, type RouteDef } from '../http/route.js';
import { buildOpenApi } from '../http/openapi.js';
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
        200: { description: 'healthy', schema: { type: 'object', required: ['success', 'data'], properties: { success: { type: 'boolean' }, data: { type: 'object' } } } },
        503: { description: 'a dependency is down' },
      },
      handler: async ({ ctx }) => {
        let store = 'ok';
        try {
          s.db.prepare('SELECT 1').get();
        } catch {
          store = 'down';
        }
        const temporal = s.temporal ? ((await s.temporal.health()) ? 'ok' : 'down') : 'not_configured';
        const healthy = store === 'ok' && temporal !== 'down';
        ctx.status = healthy ? 200 : 503;
        return { success: healthy, data: { store, temporal, version: API_VERSION } };
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
