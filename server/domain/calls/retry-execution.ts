import { conflict, unavailable } from '../errors.js';
import type { Services } from '../../services.js';
import type { Execution } from '../../store/index.js';
import { newId } from '../../ids.js';

/** A failed run is retried at most once; a retry that failed in turn is retried itself. */
const alreadyRetried = (id: string, by: string) => conflict(`execution ${id} was already retried by ${by}; retry that run if it failed`, 'AlreadyRetried');

/**
 * Re-runs a failed run from its failed step on its pinned graph, as a new execution: claimed
 * atomically (of two concurrent retries one starts, the other is told), linked both ways, and with
 * effects keyed on the call's first run, so a step that took effect in any run is not repeated.
 */
export async function retryExecution(s: Services, agencyId: string, failed: Execution): Promise<Execution> {
  if (failed.status !== 'failed') throw conflict(`execution ${failed.id} is ${failed.status}; only a failed run can be retried`, 'NotFailed');
  if (failed.retriedBy) throw alreadyRetried(failed.id, failed.retriedBy);
  const failedStep = [...failed.steps].reverse().find((st) => st.status === 'failed');
  if (!failedStep) throw conflict(`execution ${failed.id} has no failed step to resume from`, 'NotFailed');
  const original = await s.store.runInputs.get(agencyId, failed.workflowId);
  if (!original) throw conflict(`the input of execution ${failed.id} is no longer stored`, 'RunInputGone');
  if (!s.temporal) throw unavailable('the workflow engine is not connected');
  const executionId = newId('exe');
  const effectScope = original.effectScope ?? (await s.store.executions.firstOfCall(agencyId, failed.callId))?.workflowId ?? failed.workflowId;
  const workflowId = `${effectScope}:retry:${executionId}`;
  const input = { ...original, executionId, startNodeId: failedStep.nodeId, retryOf: failed.id, effectScope };
  const claimed = await s.store.withTransaction(async (tx) => {
    if (!(await tx.executions.claimRetry(agencyId, failed.id, executionId))) return false;
    await tx.executions.create({ id: executionId, agencyId, workflowId, campaignId: failed.campaignId, agentId: failed.agentId, callId: failed.callId, outcome: failed.outcome, graphVersion: failed.graphVersion, retryOf: failed.id, kind: failed.kind });
    await tx.runInputs.put(agencyId, workflowId, input);
    return true;
  });
  if (!claimed) throw alreadyRetried(failed.id, (await s.store.executions.get(agencyId, failed.id))?.retriedBy ?? 'another request');
  try {
    await s.temporal.startPostCall(workflowId, input);
  } catch (err) {
    await s.store.executions.undoRetry(agencyId, failed.id, executionId);
    s.logger.error({ err, executionId: failed.id }, 'starting a retry failed');
    throw unavailable('the retry could not be started; the run is unchanged, retry shortly', 5);
  }
  return (await s.store.executions.get(agencyId, executionId))!;
}
