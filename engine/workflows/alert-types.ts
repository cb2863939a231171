/** Names shared by the alert workflow, the worker and the dispatcher: written once, here. */
export const ALERT_WORKFLOW = 'alertWorkflow';
export const alertWorkflowId = (agencyId: string, alertId: string) => `alert:${agencyId}:${alertId}`;

export interface AlertInput {
  agencyId: string;
  alertId: string;
}

/** How one channel of an alert ended. */
export type AlertChannelResult = 'delivered' | 'not-configured' | 'gave-up';

export interface AlertResult {
  webhook: AlertChannelResult;
  email: AlertChannelResult;
}

/** The activities the alert workflow runs (server/alerts/activities.ts implements them). */
export interface AlertActivities {
  /** POSTs the alert, signed, to the agency's alert URL; throws (and is retried) until it answers 2xx */
  deliverAlertWebhook(input: AlertInput): Promise<'delivered' | 'not-configured'>;
  /** sends the alert email to the agency's alert address */
  emailAlert(input: AlertInput): Promise<'delivered' | 'not-configured'>;
}
