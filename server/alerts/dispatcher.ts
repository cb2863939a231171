import type { Logger } from 'pino';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { ALERT_WORKFLOW, alertWorkflowId, type AlertInput } from '../../engine/workflows/alert-types.js';
import type { Store } from '../store/index.js';
import type { WorkflowStarter } from '../temporal/client.js';
import { alertNudges } from './nudge.js';

/**
 * Starts the delivery workflow of each recorded alert, once (REJECT_DUPLICATE on its id): at once
 * when this process recorded it, else within `intervalMs`. A start that fails (Temporal down) is
 * tried again at the next poll; the alert row stays until its workflow exists.
 */
export function startAlertDispatcher(opts: { store: Store; temporal: WorkflowStarter; taskQueue: string; logger: Logger; intervalMs?: number }) {
  let running = false;
  let again = false;
  const dispatch = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        for (const alert of await opts.store.alerts.waiting()) {
          const input: AlertInput = { agencyId: alert.agencyId, alertId: alert.id };
          try {
            await opts.temporal.client.workflow.start(ALERT_WORKFLOW, { workflowId: alertWorkflowId(alert.agencyId, alert.id), taskQueue: opts.taskQueue, args: [input], workflowIdReusePolicy: 'REJECT_DUPLICATE' });
          } catch (err) {
            if (!(err instanceof WorkflowExecutionAlreadyStartedError)) {
              opts.logger.warn({ err, alertId: alert.id }, 'starting an alert delivery failed; will try again');
              continue;
            }
          }
          await opts.store.alerts.markDispatched(alert.agencyId, alert.id);
        }
      } while (again);
    } finally {
      running = false;
    }
  };
  const onNudge = () => void dispatch();
  alertNudges.on('alert', onNudge);
  const timer = setInterval(onNudge, opts.intervalMs ?? 1000);
  timer.unref();
  void dispatch();
  return {
    stop() {
      clearInterval(timer);
      alertNudges.off('alert', onNudge);
    },
  };
}
