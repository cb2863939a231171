import type { ExecutionLog } from '../../engine/ports.js';
import type { Store } from '../store/index.js';

/**
 * Execution history lives in the product's own store, written by the worker's activities. A real
 * run that ends failed (after its retries) records an alert for the agency in the same
 * transaction, once, however often the finishing step is retried.
 */
export function storeExecutionLog(store: Store, onAlert: () => void = () => {}): ExecutionLog {
  return {
    stepStarted: (s) => store.executions.stepStarted(s),
    stepFinished: (s) => store.executions.stepFinished(s),
    async executionFinished(e) {
      const alerted = await store.withTransaction(async (tx) => {
        const error = e.error ?? null;
        // Only a failure can raise an alert, so only a failure reads the execution (with its steps).
        // Locked until commit: a finish racing this one (a retried activity) reads what this one wrote.
        const before = e.status === 'failed' ? await tx.executions.byIdAnyAgency(e.executionId, { forUpdate: true }) : undefined;
        await tx.executions.finish(e.executionId, e.status, error);
        if (!before || before.status === 'failed' || before.kind !== 'run') return false;
        const failed = [...before.steps].reverse().find((s) => s.status === 'failed');
        await tx.alerts.record(before.agencyId, 'run.failed', {
          executionId: e.executionId,
          agentId: before.agentId,
          campaignId: before.campaignId,
          callId: before.callId,
          outcome: before.outcome,
          error,
          ...(failed && { failedStep: { nodeId: failed.nodeId, nodeType: failed.nodeType } }),
        });
        return true;
      });
      if (alerted) onAlert();
    },
  };
}
