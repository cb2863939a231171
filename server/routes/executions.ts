import { AppError, notFound } from '../http/errors.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import type { Services } from '../services.js';
import type { Execution } from '../store/executions.js';
import { Id, ok } from '../../schemas/common.js';
import { Execution as ExecutionSchema } from '../../schemas/execution.js';
import { resolveTarget } from './workflow-target.js';
import { newId } from '../store/ids.js';

const anyRole = ['agency_admin', 'project_user'] as const;
const base = '/api/agent-builder/agents/:agentId/campaign/workflow/executions';
const AgentParams = { type: 'object', required: ['agentId'], properties: { agentId: Id } } as const;
const ExecParams = { type: 'object', required: ['agentId', 'executionId'], properties: { agentId: Id, executionId: Id } } as const;

/** The run in the Temporal Web UI (the UI opens the workflow id's latest run; each of our runs has its own id). */
export const temporalUrlOf = (uiUrl: string | null, namespace: string, workflowId: string) =>
  uiUrl ? `${uiUrl}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}` : null;

/** A failed run is retried at most once; a retry that failed in turn is retried itself. */
const alreadyRetried = (id: string, by: string) =>
  new AppError('CONFLICT', `execution ${id} was already retried by ${by}; retry that run if it failed`, { detailCode: 'AlreadyRetried' });

/** Execution history: per run the call, outcome, graph version, status and every step (spec 9: under `data`, camelCase). */
export function executionRoutes(s: Services): RouteDef[] {
  const present = (e: Execution) => ({ ...e, temporalUrl: temporalUrlOf(s.config.temporalUiUrl, s.config.temporalNamespace, e.workflowId) });
  const load = (agencyId: string, agentId: string, executionId: string) => {
    const e = s.repos.executions.get(agencyId, executionId);
    if (!e || e.agentId !== agentId) throw notFound(`execution ${executionId} not found`);
    return e;
  };
  return [
    defineRoute({
      method: 'get', path: base, operationId: 'listWorkflowExecutions', tag: 'Execution history',
      summary: "Recent post-call runs of the agent's workflows, newest first",
      access: { scope: 'workflows:read', roles: anyRole }, params: AgentParams,
      query: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 }, status: { enum: ['running', 'succeeded', 'failed'] } } },
      responses: { 200: { description: 'runs', schema: ok({ type: 'array', items: ExecutionSchema }) } },
      handler: ({ caller, params, query }) => {
        const t = resolveTarget(s, caller, params.agentId, {});
        const runs = s.repos.executions.listByAgent(caller.agencyId, t.agent.id, query.limit ?? 25).filter((e) => !query.status || e.status === query.status);
        return { success: true, data: runs.map(present) };
      },
    }),
    defineRoute({
      method: 'get', path: `${base}/:executionId`, operationId: 'getWorkflowExecution', tag: 'Execution history',
      summary: 'One run with each step: node, status, attempts, input, output, error, timings',
      access: { scope: 'workflows:read', roles: anyRole }, params: ExecParams,
      responses: { 200: { description: 'the run', schema: ok(ExecutionSchema) } },
      handler: ({ caller, params }) => {
        resolveTarget(s, caller, params.agentId, {});
        return { success: true, data: present(load(caller.agencyId, params.agentId, params.executionId)) };
      },
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
      handler: async ({ ctx, caller, params }) => {
        resolveTarget(s, caller, params.agentId, {});
        const failed = load(caller.agencyId, params.agentId, params.executionId);
        if (failed.status !== 'failed') throw new AppError('CONFLICT', `execution ${failed.id} is ${failed.status}; only a failed run can be retried`, { detailCode: 'NotFailed' });
        if (failed.retriedBy) throw alreadyRetried(failed.id, failed.retriedBy);
        const failedStep = [...failed.steps].reverse().find((st) => st.status === 'failed');
        if (!failedStep) throw new AppError('CONFLICT', `execution ${failed.id} has no failed step to resume from`, { detailCode: 'NotFailed' });
        const original = s.repos.runInputs.get(caller.agencyId, failed.workflowId);
        if (!original) throw new AppError('CONFLICT', `the input of execution ${failed.id} is no longer stored`, { detailCode: 'RunInputGone' });
        if (!s.temporal) throw new AppError('UNAVAILABLE', 'the workflow engine is not connected');
        const executionId = newId('exe');
        // Effects key on the call's first run (effectScope), whatever run reaches a node: a node that
        // took effect in any run of this call returns its recorded result instead of acting again.
        const effectScope = original.effectScope ?? s.repos.executions.firstOfCall(caller.agencyId, failed.callId)?.workflowId ?? failed.workflowId;
        const workflowId = `${effectScope}:retry:${executionId}`;
        const input = { ...original, executionId, startNodeId: failedStep.nodeId, retryOf: failed.id, effectScope };
        const claimed = s.db.transaction(() => {
          // One retry per failed run: of two concurrent requests, exactly one claims it.
          if (!s.repos.executions.claimRetry(caller.agencyId, failed.id, executionId)) return false;
          s.repos.executions.create({ id: executionId, agencyId: caller.agencyId, workflowId, campaignId: failed.campaignId, agentId: failed.agentId, callId: failed.callId, outcome: failed.outcome, graphVersion: failed.graphVersion, retryOf: failed.id });
          s.repos.runInputs.put(caller.agencyId, workflowId, input);
          return true;
        }).immediate();
        if (!claimed) throw alreadyRetried(failed.id, s.repos.executions.get(caller.agencyId, failed.id)?.retriedBy ?? 'another request');
        try {
          await s.temporal.startPostCall(workflowId, input);
        } catch (err) {
          s.repos.executions.undoRetry(caller.agencyId, failed.id, executionId);
          s.logger.error({ err, executionId: failed.id }, 'starting a retry failed');
          throw new AppError('UNAVAILABLE', 'the retry could not be started; the run is unchanged, retry shortly', { headers: { 'Retry-After': '5' } });
        }
        ctx.status = 202;
        return { success: true, data: present(s.repos.executions.get(caller.agencyId, executionId)!) };
      },
    }),
  ];
}
