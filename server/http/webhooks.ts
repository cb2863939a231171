import { CallEndedEvent, CallStartedEvent } from '../../schemas/call.js';
import { ContactEvent } from '../../schemas/lead.js';

/** Our webhook signature scheme, as the OpenAPI document and the docs state it. */
export const SIGNATURE_SCHEME_DESCRIPTION =
  '`X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` with the agency\'s signing secret ' +
  '(POST /api/agency/signing-secret/reveal, or rotate), and `X-Agency-Id: <agency id>`. Deliveries older or newer than ' +
  'EVENT_TOLERANCE_SECONDS (default 300) are refused, and so is any signature used before: sign every delivery afresh. ' +
  'During a rotation\'s grace period both the old and the new secret verify. docs/webhooks.md has TypeScript and Python examples.';

const signatureHeaders = [
  { name: 'X-Agency-Id', in: 'header', required: true, schema: { type: 'string', minLength: 1 }, description: 'the agency the event is for' },
  { name: 'X-Signature', in: 'header', required: true, schema: { type: 'string', pattern: '^t=\\d+,v1=[0-9a-f]{64}$' }, description: SIGNATURE_SCHEME_DESCRIPTION },
];

const ack = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'object', required: ['success'], properties: { success: { const: true }, data: { type: 'object' } } } } } });

function webhook(operationId: string, summary: string, description: string, schema: object, example: unknown, path: string) {
  return {
    post: {
      operationId,
      summary,
      description: `${description} Delivered to \`POST ${path}\`. ${SIGNATURE_SCHEME_DESCRIPTION}`,
      parameters: signatureHeaders,
      requestBody: { required: true, content: { 'application/json': { schema, examples: { sample: { value: example } } } } },
      responses: {
        '202': ack('accepted: stored before this answer (durable)'),
        '200': ack('a duplicate of an event already accepted (nothing runs again)'),
        '401': { description: 'not authentic, not fresh, or a replayed signature: nothing stored' },
        '400': { description: 'authentic but invalid: the message names the field' },
        '503': { description: 'stored where possible, but not yet acted on: deliver again (signed afresh)' },
      },
      security: [{ eventSignature: [] }],
    },
  };
}

/**
 * The events a voice platform or CRM delivers to this service, as an OpenAPI 3.1 `webhooks`
 * section: any platform can implement this contract (Vapi has its own route, docs/providers.md).
 */
export function eventWebhooks() {
  const call = { callId: 'call_8f2k', campaignId: 'cmp_123', contactId: 'ct_42', phoneNumber: '+15125550123' };
  return {
    callStarted: webhook('callStartedWebhook', 'call.started: a call is under way', 'Records that the call started; idempotent on call id.', CallStartedEvent, { type: 'call.started', call }, '/api/events/calls'),
    callEnded: webhook(
      'callEndedWebhook',
      'call.ended: a call ended; its outcome runs the post-call workflow',
      'Stores the call record (call history) and starts the post-call run of the outcome on the graph as it is now; a dialer call (with `leadId`) moves its lead\'s cadence on. Idempotent on call id.',
      CallEndedEvent,
      { type: 'call.ended', call: { ...call, dateTime: '2026-11-23T15:04:05Z', disposition: 'VOICEMAIL', duration: 42, callSummary: 'Left a voicemail.', fields: [{ key: 'callback_time', value: '2026-11-24T10:00:00Z' }] } },
      '/api/events/calls',
    ),
    contactEvent: webhook(
      'contactEventWebhook',
      'contact.created / contact.updated / contact.deleted: a CRM contact changed',
      "Upserts the contact, enrols it in the project's campaigns whose activeTags it carries (and none of their inactiveTags), takes it out of queues it is now excluded from; contact.deleted removes it from every queue.",
      ContactEvent,
      { type: 'contact.updated', contact: { id: 'ct_42', locationId: 'loc_clinic', firstName: 'Ana', phone: '+15125550123', tags: ['new-lead'] } },
      '/api/events/contacts',
    ),
  };
}

export const eventSignatureScheme = { type: 'apiKey', in: 'header', name: 'X-Signature', description: SIGNATURE_SCHEME_DESCRIPTION } as const;

export const vapiSignatureScheme = {
  type: 'apiKey',
  in: 'header',
  name: 'x-signature',
  description:
    "Vapi's HMAC credential: hex HMAC-SHA256 of `{x-timestamp}.{raw body}` with the agency's Vapi server secret (or the legacy `X-Vapi-Secret` header). " +
    '`x-timestamp` is Unix time in seconds or in milliseconds (Vapi does not document the unit; both are accepted, told apart by size), within EVENT_TOLERANCE_SECONDS either way.',
} as const;
