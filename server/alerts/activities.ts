import type { Messaging } from '../../engine/ports.js';
import type { AlertActivities, AlertInput } from '../../engine/workflows/alert-types.js';
import type { Config } from '../config.js';
import type { Alert, Store } from '../store/index.js';
import { signPayload, AGENCY_HEADER, SIGNATURE_HEADER } from '../domain/event-signature.js';
import { editorLink, runLink } from './links.js';
import { OutboundRefusedError, type Outbound } from '../outbound/guarded-client.js';

/** The alert as the agency receives it: what happened, where, and a link to open it. */
export function alertBody(config: Config, a: Alert) {
  const p = a.payload as Record<string, string | undefined>;
  const link =
    a.kind === 'run.failed' && p.agentId && p.campaignId && p.executionId
      ? runLink(config, { agentId: p.agentId, campaignId: p.campaignId, executionId: p.executionId })
      : editorLink(config, `/projects/${encodeURIComponent(p.locationId ?? '')}`);
  return { id: a.id, type: a.kind, agencyId: a.agencyId, occurredAt: a.createdAt, ...a.payload, link };
}

function subjectOf(a: Alert): string {
  const p = a.payload as Record<string, string | undefined>;
  return a.kind === 'run.failed'
    ? `A post-call run failed (${p.outcome ?? 'call'} ${p.callId ?? ''})`.trim()
    : `Project ${p.businessName ?? p.locationId ?? ''} is disconnected from its CRM`;
}

/**
 * The alert workflow's activities: the signed webhook (our own signature scheme, with the agency's
 * signing secret, so receivers verify alerts as we verify events) and the email, through the
 * sandbox carrier. Every attempt is recorded on the alert row. The webhook's URL is the tenant's,
 * so it goes out only through the guarded client, which checks the address on every delivery.
 */
export function createAlertActivities(deps: { config: Config; store: Store; email: Messaging; outbound: Outbound }): AlertActivities {
  const load = async (i: AlertInput) => {
    const alert = await deps.store.alerts.get(i.agencyId, i.alertId);
    if (!alert) throw new Error(`alert ${i.alertId} of ${i.agencyId} is not stored`);
    return alert;
  };
  return {
    async deliverAlertWebhook(i) {
      const alert = await load(i);
      const url = (await deps.store.agencies.settings(i.agencyId)).alertWebhookUrl;
      if (!url) return 'not-configured';
      const raw = JSON.stringify(alertBody(deps.config, alert));
      const secret = (await deps.store.agencies.get(i.agencyId))!.signingSecret;
      let failure: string;
      try {
        const res = await deps.outbound.post(url, {
          headers: { 'content-type': 'application/json', [AGENCY_HEADER]: i.agencyId, [SIGNATURE_HEADER]: signPayload(secret, raw), 'X-Alert-Id': alert.id },
          body: raw,
        });
        if (res.status >= 200 && res.status < 300) {
          await deps.store.alerts.markDelivered(i.agencyId, i.alertId);
          return 'delivered';
        }
        failure = `the alert URL answered ${res.status}`;
      } catch (err) {
        // Both reasons are classes ("private address", "connection refused"): nothing of the network behind.
        failure = err instanceof OutboundRefusedError ? `the alert URL was refused: ${err.reason}` : `the alert URL could not be reached: ${(err as Error).message}`;
      }
      await deps.store.alerts.noteFailedAttempt(i.agencyId, i.alertId, failure);
      throw new Error(failure);
    },
    async emailAlert(i) {
      const alert = await load(i);
      const to = (await deps.store.agencies.settings(i.agencyId)).alertEmail;
      if (!to) return 'not-configured';
      const body = alertBody(deps.config, alert);
      await deps.email.sendEmail(
        { agencyId: i.agencyId, locationId: 'agency', idempotencyKey: `alert:${alert.id}:email` },
        { contactId: '', to, subject: subjectOf(alert), body: `${subjectOf(alert)}.\n\n${JSON.stringify(alert.payload, null, 2)}\n\nOpen it: ${body.link}` },
      );
      await deps.store.alerts.markEmailed(i.agencyId, i.alertId);
      return 'delivered';
    },
  };
}
