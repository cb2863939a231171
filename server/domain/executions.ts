import type { Services } from '../services.js';
import type { Execution, Store } from '../store/index.js';
import { canAccessProject, type Actor } from './actor.js';
import { DomainError, notFound } from './errors.js';
import { retryExecution } from './calls/retry-execution.js';
import { resolveTarget } from './workflows.js';

async function loadExecution(store: Store, actor: Actor, agentId: string, executionId: string): Promise<Execution> {
  await resolveTarget(store, actor, agentId, {});
  const e = await store.executions.get(actor.agencyId, executionId);
  if (!e || e.agentId !== agentId) throw notFound(`execution ${executionId} not found`);
  return e;
}

/** Recent runs of the agent's workflows, newest first (`test`: its test runs instead). */
export async function listExecutions(store: Store, actor: Actor, agentId: string, q: { limit?: number; status?: string; kind?: 'run' | 'test' }): Promise<Execution[]> {
  const t = await resolveTarget(store, actor, agentId, {});
  const runs = await store.executions.listByAgent(actor.agencyId, t.agent.id, q.limit ?? 25, q.kind ?? 'run');
  return runs.filter((e) => !q.status || e.status === q.status);
}

export const getExecution = (store: Store, actor: Actor, agentId: string, executionId: string) => loadExecution(store, actor, agentId, executionId);

/** Re-runs a failed run from its failed step, on its pinned graph. */
export async function retryRun(s: Services, actor: Actor, agentId: string, executionId: string): Promise<Execution> {
  return retryExecution(s, actor.agencyId, await loadExecution(s.store, actor, agentId, executionId));
}

export interface FailedRun {
  execution: Execution;
  agentName: string;
  campaignName: string;
  locationId: string;
}

/** Failed real runs not yet retried, across the campaigns the actor may see, newest first. */
export async function listFailedRuns(store: Store, actor: Actor, limit: number): Promise<FailedRun[]> {
  const runs = await store.executions.listFailed(actor.agencyId, actor.projectIds ? [...actor.projectIds] : null, limit);
  return Promise.all(
    runs.map(async (e) => {
      const agent = await store.agents.get(actor.agencyId, e.agentId);
      const campaign = await store.campaigns.get(actor.agencyId, e.campaignId);
      return { execution: e, agentName: agent?.name ?? '', campaignName: campaign?.name ?? '', locationId: agent?.locationId ?? '' };
    }),
  );
}

/** Per run: its retry, or why not (a run already retried is reported, not retried twice). */
export type RetryOutcome = { executionId: string; retry: Execution } | { executionId: string; refused: DomainError };

export async function retryMany(s: Services, actor: Actor, executionIds: readonly string[]): Promise<RetryOutcome[]> {
  const results: RetryOutcome[] = [];
  for (const id of executionIds) {
    const failed = await s.store.executions.get(actor.agencyId, id);
    const campaign = failed && (await s.store.campaigns.get(actor.agencyId, failed.campaignId));
    if (!failed || !campaign || !canAccessProject(actor, campaign.projectId) || failed.kind !== 'run') {
      results.push({ executionId: id, refused: notFound(`execution ${id} not found`) });
      continue;
    }
    try {
      results.push({ executionId: id, retry: await retryExecution(s, actor.agencyId, failed) });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      results.push({ executionId: id, refused: err });
    }
  }
  return results;
}
