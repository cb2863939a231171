import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
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
    // No attempt limit: the day-long schedule-to-close bounds the retries.
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
  });
  const settle = async (send: Promise<'delivered' | 'not-configured'>): Promise<AlertChannelResult> => {
    try {
      return await send;
    } catch (err) {
      // A day of refusals: recorded on the alert row by each attempt; anything else is a bug to surface.
      if (err instanceof ActivityFailure) return 'gave-up';
      throw err;
    }
  };
  const [webhook, email] = await Promise.all([settle(channels.deliverAlertWebhook(input)), settle(channels.emailAlert(input))]);
  return { webhook, email };
}
