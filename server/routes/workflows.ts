import { appendNodes } from '../../engine/graph/append.js';
import { describeChange } from '../../engine/graph/describe-change.js';
import { digestGraph } from '../../engine/graph/digest.js';
import { emittableOutcomes, normalizeOutcome, type Disposition } from '../../engine/graph/outcomes.js';
import { patchNodes } from '../../engine/graph/patch.js';
import { deleteNode } from '../../engine/graph/relink.js';
import { switchOutcome } from '../../engine/graph/switch-outcome.js';
import { prepareGraph } from '../../engine/graph/validate.js';
import type { Graph } from '../../engine/graph/types.js';
import { AppError, notFound } from '../http/errors.js';
import { defineRoute, type Deprecation, type RouteDef } from '../http/route.js';
import type { Caller } from '../http/request-context.js';
import type { Services } from '../services.js';
import { Id, ok } from '../../schemas/common.js';
import { AppendNodesBody, DocumentedAppendNodesBody, OutcomeSpelling, DocumentedPatchWorkflowBody, DocumentedPutWorkflowBody, PatchWorkflowBody, PutWorkflowBody, SwitchOutcomeBody, Warning, Workflow } from '../../schemas/workflow.js';
import { asAppError, presentWorkflow, resolveTarget, TargetQuery, warningsFor, type WorkflowTarget } from './workflow-target.js';
import { executionRoutes } from './executions.js';

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
  resolve(s: Services, caller: Caller, params: Record<string, string>, query: Record<string, string | undefined>): WorkflowTarget;
  deprecated?: Deprecation;
  idSuffix: string;
}

const agentScope: Scope = {
  prefix: '/api/agent-builder/agents/:agentId/campaign/workflow',
  params: { agentId: Id },
  resolve: (s, caller, p, q) => resolveTarget(s, caller, p.agentId!, q),
  idSuffix: '',
};

