import { AppError } from '../http/errors.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import type { Services } from '../services.js';
import { ok } from '../../schemas/common.js';
import { randomBytes } from 'node:crypto';
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
import { CredentialRejectedError } from '../../engine/ports.js';
import { VENDOR_UNAVAILABLE, vendorFailure } from '../providers/vendor-errors.js';
import type { Provider } from '../providers/credentials.js';

const read = { scope: 'agency:read', roles: ['agency_admin'] } as const;
const write = { scope: 'agency:write', roles: ['agency_admin'] } as const;
const secrets = { scope: 'webhooks:write', roles: ['agency_admin'] } as const;

/** Our own webhook scheme, as the answers and the OpenAPI document name it. */
export const SIGNATURE_SCHEME = 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">';

/** The Vapi outcome field when the agency names none. */
export const DEFAULT_VAPI_OUTCOME_FIELD = 'outcome';

/**
 * The agency's own settings and its agency-wide vendor credentials (Twilio, Vapi). A credential is
 * written, verified against the vendor and replaced or removed; it is never read back: answers
 * carry a summary (which provider, a hint such as the account's last digits, when it changed).
 */
export function agencyRoutes(s: Services): RouteDef[] {
  const view = (agencyId: string) => {
    const agency = s.repos.agencies.get(agencyId)!;
    return {
      id: agency.id,
      name: agency.name,
      planLimit: agency.planLimit,
      liveProjects: s.repos.projects.countLive(agencyId),
      settings: (() => {
        const st = s.repos.agencies.settings(agencyId);
        return {
          smsCarrier: st.smsCarrier ?? 'crm',
          voicePlatform: st.voicePlatform ?? 'sandbox',
          vapiOutcomeField: st.vapiOutcomeField ?? DEFAULT_VAPI_OUTCOME_FIELD,
          ...(st.vapiOutcomeMap && { vapiOutcomeMap: st.vapiOutcomeMap }),
          ...(st.alertWebhookUrl && { alertWebhookUrl: st.alertWebhookUrl }),
          ...(st.alertEmail && { alertEmail: st.alertEmail }),
        };
      })(),
      credentials: s.credentials.list(agencyId).filter((c) => c.owner === 'agency'),
    };
  };
  return [
    defineRoute({
      method: 'get', path: '/api/agency', operationId: 'getAgency', tag: 'Agency',
      summary: "The caller's agency: plan, settings and which agency-wide vendor credentials are set (never their secrets)",
      access: read,
      responses: { 200: { description: 'the agency', schema: ok(AgencySettingsSchema) } },
      handler: ({ caller }) => ({ success: true, data: view(caller.agencyId) }),
    }),
    defineRoute({
      method: 'patch', path: '/api/agency', operationId: 'updateAgency', tag: 'Agency',
      summary: "Change the agency's settings (the default SMS carrier of its projects)",
      access: write, body: UpdateAgencyBody,
      responses: { 200: { description: 'the agency', schema: ok(AgencySettingsSchema) } },
      handler: async ({ caller, body }) => {
        if (typeof body.alertWebhookUrl === 'string') {
          // Decided now where it can be (a literal address, a name resolving inside); delivery checks every time.
          const refused = await s.outbound.check(body.alertWebhookUrl);
          if (refused) throw new AppError('VALIDATION', `body.alertWebhookUrl: refused: ${refused}; alerts are delivered to public addresses only`);
        }
        const has = (provider: Provider) => s.credentials.list(caller.agencyId).some((c) => c.owner === 'agency' && c.provider === provider);
        if (body.smsCarrier === 'twilio' && !has('twilio')) {
          throw new AppError('CONFLICT', 'body.smsCarrier "twilio" needs the agency\'s Twilio credentials first (PUT /api/agency/credentials/twilio)', { detailCode: 'CredentialsMissing' });
        }
        if (body.voicePlatform === 'vapi' && !has('vapi')) {
          throw new AppError('CONFLICT', 'body.voicePlatform "vapi" needs the agency\'s Vapi credentials first (PUT /api/agency/credentials/vapi)', { detailCode: 'CredentialsMissing' });
        }
        const next: Record<string, unknown> = { ...s.repos.agencies.settings(caller.agencyId), ...body };
        // null removes a setting
        for (const [k, v] of Object.entries(next)) if (v === null) delete next[k];
        s.repos.agencies.saveSettings(caller.agencyId, next);
        return { success: true, data: view(caller.agencyId) };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/agency/alerts', operationId: 'listAlerts', tag: 'Agency',
      summary: 'Recent failure alerts (a run failed after its retries, a project was disconnected) and how their delivery went',
      access: read,
      query: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 } } },
      responses: { 200: { description: 'alerts, newest first', schema: ok({ type: 'array', items: AlertSchema }) } },
      handler: ({ caller, query }) => ({
        success: true,
        data: s.repos.alerts.list(caller.agencyId, query.limit ?? 50).map(({ agencyId: _a, ...a }) => a),
      }),
    }),
    defineRoute({
      method: 'put', path: '/api/agency/credentials/twilio', operationId: 'putTwilioCredentials', tag: 'Agency',
      summary: "Set the agency's Twilio account (the SMS carrier of projects whose smsCarrier is twilio); verified with Twilio first",
      access: write, body: TwilioCredentialInput,
      responses: { 200: { description: 'stored (sealed); what may be shown of it', schema: ok(CredentialSummarySchema) }, 503: VENDOR_UNAVAILABLE },
      handler: async ({ caller, body }) => {
        try {
          await s.providers.verifyTwilio(body);
        } catch (err) {
          if (err instanceof CredentialRejectedError) throw new AppError('VALIDATION', `body.authToken: Twilio refused these credentials (${err.message})`);
          throw vendorFailure(err, 'verifying the Twilio credentials');
        }
        s.credentials.put(caller.agencyId, 'agency', 'twilio', body);
        return { success: true, data: s.credentials.list(caller.agencyId).find((c) => c.owner === 'agency' && c.provider === 'twilio')! };
      },
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
      handler: async ({ ctx, caller, body }) => {
        try {
          await s.providers.verifyVapi(body.apiKey);
        } catch (err) {
          if (err instanceof CredentialRejectedError) throw new AppError('VALIDATION', `body.apiKey: Vapi refused this key (${err.message})`);
          throw vendorFailure(err, 'verifying the Vapi API key');
        }
        const previous = s.credentials.get(caller.agencyId, 'agency', 'vapi');
        const generated = body.serverSecret ? undefined : `vsec_${randomBytes(24).toString('base64url')}`;
        const serverSecret = body.serverSecret ?? generated!;
        const secretKind = body.secretKind ?? 'hmac';
        const keepOld = previous && previous.serverSecret !== serverSecret;
        const previousUntil = keepOld ? new Date(Date.now() + s.config.webhookSecretGraceSeconds * 1000).toISOString() : undefined;
        s.credentials.put(caller.agencyId, 'agency', 'vapi', {
          apiKey: body.apiKey,
          serverSecret,
          secretKind,
          ...(keepOld && { previousServerSecret: previous.serverSecret, previousUntil }),
        });
        return {
          success: true,
          data: {
            credential: s.credentials.list(caller.agencyId).find((c) => c.owner === 'agency' && c.provider === 'vapi')!,
            serverUrl: `${s.config.publicUrl ?? `${ctx.protocol}://${ctx.host}`}/api/events/vapi/${encodeURIComponent(caller.agencyId)}`,
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
      handler: ({ caller }) => {
        const secret = s.repos.agencies.revealSigningSecret(caller.agencyId);
        if (!secret) throw new AppError('CONFLICT', 'the signing secret was already shown once; rotate it (POST /api/agency/signing-secret/rotate) to get a new one', { detailCode: 'SecretAlreadyShown' });
        return { success: true, data: { secret, header: 'X-Signature', scheme: SIGNATURE_SCHEME } };
      },
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
      handler: ({ caller, body }) => {
        const { secret, previousValidUntil } = s.repos.agencies.rotateSigningSecret(caller.agencyId, body.graceSeconds ?? s.config.webhookSecretGraceSeconds);
        return { success: true, data: { secret, header: 'X-Signature', scheme: SIGNATURE_SCHEME, previousValidUntil } };
      },
    }),
    ...(['twilio', 'vapi'] as const).map((provider) =>
      defineRoute({
        method: 'delete', path: `/api/agency/credentials/${provider}`, operationId: provider === 'twilio' ? 'deleteTwilioCredentials' : 'deleteVapiCredentials', tag: 'Agency',
        summary: `Remove the agency's ${provider === 'twilio' ? 'Twilio' : 'Vapi'} credentials`,
        access: write,
        responses: { 200: { description: 'removed (false: there were none)', schema: ok({ type: 'object', required: ['provider', 'removed'], properties: { provider: { type: 'string' }, removed: { type: 'boolean' } } }) } },
        handler: ({ caller }) => {
          if (provider === 'vapi' && s.repos.agencies.settings(caller.agencyId).voicePlatform === 'vapi') {
            throw new AppError('CONFLICT', 'Vapi is the agency\'s voice platform: set voicePlatform to "sandbox" first', { detailCode: 'VoicePlatformInUse' });
          }
          if (provider === 'twilio' && (s.repos.agencies.settings(caller.agencyId).smsCarrier === 'twilio' || s.repos.projects.list(caller.agencyId).some((p) => p.smsCarrier === 'twilio'))) {
            throw new AppError('CONFLICT', 'Twilio is the SMS carrier of the agency or of one of its projects: switch them to "crm" first', { detailCode: 'CarrierInUse' });
          }
          return { success: true, data: { provider, removed: s.credentials.remove(caller.agencyId, 'agency', provider) } };
        },
      }),
    ),
  ];
}
