import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../http/errors.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import { validate } from '../http/validation.js';
import type { Services } from '../services.js';
import { CallEndedEvent, CallEvent, CallStartedEvent } from '../../schemas/call.js';
import { ok } from '../../schemas/common.js';
import { acceptCallEnded } from '../calls/accept-call-ended.js';

export const SIGNATURE_HEADER = 'X-Signature';
export const AGENCY_HEADER = 'X-Agency-Id';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, the scheme Stripe-style webhooks use. */
export function signPayload(secret: string, rawBody: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/**
 * Verifies `X-Signature` against each of the agency's current secrets (two during a rotation's
 * grace period); every secret is tried, so the timing says nothing about which one matched.
 */
export function verify(secrets: readonly string[], header: string, rawBody: string, toleranceSeconds: number): void {
  const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!/^\d+$/.test(parts.t ?? '') || !Number.isSafeInteger(t) || !parts.v1) throw new AppError('UNAUTHORIZED', `${SIGNATURE_HEADER} must be "t=<unix>,v1=<hex>"`);
  if (Math.abs(Date.now() / 1000 - t) > toleranceSeconds) {
    throw new AppError('UNAUTHORIZED', `signature timestamp is outside the ${toleranceSeconds}s tolerance (stale or clock skew)`);
  }
  const given = Buffer.from(parts.v1);
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex'));
    if (expected.length === given.length && timingSafeEqual(expected, given)) matched = true;
  }
  if (!matched) throw new AppError('UNAUTHORIZED', 'signature does not match the body');
}

const Ack = ok({
  type: 'object',
  required: ['callId', 'duplicate'],
  properties: { callId: { type: 'string' }, duplicate: { type: 'boolean' }, workflowId: { type: 'string' } },
});

export function eventRoutes(s: Services): RouteDef[] {
  return [
    defineRoute({
      method: 'post', path: '/api/events/calls', operationId: 'receiveCallEvent', tag: 'Events',
      summary: 'Receive a call event from the voice platform (HMAC-signed, idempotent on callId)',
      access: 'signature',
      body: CallEvent,
      responses: { 202: { description: 'accepted (durable)', schema: Ack }, 200: { description: 'a duplicate, already accepted', schema: Ack } },
      handler: async ({ ctx, body }) => {
        const agencyId = ctx.get(AGENCY_HEADER);
        const signature = ctx.get(SIGNATURE_HEADER);
        const agency = agencyId ? s.repos.agencies.get(agencyId) : undefined;
        if (!agency || !signature) throw new AppError('UNAUTHORIZED', `${AGENCY_HEADER} and ${SIGNATURE_HEADER} headers are required`);
        const raw = (ctx.request as { rawBody?: string }).rawBody ?? '';
        verify(s.repos.agencies.verificationSecrets(agency.id), signature, raw, s.config.eventToleranceSeconds);
        // Every signature once: a re-delivery is signed afresh; a reused signature is a replay.
        if (!s.repos.webhookSignatures.claim(agency.id, 'calls', signature, s.config.eventToleranceSeconds)) {
          throw new AppError('UNAUTHORIZED', 'this signature was already used (replay)');
        }
        const event = body as { type: string; call: { callId: string } };
        if (event.type === 'call.started') {
          validate('body', CallStartedEvent, body);
          const fresh = s.repos.calls.recordEvent(agency.id, event.call.callId, event.type, signature);
          ctx.status = fresh ? 202 : 200;
          ctx.state.callEvent = { type: event.type, result: fresh ? 'accepted' : 'duplicate' };
          return { success: true, data: { callId: event.call.callId, duplicate: !fresh } };
        }
        validate('body', CallEndedEvent, body);
        const result = await acceptCallEnded(s, agency.id, body as never, signature);
        ctx.status = result.duplicate ? 200 : 202;
        ctx.state.callEvent = { type: event.type, result: result.duplicate ? 'duplicate' : 'accepted' };
        return { success: true, data: result };
      },
    }),
  ];
}
