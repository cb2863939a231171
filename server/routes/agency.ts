import { AppError } from '../http/errors.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import type { Services } from '../services.js';
import { ok } from '../../schemas/common.js';
import { AgencySettingsSchema, CredentialSummarySchema, TwilioCredentialInput, UpdateAgencyBody } from '../../schemas/agency.js';
import { CredentialRejectedError } from '../../engine/ports.js';
import { vendorFailure } from '../providers/vendor-errors.js';
import type { Provider } from '../providers/credentials.js';

const read = { scope: 'agency:read', roles: ['agency_admin'] } as const;
const write = { scope: 'agency:write', roles: ['agency_admin'] } as const;

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
      settings: { smsCarrier: s.repos.agencies.settings(agencyId).smsCarrier ?? 'crm' },
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
      handler: ({ caller, body }) => {
        if (body.smsCarrier === 'twilio' && !s.credentials.list(caller.agencyId).some((c) => c.owner === 'agency' && c.provider === 'twilio')) {
          throw new AppError('VALIDATION', 'body.smsCarrier "twilio" needs the agency\'s Twilio credentials first (PUT /api/agency/credentials/twilio)');
        }
        s.repos.agencies.saveSettings(caller.agencyId, { ...s.repos.agencies.settings(caller.agencyId), ...body });
        return { success: true, data: view(caller.agencyId) };
      },
    }),
    defineRoute({
      method: 'put', path: '/api/agency/credentials/twilio', operationId: 'putTwilioCredentials', tag: 'Agency',
      summary: "Set the agency's Twilio account (the SMS carrier of projects whose smsCarrier is twilio); verified with Twilio first",
      access: write, body: TwilioCredentialInput,
      responses: { 200: { description: 'stored (sealed); what may be shown of it', schema: ok(CredentialSummarySchema) } },
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
      method: 'delete', path: '/api/agency/credentials/:provider', operationId: 'deleteAgencyCredentials', tag: 'Agency',
      summary: 'Remove an agency-wide vendor credential',
      access: write,
      params: { type: 'object', required: ['provider'], properties: { provider: { enum: ['twilio', 'vapi'] } } },
      responses: { 200: { description: 'removed', schema: ok({ type: 'object', required: ['provider', 'removed'], properties: { provider: { type: 'string' }, removed: { type: 'boolean' } } }) } },
      handler: ({ caller, params }) => {
        const provider = params.provider as Provider;
        if (provider === 'twilio' && (s.repos.agencies.settings(caller.agencyId).smsCarrier === 'twilio' || s.repos.projects.list(caller.agencyId).some((p) => p.smsCarrier === 'twilio'))) {
          throw new AppError('CONFLICT', 'Twilio is the SMS carrier of the agency or of one of its projects: switch them to "crm" first');
        }
        return { success: true, data: { provider, removed: s.credentials.remove(caller.agencyId, 'agency', provider) } };
      },
    }),
  ];
}
