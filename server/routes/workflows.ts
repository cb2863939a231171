import { digestGraph } from '../../engine/graph/digest.js';
import { emittableOutcomes } from '../../engine/graph/outcomes.js';
import { defineRoute, type Deprecation, type RouteDef } from '../http/route.js';
import type { Caller } from '../http/request-context.js';
import { presentWorkflow, presentWorkflowWithWarnings } from '../http/present.js';
import type { Services } from '../services.js';
import type { Store } from '../store/index.js';
import { Id, ok } from '../../schemas/common.js';
import { AppendNodesBody, DocumentedAppendNodesBody, OutcomeSpelling, DocumentedPatchWorkflowBody, DocumentedPutWorkflowBody, PatchWorkflowBody, PutWorkflowBody, SwitchOutcomeBody, Warning, Workflow } from '../../schemas/workflow.js';
import { TargetQuery } from '../../schemas/workflow-tools.js';
import {
  appendToOutcome,
  deleteStep,
  patchGraph,
  readWorkflow,
  replaceGraph,
  resolveProjectScopedTarget,
  resolveTarget,
  switchEntry,
  warningsFor,
  workflowVersion,
  type WorkflowTarget,
} from '../domain/workflows.js';

const admin = ['agency_admin'] as const;
const anyRole = ['agency_admin', 'project_user'] as const;
const readAccess = { scope: 'workflows:read', roles: anyRole } as const;
const writeAccess = { scope: 'workflows:write', roles: admin } as const;


const WorkflowWithWarnings = ok({ ...Workflow, properties: { ...Workflow.properties, warnings: { type: 'array', items: Warning } } });
const AppendResponse = {
  type: 'object',
  required: ['success', 'workflow'],
  properties: { success: { type: 'boolean' }, workflow: { anyOf: [Workflow, { type: 'null' }] }, warnings: { type: 'array', items: Warning } },
} as const;
const VersionSummary = {
  type: 'object',
  required: ['version', 'createdAt', 'keyId', 'summary'],
  properties: { version: { type: 'integer' }, createdAt: { type: 'string', format: 'date-time' }, keyId: { type: ['string', 'null'] }, summary: { type: 'string' } },
} as const;

/**
 * Where a workflow route finds its target. Agent-scoped routes name the agent (and optionally the
 * campaign in the query); the deprecated project-scoped ones name location and campaign.
 */
interface Scope {
  prefix: string;
  params: object;
  resolve(store: Store, caller: Caller, params: Record<string, string>, query: Record<string, string | undefined>): Promise<WorkflowTarget>;
  deprecated?: Deprecation;
  idSuffix: string;
}

const agentScope: Scope = {
  prefix: '/api/agent-builder/agents/:agentId/campaign/workflow',
  params: { agentId: Id },
  resolve: (store, caller, p, q) => resolveTarget(store, caller, p.agentId!, q),
  idSuffix: '',
};

const projectScope: Scope = {
  prefix: '/api/agent-builder/projects/:locationId/campaigns/:campaignId/workflow',
  params: { locationId: Id, campaignId: Id },
  resolve: (store, caller, p) => resolveProjectScopedTarget(store, caller, p.locationId!, p.campaignId!),
  deprecated: {
    since: '2026-07-01T00:00:00Z',
    sunset: '2027-07-01T00:00:00Z',
    anchor: 'project-scoped-workflow-routes',
    replacedBy: (path) =>
      `${path.replace('/api/agent-builder/projects/{locationId}/campaigns/{campaignId}/workflow', '/api/agent-builder/agents/{agentId}/campaign/workflow')}?locationId={locationId}&campaignId={campaignId}`,
    // The agent-scoped successor of the same operation, with the campaign named in the query.
    successor: (ctx) => {
      const campaign = ctx.state.workflowTarget as WorkflowTarget | undefined;
      const suffix = ctx.path.split('/workflow')[1] ?? '';
      return campaign
        ? `/api/agent-builder/agents/${campaign.agent.id}/campaign/workflow${suffix}?locationId=${encodeURIComponent(campaign.project.locationId)}&campaignId=${campaign.campaign.id}`
        : '/api/agent-builder/agents/{agentId}/campaign/workflow';
    },
  },
  idSuffix: 'ProjectScoped',
};

