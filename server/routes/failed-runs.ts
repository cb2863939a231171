import { AppError } from '../http/errors.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import type { Services } from '../services.js';
import { canAccessProject } from '../http/request-context.js';
import { ok } from '../../schemas/common.js';
import { Execution as ExecutionSchema } from '../../schemas/execution.js';
import { retryExecution } from '../calls/retry-execution.js';
import { runLink } from '../alerts/links.js';

const FailedRun = {
  ...ExecutionSchema,
  properties: {
    ...ExecutionSchema.properties,
    agentName: { type: 'string' },
    campaignName: { type: 'string' },
    locationId: { type: 'string' },
    link: { type: 'string', description: 'the run in the editor' },
  },
} as const;

const RetryResult = {
  type: 'object',
  required: ['executionId', 'status'],
  properties: {
    executionId: { type: 'string' },
    status: { type: 'integer', description: '202 started, or the error status for this one' },
    retry: ExecutionSchema,
    error: { type: 'string' },
    code: { type: 'string' },
  },
} as const;

/**
 * Every failed post-call run of the agency (not yet retried), across campaigns, and bulk retry
 * from each one's failed step: the view an agency opens after a failure alert.
 */
export function failedRunRoutes(s: Services): RouteDef[] {
  return [
    defineRoute({
      method: 'get', path: '/api/agent-builder/failed-runs', operationId: 'listFailedRuns', tag: 'Execution history',
      summary: 'Failed post-call runs across all campaigns, newest first (runs already retried are left out)',
      access: { scope: 'workflows:read', roles: ['agency_admin', 'project_user'] },
      query: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 } } },
      responses: { 200: { description: 'failed runs', schema: ok({ type: 'array', items: FailedRun }) } },
      handler: ({ caller, query }) => {
        const projects = caller.projectIds ? [...caller.projectIds] : null;
        const runs = s.repos.executions.listFailed(caller.agencyId, projects, query.limit ?? 50);
        return {
          success: true,
          data: runs.map((e) => {
            const agent = s.repos.agents.get(caller.agencyId, e.agentId);
            const campaign = s.repos.campaigns.get(caller.agencyId, e.campaignId);
            return { ...e, agentName: agent?.name ?? '', campaignName: campaign?.name ?? '', locationId: agent?.locationId ?? '', link: runLink(s.config, { agentId: e.agentId, campaignId: e.campaignId, executionId: e.id }) };
          }),
        };
      },
    }),
    defineRoute({
      method: 'post', path: '/api/agent-builder/failed-runs/retry', operationId: 'retryFailedRuns', tag: 'Execution history',
      summary: 'Retry many failed runs from their failed steps; one result per run (a run already retried is reported, not retried twice)',
      access: { scope: 'workflows:write', roles: ['agency_admin'] },
      body: {
        type: 'object',
        required: ['executionIds'],
        additionalProperties: false,
        properties: { executionIds: { type: 'array', minItems: 1, maxItems: 100, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 200 } } },
      },
      responses: { 200: { description: 'a result per run', schema: ok({ type: 'array', items: RetryResult }) } },
      handler: async ({ caller, body }) => {
        const results = [];
        for (const id of body.executionIds) {
          const failed = s.repos.executions.get(caller.agencyId, id);
          const campaign = failed && s.repos.campaigns.get(caller.agencyId, failed.campaignId);
          if (!failed || !campaign || !canAccessProject(caller, campaign.projectId) || failed.kind !== 'run') {
            results.push({ executionId: id, status: 404, error: `execution ${id} not found` });
            continue;
          }
          try {
            results.push({ executionId: id, status: 202, retry: await retryExecution(s, caller.agencyId, failed) });
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            results.push({ executionId: id, status: err.status, error: err.message, ...(err.detailCode && { code: err.detailCode }) });
          }
        }
        return { success: true, data: results };
      },
    }),
  ];
}
