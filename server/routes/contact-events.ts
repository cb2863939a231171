import { ContactEvent, ContactEventAck } from '../../schemas/lead.js';
import { ok } from '../../schemas/common.js';
import { AppError } from '../http/errors.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import { applyContactEvent } from '../power-dialer/dialer.js';
import type { Services } from '../services.js';
import { AGENCY_HEADER, SIGNATURE_HEADER, verify } from './events.js';

export function contactEventRoutes(s: Services): RouteDef[] {
  return [
    defineRoute({
      method: 'post', path: '/api/events/contacts', operationId: 'receiveContactEvent', tag: 'Events',
      summary: "Receive a CRM contact event (HMAC-signed like call events): upsert the contact, enrol it in or exclude it from its project's campaigns",
      access: 'signature',
      body: ContactEvent,
      responses: { 202: { description: 'applied', schema: ok(ContactEventAck) } },
      handler: async ({ ctx, body }) => {
        const agencyId = ctx.get(AGENCY_HEADER);
        const signature = ctx.get(SIGNATURE_HEADER);
        const agency = agencyId ? s.repos.agencies.get(agencyId) : undefined;
        if (!agency || !signature) throw new AppError('UNAUTHORIZED', `${AGENCY_HEADER} and ${SIGNATURE_HEADER} headers are required`);
        verify(s.repos.agencies.verificationSecrets(agency.id), signature, (ctx.request as { rawBody?: string }).rawBody ?? '', s.config.eventToleranceSeconds);
        if (!s.repos.leads.recordContactEvent(signature, agency.id, body.contact.locationId, body.contact.id, body.type)) {
          throw new AppError('UNAUTHORIZED', 'this signature was already used (replay)');
        }
        const result = await applyContactEvent(s, agency.id, body);
        ctx.status = 202;
        return { success: true, data: result };
      },
    }),
  ];
}
