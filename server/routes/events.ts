import { defineRoute, type RouteDef } from '../http/route.js';
import type { Services } from '../services.js';
import { CallEvent } from '../../schemas/call.js';
import { ok } from '../../schemas/common.js';
import { AGENCY_HEADER, SIGNATURE_HEADER } from '../domain/event-signature.js';
import { receiveCallEvent } from '../domain/events.js';

const Ack = ok({
  type: 'object',
  required: ['callId', 'duplicate'],
  properties: { callId: { type: 'string' }, duplicate: { type: 'boolean' }, workflowId: { type: 'string' } },
});

export function eventRoutes(_s: Services): RouteDef[] {
  return [
    defineRoute({
      method: 'post', path: '/api/events/calls', operationId: 'receiveCallEvent', tag: 'Events',
      summary: 'Receive a call event from the voice platform (HMAC-signed, idempotent on callId)',
      access: 'signature',
      body: CallEvent,
      responses: { 202: { description: 'accepted (durable)', schema: Ack }, 200: { description: 'a duplicate, already accepted', schema: Ack } },
      handler: async ({ ctx, body, services }) => {
        const delivery = { agencyId: ctx.get(AGENCY_HEADER), signature: ctx.get(SIGNATURE_HEADER), raw: (ctx.request as { rawBody?: string }).rawBody ?? '' };
        const r = await receiveCallEvent(services, delivery, body);
        ctx.status = r.fresh ? 202 : 200;
        ctx.state.callEvent = { type: r.type, result: r.fresh ? 'accepted' : 'duplicate' };
        return { success: true, data: 'started' in r ? r.started : r.ended };
      },
    }),
  ];
}
