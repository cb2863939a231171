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
        const expected = ['/api/health', '/api/health/live', '/api/health/ready', '/api/openapi.json'].includes(path)
          ? []
          : path.startsWith('/api/events/vapi/')
            ? [{ vapiSignature: [] }]
            : path.startsWith('/api/events/')
              ? [{ eventSignature: [] }]
              : [{ bearerAuth: [] }];
        expect(op.security, op.operationId).toEqual(expected);
      }
    }
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops as Record<string, { operationId: string }>).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('the webhooks section and the document as a whole', () => {
  it('describes the signed events (call.started, call.ended, contact events) with their schemas and signature scheme', async () => {
    const doc = (await h.api('GET', '/api/openapi.json', { key: null })).body;
    expect(Object.keys(doc.webhooks).sort()).toEqual(['callEnded', 'callStarted', 'contactEvent']);
    const { CallEndedEvent, CallStartedEvent } = await import('../../schemas/call.js');
    const { ContactEvent } = await import('../../schemas/lead.js');
    expect(doc.webhooks.callEnded.post.requestBody.content['application/json'].schema).toEqual(JSON.parse(JSON.stringify(CallEndedEvent)));
    expect(doc.webhooks.callStarted.post.requestBody.content['application/json'].schema).toEqual(JSON.parse(JSON.stringify(CallStartedEvent)));
    expect(doc.webhooks.contactEvent.post.requestBody.content['application/json'].schema).toEqual(JSON.parse(JSON.stringify(ContactEvent)));
    for (const hook of Object.values<{ post: { parameters: { name: string }[]; security: unknown[] } }>(doc.webhooks)) {
      expect(hook.post.parameters.map((p) => p.name)).toEqual(['X-Agency-Id', 'X-Signature']);
      expect(hook.post.security).toEqual([{ eventSignature: [] }]);
    }
    expect(doc.components.securitySchemes.eventSignature.description).toMatch(/HMAC-SHA256 of "<t>\.<raw body>"/);
    // Each example validates against its own schema.
    const { validate } = await import('../../server/domain/validation.js');
    for (const hook of Object.values<{ post: { requestBody: { content: { 'application/json': { schema: object; examples: { sample: { value: unknown } } } } } } }>(doc.webhooks)) {
      const media = hook.post.requestBody.content['application/json'];
      expect(() => validate('body', media.schema, media.examples.sample.value)).not.toThrow();
    }
  });

  it("passes an OpenAPI linter (Redocly's recommended rules) with no error and no warning", async () => {
    const { createConfig, lintFromString } = await import('@redocly/openapi-core');
    const doc = (await h.api('GET', '/api/openapi.json', { key: null })).body;
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config: await createConfig({ extends: ['recommended'] }) });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });
});

describe('examples and links', () => {
  it('every operation with a body has an example that its own body schema accepts', async () => {
    const doc = (await h.api('GET', '/api/openapi.json', { key: null })).body;
    const { validate } = await import('../../server/domain/validation.js');
    const problems: string[] = [];
    let checked = 0;
    for (const [path, ops] of Object.entries<Record<string, { operationId: string; requestBody?: { content: Record<string, { schema: object; examples?: { sample?: { value: unknown } } }> } }>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!op.requestBody) continue;
        const media = op.requestBody.content['application/json']!;
        const example = media.examples?.sample?.value;
        if (example === undefined) {
          problems.push(`${method.toUpperCase()} ${path} (${op.operationId}) has no example`);
          continue;
        }
        checked++;
        try {
          validate('body', media.schema, example);
        } catch (err) {
          problems.push(`${op.operationId}: its example does not validate: ${(err as Error).message}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(25);
  });

  it('every link names an existing operation and only parameters that operation has', async () => {
    const doc = (await h.api('GET', '/api/openapi.json', { key: null })).body;
    const ops = new Map<string, { parameters: { name: string; in: string }[]; requestBody?: unknown }>();
    for (const methods of Object.values<Record<string, { operationId: string; parameters: { name: string; in: string }[]; requestBody?: unknown }>>(doc.paths)) {
      for (const op of Object.values(methods)) ops.set(op.operationId, op);
    }
    const problems: string[] = [];
    let links = 0;
    for (const [path, methods] of Object.entries<Record<string, { operationId: string; responses: Record<string, { links?: Record<string, { operationId: string; parameters?: Record<string, string>; requestBody?: unknown }> }> }>>(doc.paths)) {
      for (const op of Object.values(methods)) {
        for (const [status, response] of Object.entries(op.responses)) {
          for (const [name, link] of Object.entries(response.links ?? {})) {
            links++;
            const target = ops.get(link.operationId);
            if (!target) {
              problems.push(`${op.operationId} ${status} ${name}: no operation ${link.operationId}`);
              continue;
            }
            for (const p of Object.keys(link.parameters ?? {})) {
              if (!target.parameters.some((x) => x.name === p)) problems.push(`${op.operationId} ${status} ${name}: ${link.operationId} has no parameter ${p} (${path})`);
            }
            if (link.requestBody !== undefined && !target.requestBody) problems.push(`${op.operationId} ${status} ${name}: ${link.operationId} takes no body`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(links).toBeGreaterThan(30);
  });
});

describe('documented workflow bodies agree with the two-stage validation', () => {
  it('every node of every starter template is valid for both; removed and unknown types for neither', async () => {
    const { validate } = await import('../../server/domain/validation.js');
    const { DocumentedAppendNodesBody, DocumentedPutWorkflowBody, REMOVED_NODE_TYPES } = await import('../../schemas/workflow.js');
    const { WORKFLOW_TEMPLATES, templateGraph } = await import('../../server/workflow-templates.js');
    const { findGraphProblems } = await import('../../engine/graph/validate.js');
    const all = ['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION', 'TRANSFER', 'RESCHEDULE'] as const;
    for (const t of WORKFLOW_TEMPLATES) {
      for (const nodes of Object.values(t.chains)) expect(() => validate('body', DocumentedAppendNodesBody, { nodes })).not.toThrow();
      const g = templateGraph(t, all);
      expect(findGraphProblems(g)).toEqual([]);
      expect(() => validate('body', DocumentedPutWorkflowBody, { ...g, expectedVersion: 0 })).not.toThrow();
    }
    for (const type of [...REMOVED_NODE_TYPES, 'no-such-type']) {
      expect(() => validate('body', DocumentedAppendNodesBody, { nodes: [{ type, config: { url: 'https://hooks.example.org/x' } }] })).toThrow();
      expect(findGraphProblems({ nodes: [{ id: 'n1', type, config: {}, position: { x: 0, y: 0 } }], edges: [], dispositionEntries: { VOICEMAIL: 'n1' } } as never).length).toBeGreaterThan(0);
    }
    // A draft is a PUT-only thing: empty configs are documented for PUT, refused by append.
    expect(() => validate('body', DocumentedPutWorkflowBody, { nodes: [{ id: 'n1', type: 'send-sms', config: {} }], edges: [], dispositionEntries: {}, expectedVersion: 0 })).not.toThrow();
    expect(() => validate('body', DocumentedAppendNodesBody, { nodes: [{ type: 'send-sms', config: {} }] })).toThrow();
  });
});
