import type { ExecutionLog } from '../../engine/ports.js';
import type { ExecutionsRepo } from '../store/executions.js';

/** Execution history lives in the product's own store, written by the worker's activities. */
export function storeExecutionLog(executions: ExecutionsRepo): ExecutionLog {
  return {
    async stepStarted(s) {
      executions.stepStarted(s);
    },
    async stepFinished(s) {
      executions.stepFinished(s);
    },
    async executionFinished(e) {
      executions.finish(e.executionId, e.status, e.error ?? null);
    },
  };
}
