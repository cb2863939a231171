import { defineRoute, type RouteDef } from '../http/route.js';
import type { Services } from '../services.js';
import { ok } from '../../schemas/common.js';
import {
  AgencySettingsSchema,
  AlertSchema,
  CredentialSummarySchema,
  SigningSecretAnswer,
  TwilioCredentialInput,
  UpdateAgencyBody,
  VapiCredentialAnswer,
  VapiCredentialInput,
} from '../../schemas/agency.js';
import { VENDOR_UNAVAILABLE } from '../http/vendor-unavailable.js';
import { SIGNATURE_SCHEME } from '../domain/event-signature.js';
import {
  agencyView,
  removeAgencyCredentials,
  revealSigningSecret,
  rotateSigningSecret,
  setTwilioCredentials,
  setVapiCredentials,
  updateAgencySettings,
} from '../domain/agency.js';

const read = { scope: 'agency:read', roles: ['agency_admin'] } as const;
const write = { scope: 'agency:write', roles: ['agency_admin'] } as const;
const secrets = { scope: 'webhooks:write', roles: ['agency_admin'] } as const;

/**
 * The agency's own settings and its agency-wide vendor credentials (Twilio, Vapi). A credential is
 * written, verified against the vendor and replaced or removed; it is never read back: answers
 * carry a summary (which provider, a hint such as the account's last digits, when it changed).
 */
export function agencyRoutes(_s: Services): RouteDef[] {
  return [
    defineRoute({
      method: 'get', path: '/api/agency', operationId: 'getAgency', tag: 'Agency',
      summary: "The caller's agency: plan, settings and which agency-wide vendor credentials are set (never their secrets)",
      access: read,
      responses: { 200: { description: 'the agency', schema: ok(AgencySettingsSchema) } },
      handler: async ({ caller, services }) => ({ success: true, data: await agencyView(services, caller.agencyId) }),
    }),
    defineRoute({
      method: 'patch', path: '/api/agency', operationId: 'updateAgency', tag: 'Agency',
      summary: "Change the agency's settings (the default SMS carrier of its projects)",
      access: write, body: UpdateAgencyBody,
      responses: { 200: { description: 'the agency', schema: ok(AgencySettingsSchema) } },
      handler: async ({ caller, body, services }) => {
        await updateAgencySettings(services, caller, body);
        return { success: true, data: await agencyView(services, caller.agencyId) };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/agency/alerts', operationId: 'listAlerts', tag: 'Agency',
      summary: 'Recent failure alerts (a run failed after its retries, a project was disconnected) and how their delivery went',
      access: read,
      query: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 } } },
      responses: { 200: { description: 'alerts, newest first', schema: ok({ type: 'array', items: AlertSchema }) } },
      handler: async ({ caller, query, services }) => ({
        success: true,
        data: (await services.store.alerts.list(caller.agencyId, query.limit ?? 50)).map(({ agencyId: _a, ...a }) => a),
      }),
    }),
    defineRoute({
      method: 'put', path: '/api/agency/credentials/twilio', operationId: 'putTwilioCredentials', tag: 'Agency',
      summary: "Set the agency's Twilio account (the SMS carrier of projects whose smsCarrier is twilio); verified with Twilio first",
      access: write, body: TwilioCredentialInput,
      responses: { 200: { description: 'stored (sealed); what may be shown of it', schema: ok(CredentialSummarySchema) }, 503: VENDOR_UNAVAILABLE },
      handler: async ({ caller, body, services }) => ({ success: true, data: await setTwilioCredentials(services, caller, body) }),
    }),
    defineRoute({
      method: 'put', path: '/api/agency/credentials/vapi', operationId: 'putVapiCredentials', tag: 'Agency',
      summary: "Set the agency's Vapi account: the API key the dialer places calls with, and the secret Vapi's server messages are verified with",
      description:
        'The API key is verified with Vapi first. Without `serverSecret` one is generated and shown once in the answer: give it to Vapi ' +
        '(an HMAC credential, or the legacy X-Vapi-Secret) together with `serverUrl`. Replacing a secret keeps the old one valid for ' +
        'WEBHOOK_SECRET_GRACE_SECONDS, so deliveries in flight still verify.',
      access: write, body: VapiCredentialInput,
      responses: { 200: { description: 'stored (sealed)', schema: ok(VapiCredentialAnswer) }, 503: VENDOR_UNAVAILABLE },
      handler: async ({ ctx, caller, body, services }) => {
        const { credential, secretKind, generated, previousUntil } = await setVapiCredentials(services, caller, body);
        return {
          success: true,
          data: {
            credential,
            serverUrl: `${services.config.publicUrl ?? `${ctx.protocol}://${ctx.host}`}/api/events/vapi/${encodeURIComponent(caller.agencyId)}`,
            secretKind,
            ...(generated && { serverSecret: generated }),
            ...(previousUntil && { previousSecretValidUntil: previousUntil }),
          },
        };
      },
    }),
    defineRoute({
      method: 'post', path: '/api/agency/signing-secret/reveal', operationId: 'revealSigningSecret', tag: 'Agency',
      summary: 'Show the webhook signing secret once (call and contact events are signed with it); afterwards rotate to get a new one',
      access: secrets,
      responses: { 200: { description: 'the secret, shown this once', schema: ok(SigningSecretAnswer) } },
      handler: async ({ caller, services }) => ({ success: true, data: { secret: await revealSigningSecret(services, caller), header: 'X-Signature', scheme: SIGNATURE_SCHEME } }),
    }),
    defineRoute({
      method: 'post', path: '/api/agency/signing-secret/rotate', operationId: 'rotateSigningSecret', tag: 'Agency',
      summary: 'Replace the webhook signing secret; the new one is shown once, the old one still verifies for a grace period',
      access: secrets,
      body: {
        type: 'object',
        additionalProperties: false,
        properties: { graceSeconds: { type: 'integer', minimum: 0, maximum: 2_592_000, description: 'how long the old secret still verifies (default WEBHOOK_SECRET_GRACE_SECONDS)' } },
      },
      responses: { 200: { description: 'the new secret, shown this once', schema: ok(SigningSecretAnswer) } },
      handler: async ({ caller, body, services }) => {
        const { secret, previousValidUntil } = await rotateSigningSecret(services, caller, body.graceSeconds);
        return { success: true, data: { secret, header: 'X-Signature', scheme: SIGNATURE_SCHEME, previousValidUntil } };
      },
    }),
    ...(['twilio', 'vapi'] as const).map((provider) =>
      defineRoute({
        method: 'delete', path: `/api/agency/credentials/${provider}`, operationId: provider === 'twilio' ? 'deleteTwilioCredentials' : 'deleteVapiCredentials', tag: 'Agency',
        summary: `Remove the agency's ${provider === 'twilio' ? 'Twilio' : 'Vapi'} credentials`,
        access: write,
        responses: { 200: { description: 'removed (false: there were none)', schema: ok({ type: 'object', required: ['provider', 'removed'], properties: { provider: { type: 'string' }, removed: { type: 'boolean' } } }) } },
        handler: async ({ caller, services }) => ({ success: true, data: { provider, removed: await removeAgencyCredentials(services, caller, provider) } }),
      }),
    ),
  ];
}
