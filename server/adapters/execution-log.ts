import type { ExecutionLog } from '../../engine/ports.js';
import type { AlertsRepo } from '../store/alerts.js';
import type { Db } from '../store/db.js';
import type { ExecutionsRepo } from '../store/executions.js';

/**
 * Execution history lives in the product's own store, written by the worker's activities. A real
 * run that ends failed (after its retries) records an alert for the agency in the same
 * transaction, once, however often the finishing step is retried.
 */
export function storeExecutionLog(db: Db, executions: ExecutionsRepo, alerts: AlertsRepo, onAlert: () => void = () => {}): ExecutionLog {
  const finish = db.transaction((executionId: string, status: 'succeeded' | 'failed', error: string | null): boolean => {
    // Only a failure can raise an alert, so only a failure reads the execution (with its steps).
    const before = status === 'failed' ? executions.byIdAnyAgency(executionId) : undefined;
    executions.finish(executionId, status, error);
    if (!before || before.status === 'failed' || before.kind !== 'run') return false;
    const failed = [...before.steps].reverse().find((s) => s.status === 'failed');
    alerts.record(before.agencyId, 'run.failed', {
      executionId,
      agentId: before.agentId,
      campaignId: before.campaignId,
      callId: before.callId,
      outcome: before.outcome,
      error,
      ...(failed && { failedStep: { nodeId: failed.nodeId, nodeType: failed.nodeType } }),
    });
    return true;
  });
  return {
    async stepStarted(s) {
      executions.stepStarted(s);
    },
    async stepFinished(s) {
      executions.stepFinished(s);
    },
    async executionFinished(e) {
      if (finish.immediate(e.executionId, e.status, e.error ?? null)) onAlert();
    },
  };
}
