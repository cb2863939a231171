import { proxyActivities } from '@temporalio/workflow';
import type { AlertActivities, AlertChannelResult, AlertInput, AlertResult } from './alert-types.js';

/**
 * Delivers one alert to the agency: a signed webhook and an email, each retried with backoff for
 * up to a day. Temporal keeps the retries going across worker restarts, so a receiver that is down
 * for a while, or a worker killed mid-retry, loses nothing.
 */
export async function alertWorkflow(input: AlertInput): Promise<AlertResult> {
  const channels = proxyActivities<AlertActivities>({
    startToCloseTimeout: '30 seconds',
    scheduleToCloseTimeout: '24 hours',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 0 },
  });
  const settle = async (send: Promise<'delivered' | 'not-configured'>): Promise<AlertChannelResult> => {
    try {
      return await send;
    } catch {
      return 'gave-up';
    }
  };
  const [webhook, email] = await Promise.all([settle(channels.deliverAlertWebhook(input)), settle(channels.emailAlert(input))]);
  return { webhook, email };
}
