import { defineRoute, type RouteDef } from '../http/route.js';
import type { Services } from '../services.js';
import type { Execution } from '../store/index.js';
import { Id, ok } from '../../schemas/common.js';
import { Execution as ExecutionSchema } from '../../schemas/execution.js';
import { getExecution, listExecutions, retryRun } from '../domain/executions.js';

const anyRole = ['agency_admin', 'project_user'] as const;
const base = '/api/agent-builder/agents/:agentId/campaign/workflow/executions';
const AgentParams = { type: 'object', required: ['agentId'], properties: { agentId: Id } } as const;
const ExecParams = { type: 'object', required: ['agentId', 'executionId'], properties: { agentId: Id, executionId: Id } } as const;

/** The run in the Temporal Web UI (the UI opens the workflow id's latest run; each of our runs has its own id). */
export const temporalUrlOf = (uiUrl: string | null, namespace: string, workflowId: string) =>
  uiUrl ? `${uiUrl}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}` : null;

/** Execution history: per run the call, outcome, graph version, status and every step (spec 9: under `data`, camelCase). */
export function executionRoutes(s: Services): RouteDef[] {
  const present = (e: Execution) => ({ ...e, temporalUrl: temporalUrlOf(s.config.temporalUiUrl, s.config.temporalNamespace, e.workflowId) });
  return [
    defineRoute({
      method: 'get', path: base, operationId: 'listWorkflowExecutions', tag: 'Execution history',
      summary: "Recent post-call runs of the agent's workflows, newest first",
      access: { scope: 'workflows:read', roles: anyRole }, params: AgentParams,
      query: {
        type: 'object',
        properties: {
          limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
          status: { enum: ['running', 'succeeded', 'failed'] },
          kind: { enum: ['run', 'test'], default: 'run', description: '`test`: the test runs (sandbox only) instead of the real ones' },
        },
      },
      responses: { 200: { description: 'runs', schema: ok({ type: 'array', items: ExecutionSchema }) } },
      handler: async ({ caller, params, query, services }) => ({ success: true, data: (await listExecutions(services.store, caller, params.agentId, query)).map(present) }),
    }),
    defineRoute({
      method: 'get', path: `${base}/:executionId`, operationId: 'getWorkflowExecution', tag: 'Execution history',
      summary: 'One run with each step: node, status, attempts, input, output, error, timings',
      access: { scope: 'workflows:read', roles: anyRole }, params: ExecParams,
      responses: { 200: { description: 'the run', schema: ok(ExecutionSchema) } },
      handler: async ({ caller, params, services }) => ({ success: true, data: present(await getExecution(services.store, caller, params.agentId, params.executionId)) }),
    }),
    defineRoute({
      method: 'post', path: `${base}/:executionId/retry`, operationId: 'retryWorkflowExecution', tag: 'Execution history',
      summary: 'Re-run a failed run from its failed step, on the same pinned graph version',
      description:
        'A failed run is retried at most once (409 `AlreadyRetried` names its retry; retry that one if it failed in turn), ' +
        'and two concurrent retries of one run start one run. Effects are keyed per call and step, not per run, so a step ' +
        'that took effect in any run of the call is not repeated.',
      access: { scope: 'workflows:write', roles: ['agency_admin'] }, params: ExecParams,
      responses: { 202: { description: 'the new run', schema: ok(ExecutionSchema) } },
      handler: async ({ ctx, caller, params, services }) => {
        const retry = await retryRun(services, caller, params.agentId, params.executionId);
        ctx.status = 202;
        return { success: true, data: present(retry) };
      },
    }),
  ];
}
