import { statusOf } from '../http/errors.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import type { Services } from '../services.js';
import { ok } from '../../schemas/common.js';
import { Execution as ExecutionSchema } from '../../schemas/execution.js';
import { listFailedRuns, retryMany } from '../domain/executions.js';
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
      handler: async ({ caller, query, services }) => ({
        success: true,
        data: (await listFailedRuns(services.store, caller, query.limit ?? 50)).map(({ execution: e, ...names }) => ({
          ...e,
          ...names,
          link: runLink(s.config, { agentId: e.agentId, campaignId: e.campaignId, executionId: e.id }),
        })),
      }),
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
      handler: async ({ caller, body, services }) => ({
        success: true,
        data: (await retryMany(services, caller, body.executionIds)).map((r) =>
          'retry' in r
            ? { executionId: r.executionId, status: 202, retry: r.retry }
            : { executionId: r.executionId, status: statusOf[r.refused.code], error: r.refused.message, ...(r.refused.detailCode && { code: r.refused.detailCode }) },
        ),
      }),
    }),
  ];
}