const projectScope: Scope = {
  prefix: '/api/agent-builder/projects/:locationId/campaigns/:campaignId/workflow',
  params: { locationId: Id, campaignId: Id },
  resolve: (s, caller, p) => {
    const campaign = s.repos.campaigns.get(caller.agencyId, p.campaignId!);
    if (!campaign) throw notFound(`campaign ${p.campaignId} not found`);
    return resolveTarget(s, caller, campaign.agentId, { locationId: p.locationId!, campaignId: p.campaignId! });
  },
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

export function workflowRoutes(s: Services): RouteDef[] {
  return [agentScope, projectScope].flatMap((scope) => routesFor(s, scope)).concat(executionRoutes(s));
}

function routesFor(s: Services, scope: Scope): RouteDef[] {
  const base = scope.prefix;
  const tag = scope.deprecated ? 'Workflows (deprecated project-scoped)' : 'Workflows';
  const op = (name: string) => `${name}${scope.idSuffix}`;
  const common = { tag, ...(scope.deprecated && { deprecated: scope.deprecated }) };

  const target = (caller: Caller, ctx: { state: Record<string, unknown> }, params: Record<string, string>, query: Record<string, string | undefined>) => {
    const t = scope.resolve(s, caller, params, query);
    ctx.state.workflowTarget = t;
    return t;
  };

  /**
   * One write path: pure operation, stored version, warnings in the answer. Each operation
   * (`appendNodes`, `prepareGraph`, `patchNodes`, `deleteNode`, `switchOutcome`) validates the graph
   * it returns, so it is not validated here a second time (at 1,000 steps a validation is ~4 ms).
   */
  function write(caller: Caller, t: WorkflowTarget, expectedVersion: number | undefined, op: (g: Graph) => { graph: Graph; summary?: string }) {
    try {
      return s.repos.workflows.write({
        agencyId: caller.agencyId,
        campaignId: t.campaign.id,
        expectedVersion,
        keyId: caller.keyId,
        apply: (current) => {
          const { graph, summary } = op(current);
          return { graph, summary: summary ?? describeChange(current, graph) };
        },
      });
    } catch (err) {
      throw asAppError(err);
    }
  }

  /** `gated: false` accepts an outcome the agent can no longer emit (clearing its entry cleans the graph up). */
  const outcomeOf = (t: WorkflowTarget, raw: string, gated = true): Disposition => {
    const outcome = normalizeOutcome(raw);
    if (!outcome) throw new AppError('VALIDATION', `params.outcome "${raw}" is not a known outcome; use VOICEMAIL, SUCCESS, CALLBACK, NO_ACTION, TRANSFER or RESCHEDULE (any case) or a dashboard label`);
    if (!gated) return outcome;
    const emittable = emittableOutcomes(t.agent.capabilities);
    if (!emittable.includes(outcome)) {
      throw new AppError('VALIDATION', `agent ${t.agent.id} can never end a call in ${outcome} (its capabilities allow ${emittable.join(', ')}); install the capability first`);
    }
    return outcome;
  };

  const answer = (t: WorkflowTarget, stored: ReturnType<typeof s.repos.workflows.get>) => ({
    success: true,
    data: { ...presentWorkflow(t, stored), warnings: warningsFor(t, stored) },
  });

  return [
    defineRoute({
      ...common, method: 'get', path: base, operationId: op('getWorkflow'),
      summary: "Read a campaign's post-call workflow graph, with its warnings",
      access: readAccess, params: paramsSchema(scope), query: TargetQuery,
      responses: { 200: { description: 'the workflow', schema: WorkflowWithWarnings } },
      handler: ({ ctx, caller, params, query }) => {
        const t = target(caller, ctx, params as never, query as never);
        return answer(t, s.repos.workflows.get(caller.agencyId, t.campaign.id));
      },
    }),
    defineRoute({
      ...common, method: 'post', path: `${base}/outcomes/:outcome/nodes`, operationId: op('appendWorkflowNodes'),
      summary: "Append actions (or a router) to the end of an outcome's chain; ids, edges and layout are derived",
      access: writeAccess, params: paramsSchema(scope, { outcome: OutcomeSpelling }), query: TargetQuery, body: AppendNodesBody, documentedBody: DocumentedAppendNodesBody, idempotent: true,
      responses: { 200: { description: 'stored; `warnings` name what will not act as expected', schema: AppendResponse } },
      handler: ({ ctx, caller, params, query, body }) => {
        const t = target(caller, ctx, params as never, query as never);
        const outcome = outcomeOf(t, (params as { outcome: string }).outcome);
        const stored = write(caller, t, body.expectedVersion, (g) => ({
          graph: appendNodes(g, outcome, body.nodes as never),
          summary: `appended ${body.nodes.length} node${body.nodes.length === 1 ? '' : 's'} to ${outcome}`,
        }));
        return { success: true, workflow: presentWorkflow(t, stored), warnings: warningsFor(t, stored) };
      },
    }),
    defineRoute({
      ...common, method: 'put', path: base, operationId: op('replaceWorkflow'),
      summary: 'Replace the whole graph: re-wire, position, build an if, save a draft, copy or restore',
      access: writeAccess, params: paramsSchema(scope), query: TargetQuery, body: PutWorkflowBody, documentedBody: DocumentedPutWorkflowBody,
      responses: { 200: { description: 'the stored workflow', schema: WorkflowWithWarnings } },
      handler: ({ ctx, caller, params, query, body }) => {
        const t = target(caller, ctx, params as never, query as never);
        // prepareGraph validates, copies to the stored shape and places nodes sent without a position.
        const stored = write(caller, t, body.expectedVersion, () => ({ graph: prepareGraph(body as never) }));
        return answer(t, stored);
      },
    }),
    defineRoute({
      ...common, method: 'patch', path: base, operationId: op('patchWorkflow'),
      summary: 'Merge messages, tags and settings into existing nodes (no graph change)',
      access: writeAccess, params: paramsSchema(scope), query: TargetQuery, body: PatchWorkflowBody, documentedBody: DocumentedPatchWorkflowBody,
      responses: { 200: { description: 'the stored workflow', schema: WorkflowWithWarnings } },
      handler: ({ ctx, caller, params, query, body }) => {
        const t = target(caller, ctx, params as never, query as never);
        const stored = write(caller, t, body.expectedVersion, (g) => ({ graph: patchNodes(g, body.nodes as never) }));
        return answer(t, stored);
      },
    }),
    defineRoute({
      ...common, method: 'delete', path: `${base}/nodes/:nodeId`, operationId: op('deleteWorkflowNode'),
      summary: 'Remove one step and re-link the chain around it',
      access: writeAccess, params: paramsSchema(scope, { nodeId: Id }),
      query: { type: 'object', properties: { ...TargetQuery.properties, expectedVersion: { type: 'integer', minimum: 0 } } },
      responses: { 200: { description: 'the stored workflow', schema: WorkflowWithWarnings } },
      handler: ({ ctx, caller, params, query }) => {
        const t = target(caller, ctx, params as never, query as never);
        const nodeId = (params as { nodeId: string }).nodeId;
        const stored = write(caller, t, (query as { expectedVersion?: number }).expectedVersion, (g) => ({ graph: deleteNode(g, nodeId), summary: `deleted ${nodeId}` }));
        return answer(t, stored);
      },
    }),
    defineRoute({
      ...common, method: 'put', path: `${base}/outcomes/:outcome/entry`, operationId: op('switchWorkflowOutcome'),
      summary: "Point an outcome's entry at another existing node (or clear it with null)",
      access: writeAccess, params: paramsSchema(scope, { outcome: OutcomeSpelling }), query: TargetQuery, body: SwitchOutcomeBody,
      responses: { 200: { description: 'the stored workflow', schema: WorkflowWithWarnings } },
      handler: ({ ctx, caller, params, query, body }) => {
        const t = target(caller, ctx, params as never, query as never);
        const outcome = outcomeOf(t, (params as { outcome: string }).outcome, body.nodeId != null);
        const stored = write(caller, t, body.expectedVersion, (g) => ({
          graph: switchOutcome(g, outcome, body.nodeId ?? null),
          summary: body.nodeId ? `${outcome} now starts at ${body.nodeId}` : `${outcome} cleared`,
        }));
        return answer(t, stored);
      },
    }),
    defineRoute({
      ...common, method: 'get', path: `${base}/digest`, operationId: op('getWorkflowDigest'),
      summary: 'Plain-text summary of what fires per outcome',
      access: readAccess, params: paramsSchema(scope), query: TargetQuery,
      responses: { 200: { description: 'the digest', contentType: 'text/plain', schema: { type: 'string' } } },
      handler: ({ ctx, caller, params, query }) => {
        const t = target(caller, ctx, params as never, query as never);
        const stored = s.repos.workflows.get(caller.agencyId, t.campaign.id);
        ctx.type = 'text/plain; charset=utf-8';
        return digestGraph(stored.graph, { outcomes: emittableOutcomes(t.agent.capabilities) });
      },
    }),
    defineRoute({
      ...common, method: 'get', path: `${base}/versions`, operationId: op('listWorkflowVersions'),
      summary: 'Every stored version, newest first: time, API key id and a summary of the change',
      access: readAccess, params: paramsSchema(scope), query: TargetQuery,
      responses: { 200: { description: 'versions', schema: ok({ type: 'array', items: VersionSummary }) } },
      handler: ({ ctx, caller, params, query }) => {
        const t = target(caller, ctx, params as never, query as never);
        return { success: true, data: s.repos.workflows.versions(caller.agencyId, t.campaign.id) };
      },
    }),
    defineRoute({
      ...common, method: 'get', path: `${base}/versions/:version`, operationId: op('getWorkflowVersion'),
      summary: 'One stored version of the graph (restore it by PUTting it back)',
      access: readAccess, params: paramsSchema(scope, { version: { type: 'integer', minimum: 1 } }), query: TargetQuery,
      responses: { 200: { description: 'that version', schema: ok(Workflow) } },
      handler: ({ ctx, caller, params, query }) => {
        const t = target(caller, ctx, params as never, query as never);
        const n = (params as unknown as { version: number }).version;
        const v = s.repos.workflows.version(caller.agencyId, t.campaign.id, n);
        if (!v) throw notFound(`version ${n} of this workflow not found`);
        return { success: true, data: presentWorkflow(t, v) };
      },
    }),
  ];
}
