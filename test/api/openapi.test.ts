import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

/** Every path and method the spec names (sections 4.1-4.13). */
const SPEC_OPERATIONS: [string, string][] = [
  ['put', '/api/v2/projects/{id}'],
  ['delete', '/api/v2/projects/{id}'],
  ['get', '/api/v2/projects/systems'],
  ['get', '/api/agent-builder/projects'],
  ['post', '/api/agent-builder/phone-numbers'],
  ['post', '/api/agent-builder/phone-numbers/{number}/assign'],
  ['get', '/api/power-dialer/pipeline/leads'],
  ['get', '/api/power-dialer/pipeline/s2l-parked'],
  ['get', '/api/call-history/by-call-id/{callId}'],
  ['get', '/api/agent-builder/agents/{id}/crm-custom-values'],
  ['get', '/api/agent-builder/agents/{id}/crm-custom-fields'],
  ['get', '/api/agent-builder/agents/{agentId}/campaign/workflow/digest'],
  ['post', '/api/agent-builder/agents/{agentId}/campaign/workflow/outcomes/{outcome}/nodes'],
  ['patch', '/api/agent-builder/agents/{agentId}/campaign/workflow'],
  ['delete', '/api/agent-builder/agents/{agentId}/campaign/workflow/nodes/{nodeId}'],
  ['put', '/api/agent-builder/agents/{agentId}/campaign/workflow'],
  ['get', '/api/agent-builder/agent-types'],
  ['post', '/api/agent-builder/agents'],
  ['get', '/api/agent-builder/agents'],
  ['get', '/api/agent-builder/agents/{id}/skills/library'],
  ['get', '/api/agent-builder/agents/{agentId}/campaign/workflow/executions'],
  ['get', '/api/call-history'],
];

describe('route declarations', () => {
  it('every operation declares a schema for each success status (the harness checks every response against it)', async () => {
    const { allRoutes } = await import('../../server/app.js');
    const missing = allRoutes(h.services).flatMap((r) =>
      Object.entries(r.responses)
        .filter(([status, resp]) => Number(status) < 300 && !resp.schema)
        .map(([status]) => `${r.operationId} ${status}`),
    );
    expect(missing).toEqual([]);
  });
});

describe('GET /api/openapi.json', () => {
  it('lists every path and method of the spec', async () => {
    const doc = (await h.api('GET', '/api/openapi.json', { key: null })).body;
    const missing = SPEC_OPERATIONS.filter(([m, p]) => !doc.paths[p]?.[m]).map(([m, p]) => `${m.toUpperCase()} ${p}`);
    expect(missing).toEqual([]);
  });

  it('marks the project-scoped workflow routes deprecated and every keyed operation with bearer auth', async () => {
    const doc = (await h.api('GET', '/api/openapi.json', { key: null })).body;
    expect(doc.paths['/api/agent-builder/projects/{locationId}/campaigns/{campaignId}/workflow'].get.deprecated).toBe(true);
    for (const [path, ops] of Object.entries<Record<string, { security: unknown[]; operationId: string }>>(doc.paths)) {
      for (const op of Object.values(ops)) {
        const isPublic = ['/api/health', '/api/openapi.json'].includes(path) || path.startsWith('/api/events/');
        expect(op.security, op.operationId).toEqual(isPublic ? [] : [{ bearerAuth: [] }]);
      }
    }
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops as Record<string, { operationId: string }>).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
