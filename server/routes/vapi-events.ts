import { AppError, notFound } from '../http/errors.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import { validate } from '../http/validation.js';
import type { Services } from '../services.js';
import { CallEndedEvent } from '../../schemas/call.js';
import { ok } from '../../schemas/common.js';
import { acceptCallEnded } from '../calls/accept-call-ended.js';
import { MalformedVapiReportError, mapEndOfCallReport, messageType, reportMetadata, verifyVapiRequest, type VapiCredential } from '../adapters/vapi/server-messages.js';
import { DEFAULT_VAPI_OUTCOME_FIELD } from './agency.js';

const VapiAck = ok({
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string', description: 'the server message type' },
    ignored: { type: 'boolean', description: 'true for message types the product does not act on' },
    callId: { type: 'string' },
    duplicate: { type: 'boolean' },
    workflowId: { type: 'string' },
  },
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Vapi's server messages for one agency (the Server URL the agency gives Vapi). Authenticated as
 * Vapi documents it (an HMAC credential, or the legacy X-Vapi-Secret) with the agency's secret —
 * and during a rotation's grace period the previous one. An `end-of-call-report` of a call our
 * dialer placed becomes our `call.ended` and takes the same path as our own event: idempotent per
 * call, durable before acknowledged, the lead's cadence moves on. Other message types are
 * acknowledged and ignored. Nothing is stored for a delivery that is not authentic, not fresh, a
 * replay, about a call we did not place, or malformed.
 */
export function vapiEventRoutes(s: Services): RouteDef[] {
  return [
    defineRoute({
      method: 'post', path: '/api/events/vapi/:agencyId', operationId: 'receiveVapiServerMessage', tag: 'Events',
      summary: "Receive Vapi's server messages for an agency (its Vapi Server URL); end-of-call reports drive post-call runs",
      description:
        'Authentication: `x-signature` = hex HMAC-SHA256 of `{x-timestamp}.{raw body}` with the agency\'s Vapi server secret (`x-timestamp` in Unix ' +
        'seconds or milliseconds, within EVENT_TOLERANCE_SECONDS), or the legacy `X-Vapi-Secret`. 401 when neither verifies or a signature is reused; 404 `UnknownCall` for a report of a ' +
        'call this agency\'s dialer did not place; 400 for a report that cannot be mapped (the problems named). The outcome comes from ' +
        '`analysis.structuredData[vapiOutcomeField]` (agency setting, default `outcome`), else from `endedReason` (docs/providers.md).',
      access: 'signature', signatureScheme: 'vapiSignature',
      params: { type: 'object', required: ['agencyId'], properties: { agencyId: { type: 'string', minLength: 1, maxLength: 200 } } },
      // Vapi's own message schemas (many types, each large) are not repeated here: any message with a type, the rest Vapi's.
      body: {
        type: 'object',
        required: ['message'],
        additionalProperties: true,
        properties: { message: { type: 'object', required: ['type'], additionalProperties: true, properties: { type: { type: 'string', minLength: 1 } } } },
      },
      responses: { 200: { description: 'acknowledged: ignored, or a duplicate of a call already accepted', schema: VapiAck }, 202: { description: 'accepted (durable)', schema: VapiAck } },
      handler: async ({ ctx, params, body }) => {
        const agency = s.repos.agencies.get(params.agencyId);
        const cred = agency ? s.credentials.get(agency.id, 'agency', 'vapi') : undefined;
        // An unknown agency and one without Vapi look the same from outside.
        if (!agency || !cred) throw new AppError('UNAUTHORIZED', 'this server URL does not accept Vapi messages (no Vapi credentials for it)');
        const credentials: VapiCredential[] = [{ kind: cred.secretKind, secret: cred.serverSecret }];
        if (cred.previousServerSecret && cred.previousUntil && Date.parse(cred.previousUntil) > Date.now()) credentials.push({ kind: cred.secretKind, secret: cred.previousServerSecret });
        const raw = (ctx.request as { rawBody?: string }).rawBody ?? '';
        const verdict = verifyVapiRequest({ headers: ctx.headers, rawBody: raw, now: Date.now(), toleranceSeconds: s.config.eventToleranceSeconds, credentials });
        if (!verdict.ok) throw new AppError('UNAUTHORIZED', verdict.reason);

        const type = messageType(body) ?? 'unknown';
        if (type !== 'end-of-call-report') {
          ctx.status = 200;
          ctx.state.callEvent = { type, result: 'ignored' };
          return { success: true, data: { type, ignored: true } };
        }
        const message = (body as { message: unknown }).message;
        const meta = reportMetadata(message);
        const platformCallId = isObject(message) && isObject(message.call) && typeof message.call.id === 'string' ? message.call.id : undefined;
        if (meta.agencyId && meta.agencyId !== agency.id) throw notFound(`call ${meta.callId ?? platformCallId ?? '?'} was not placed by this agency`, 'UnknownCall');
        const placed = (meta.callId && s.repos.placedCalls.get(agency.id, meta.callId)) || (platformCallId && s.repos.placedCalls.byPlatformId(agency.id, 'vapi', platformCallId)) || undefined;
        if (!placed) throw notFound(`Vapi call ${platformCallId ?? '(no call.id)'} was not placed by this agency's dialer`, 'UnknownCall');

        const settings = s.repos.agencies.settings(agency.id);
        let event: CallEndedEvent;
        try {
          const mapped = mapEndOfCallReport(message, { outcomeField: settings.vapiOutcomeField ?? DEFAULT_VAPI_OUTCOME_FIELD, outcomeMap: settings.vapiOutcomeMap, campaignId: placed.campaignId });
          event = { ...mapped.event, call: { ...mapped.event.call, callId: placed.callId, campaignId: placed.campaignId, contactId: placed.contactId, ...(placed.leadId && { leadId: placed.leadId }) } };
        } catch (err) {
          if (err instanceof MalformedVapiReportError) throw new AppError('VALIDATION', `body.message: ${err.problems.join('; ')}`);
          throw err;
        }
        try {
          validate('body', CallEndedEvent, event);
        } catch (err) {
          // Named as what it is: the report, mapped, is not a call event we can accept.
          throw new AppError('VALIDATION', `body.message does not map to a valid call: ${(err as Error).message}`);
        }
        // Every HMAC signature once; the legacy secret has none, and the call id makes it idempotent.
        const signature = `vapi:${verdict.replayKey ?? platformCallId ?? placed.callId}`;
        if (verdict.replayKey && !s.repos.webhookSignatures.claim(agency.id, 'vapi', verdict.replayKey, s.config.eventToleranceSeconds)) {
          throw new AppError('UNAUTHORIZED', 'this signature was already used (replay)');
        }
        const result = await acceptCallEnded(s, agency.id, event, signature);
        ctx.status = result.duplicate ? 200 : 202;
        ctx.state.callEvent = { type, result: result.duplicate ? 'duplicate' : 'accepted' };
        return { success: true, data: { type, ...result } };
      },
    }),
  ];
}
