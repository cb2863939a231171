import { AppError } from '../http/errors.js';
import type { Services } from '../services.js';
import type { Execution } from '../store/executions.js';
import { newId } from '../store/ids.js';

/** A failed run is retried at most once; a retry that failed in turn is retried itself. */
const alreadyRetried = (id: string, by: string) =>
  new AppError('CONFLICT', `execution ${id} was already retried by ${by}; retry that run if it failed`, { detailCode: 'AlreadyRetried' });

/**
 * Re-runs a failed run from its failed step on its pinned graph, as a new execution: claimed
 * atomically (of two concurrent retries one starts, the other is told), linked both ways, and with
 * effects keyed on the call's first run, so a step that took effect in any run is not repeated.
 */
export async function retryExecution(s: Services, agencyId: string, failed: Execution): Promise<Execution> {
  if (failed.status !== 'failed') throw new AppError('CONFLICT', `execution ${failed.id} is ${failed.status}; only a failed run can be retried`, { detailCode: 'NotFailed' });
  if (failed.retriedBy) throw alreadyRetried(failed.id, failed.retriedBy);
  const failedStep = [...failed.steps].reverse().find((st) => st.status === 'failed');
  if (!failedStep) throw new AppError('CONFLICT', `execution ${failed.id} has no failed step to resume from`, { detailCode: 'NotFailed' });
  const original = s.repos.runInputs.get(agencyId, failed.workflowId);
  if (!original) throw new AppError('CONFLICT', `the input of execution ${failed.id} is no longer stored`, { detailCode: 'RunInputGone' });
  if (!s.temporal) throw new AppError('UNAVAILABLE', 'the workflow engine is not connected');
  const executionId = newId('exe');
  const effectScope = original.effectScope ?? s.repos.executions.firstOfCall(agencyId, failed.callId)?.workflowId ?? failed.workflowId;
  const workflowId = `${effectScope}:retry:${executionId}`;
  const input = { ...original, executionId, startNodeId: failedStep.nodeId, retryOf: failed.id, effectScope };
  const claimed = s.db.transaction(() => {
    if (!s.repos.executions.claimRetry(agencyId, failed.id, executionId)) return false;
    s.repos.executions.create({ id: executionId, agencyId, workflowId, campaignId: failed.campaignId, agentId: failed.agentId, callId: failed.callId, outcome: failed.outcome, graphVersion: failed.graphVersion, retryOf: failed.id, kind: failed.kind });
    s.repos.runInputs.put(agencyId, workflowId, input);
    return true;
  }).immediate();
  if (!claimed) throw alreadyRetried(failed.id, s.repos.executions.get(agencyId, failed.id)?.retriedBy ?? 'another request');
  try {
    await s.temporal.startPostCall(workflowId, input);
  } catch (err) {
    s.repos.executions.undoRetry(agencyId, failed.id, executionId);
    s.logger.error({ err, executionId: failed.id }, 'starting a retry failed');
    throw new AppError('UNAVAILABLE', 'the retry could not be started; the run is unchanged, retry shortly', { headers: { 'Retry-After': '5' } });
  }
  return s.repos.executions.get(agencyId, executionId)!;
}
