import { ContactEvent, ContactEventAck } from '../../schemas/lead.js';
import { ok } from '../../schemas/common.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import type { Services } from '../services.js';
import { AGENCY_HEADER, SIGNATURE_HEADER } from '../domain/event-signature.js';
import { receiveContactEvent } from '../domain/events.js';

export function contactEventRoutes(_s: Services): RouteDef[] {
  return [
    defineRoute({
      method: 'post', path: '/api/events/contacts', operationId: 'receiveContactEvent', tag: 'Events',
      summary: "Receive a CRM contact event (HMAC-signed like call events): upsert the contact, enrol it in or exclude it from its project's campaigns",
      access: 'signature',
      body: ContactEvent,
      responses: { 202: { description: 'applied', schema: ok(ContactEventAck) } },
      handler: async ({ ctx, body, services }) => {
        const delivery = { agencyId: ctx.get(AGENCY_HEADER), signature: ctx.get(SIGNATURE_HEADER), raw: (ctx.request as { rawBody?: string }).rawBody ?? '' };
        const result = await receiveContactEvent(services, delivery, body);
        ctx.status = 202;
        return { success: true, data: result };
      },
    }),
  ];
}