function paramsSchema(scope: Scope, extra: Record<string, object> = {}) {
  const properties = { ...scope.params, ...extra } as Record<string, object>;
  return { type: 'object', required: Object.keys(properties), properties } as const;
}

export function workflowRoutes(_s: Services): RouteDef[] {
  return [agentScope, projectScope].flatMap((scope) => routesFor(scope));
}

function routesFor(scope: Scope): RouteDef[] {
  const base = scope.prefix;
  const tag = scope.deprecated ? 'Workflows (deprecated project-scoped)' : 'Workflows';
  const op = (name: string) => `${name}${scope.idSuffix}`;
  const common = { tag, ...(scope.deprecated && { deprecated: scope.deprecated }) };

  const target = async (store: Store, caller: Caller, ctx: { state: Record<string, unknown> }, params: Record<string, string>, query: Record<string, string | undefined>) => {
    const t = await scope.resolve(store, caller, params, query);
    ctx.state.workflowTarget = t;
    return t;
  };

  return [
    defineRoute({
      ...common, method: 'get', path: base, operationId: op('getWorkflow'),
      summary: "Read a campaign's post-call workflow graph, with its warnings",
      access: readAccess, params: paramsSchema(scope), query: TargetQuery,
      responses: { 200: { description: 'the workflow', schema: WorkflowWithWarnings } },
      handler: async ({ ctx, caller, params, query, services }) => {
        const t = await target(services.store, caller, ctx, params as never, query as never);
        return { success: true, data: presentWorkflowWithWarnings(t, await readWorkflow(services.store, caller, t)) };
      },
    }),
    defineRoute({
      ...common, method: 'post', path: `${base}/outcomes/:outcome/nodes`, operationId: op('appendWorkflowNodes'),
      summary: "Append actions (or a router) to the end of an outcome's chain; ids, edges and layout are derived",
      access: writeAccess, params: paramsSchema(scope, { outcome: OutcomeSpelling }), query: TargetQuery, body: AppendNodesBody, documentedBody: DocumentedAppendNodesBody, idempotent: 'atomic',
      responses: { 200: { description: 'stored; `warnings` name what will not act as expected', schema: AppendResponse } },
      handler: async ({ ctx, caller, params, query, body, services }) => {
        const t = await target(services.store, caller, ctx, params as never, query as never);
        const stored = await appendToOutcome(services.store, caller, t, (params as { outcome: string }).outcome, body.nodes, body.expectedVersion);
        return { success: true, workflow: presentWorkflow(t, stored), warnings: warningsFor(t, stored) };
      },
    }),
    defineRoute({
      ...common, method: 'put', path: base, operationId: op('replaceWorkflow'),
      summary: 'Replace the whole graph: re-wire, position, build an if, save a draft, copy or restore',
      access: writeAccess, params: paramsSchema(scope), query: TargetQuery, body: PutWorkflowBody, documentedBody: DocumentedPutWorkflowBody,
      responses: { 200: { description: 'the stored workflow', schema: WorkflowWithWarnings } },
      handler: async ({ ctx, caller, params, query, body, services }) => {
        const t = await target(services.store, caller, ctx, params as never, query as never);
        return { success: true, data: presentWorkflowWithWarnings(t, await replaceGraph(services.store, caller, t, body)) };
      },
    }),
    defineRoute({
      ...common, method: 'patch', path: base, operationId: op('patchWorkflow'),
      summary: 'Merge messages, tags and settings into existing nodes (no graph change)',
      access: writeAccess, params: paramsSchema(scope), query: TargetQuery, body: PatchWorkflowBody, documentedBody: DocumentedPatchWorkflowBody,
      responses: { 200: { description: 'the stored workflow', schema: WorkflowWithWarnings } },
      handler: async ({ ctx, caller, params, query, body, services }) => {
        const t = await target(services.store, caller, ctx, params as never, query as never);
        return { success: true, data: presentWorkflowWithWarnings(t, await patchGraph(services.store, caller, t, body)) };
      },
    }),
    defineRoute({
      ...common, method: 'delete', path: `${base}/nodes/:nodeId`, operationId: op('deleteWorkflowNode'),
      summary: 'Remove one step and re-link the chain around it',
      access: writeAccess, params: paramsSchema(scope, { nodeId: Id }),
      query: { type: 'object', properties: { ...TargetQuery.properties, expectedVersion: { type: 'integer', minimum: 0 } } },
      responses: { 200: { description: 'the stored workflow', schema: WorkflowWithWarnings } },
      handler: async ({ ctx, caller, params, query, services }) => {
        const t = await target(services.store, caller, ctx, params as never, query as never);
        const stored = await deleteStep(services.store, caller, t, (params as { nodeId: string }).nodeId, (query as { expectedVersion?: number }).expectedVersion);
        return { success: true, data: presentWorkflowWithWarnings(t, stored) };
      },
    }),
    defineRoute({
      ...common, method: 'put', path: `${base}/outcomes/:outcome/entry`, operationId: op('switchWorkflowOutcome'),
      summary: "Point an outcome's entry at another existing node (or clear it with null)",
      access: writeAccess, params: paramsSchema(scope, { outcome: OutcomeSpelling }), query: TargetQuery, body: SwitchOutcomeBody,
      responses: { 200: { description: 'the stored workflow', schema: WorkflowWithWarnings } },
      handler: async ({ ctx, caller, params, query, body, services }) => {
        const t = await target(services.store, caller, ctx, params as never, query as never);
        const stored = await switchEntry(services.store, caller, t, (params as { outcome: string }).outcome, body.nodeId, body.expectedVersion);
        return { success: true, data: presentWorkflowWithWarnings(t, stored) };
      },
    }),
    defineRoute({
      ...common, method: 'get', path: `${base}/digest`, operationId: op('getWorkflowDigest'),
      summary: 'Plain-text summary of what fires per outcome',
      access: readAccess, params: paramsSchema(scope), query: TargetQuery,
      responses: { 200: { description: 'the digest', contentType: 'text/plain', schema: { type: 'string' } } },
      handler: async ({ ctx, caller, params, query, services }) => {
        const t = await target(services.store, caller, ctx, params as never, query as never);
        const stored = await readWorkflow(services.store, caller, t);
        ctx.type = 'text/plain; charset=utf-8';
        return digestGraph(stored.graph, { outcomes: emittableOutcomes(t.agent.capabilities) });
      },
    }),
    defineRoute({
      ...common, method: 'get', path: `${base}/versions`, operationId: op('listWorkflowVersions'),
      summary: 'Every stored version, newest first: time, API key id and a summary of the change',
      access: readAccess, params: paramsSchema(scope), query: TargetQuery,
      responses: { 200: { description: 'versions', schema: ok({ type: 'array', items: VersionSummary }) } },
      handler: async ({ ctx, caller, params, query, services }) => {
        const t = await target(services.store, caller, ctx, params as never, query as never);
        return { success: true, data: await services.store.workflows.versions(caller.agencyId, t.campaign.id) };
      },
    }),
    defineRoute({
      ...common, method: 'get', path: `${base}/versions/:version`, operationId: op('getWorkflowVersion'),
      summary: 'One stored version of the graph (restore it by PUTting it back)',
      access: readAccess, params: paramsSchema(scope, { version: { type: 'integer', minimum: 1 } }), query: TargetQuery,
      responses: { 200: { description: 'that version', schema: ok(Workflow) } },
      handler: async ({ ctx, caller, params, query, services }) => {
        const t = await target(services.store, caller, ctx, params as never, query as never);
        const v = await workflowVersion(services.store, caller, t, (params as unknown as { version: number }).version);
        return { success: true, data: presentWorkflow(t, v) };
      },
    }),
  ];
}
