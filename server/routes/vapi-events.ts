import { defineRoute, type RouteDef } from '../http/route.js';
import type { Services } from '../services.js';
import { ok } from '../../schemas/common.js';
import { receiveVapiMessage } from '../domain/events.js';

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

/**
 * Vapi's server messages for one agency (the Server URL the agency gives Vapi). Authenticated as
 * Vapi documents it (an HMAC credential, or the legacy X-Vapi-Secret) with the agency's secret —
 * and during a rotation's grace period the previous one. An `end-of-call-report` of a call our
 * dialer placed becomes our `call.ended` and takes the same path as our own event: idempotent per
 * call, durable before acknowledged, the lead's cadence moves on. Other message types are
 * acknowledged and ignored. Nothing is stored for a delivery that is not authentic, not fresh, a
 * replay, about a call we did not place, or malformed.
 */
export function vapiEventRoutes(_s: Services): RouteDef[] {
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
      handler: async ({ ctx, params, body, services }) => {
        const r = await receiveVapiMessage(services, params.agencyId, ctx.headers, (ctx.request as { rawBody?: string }).rawBody ?? '', body);
        if ('ignored' in r) {
          ctx.status = 200;
          ctx.state.callEvent = { type: r.type, result: 'ignored' };
          return { success: true, data: { type: r.type, ignored: true } };
        }
        ctx.status = r.accepted.duplicate ? 200 : 202;
        ctx.state.callEvent = { type: r.type, result: r.accepted.duplicate ? 'duplicate' : 'accepted' };
        return { success: true, data: { type: r.type, ...r.accepted } };
      },
    }),
  ];
}
