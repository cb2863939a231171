import { postCallWorkflowId } from '../../engine/workflows/post-call-types.js';
import { signPayload, AGENCY_HEADER, SIGNATURE_HEADER } from '../../server/domain/event-signature.js';
import type { Harness } from './harness.js';

let seq = 0;

/** Posts a signed call event through the real endpoint, as the voice platform does. */
export async function postCallEvent(h: Harness, event: unknown, opts: { agencyId?: string; secret?: string; timestamp?: number } = {}) {
  const agencyId = opts.agencyId ?? h.agencyId;
  const secret = opts.secret ?? (await h.store.agencies.get(agencyId))!.signingSecret;
  const raw = JSON.stringify(event);
  return h.api('POST', '/api/events/calls', {
    key: null,
    rawBody: raw,
    headers: { 'content-type': 'application/json', [AGENCY_HEADER]: agencyId, [SIGNATURE_HEADER]: signPayload(secret, raw, opts.timestamp) },
  });
}

export function callEnded(campaignId: string, opts: { callId?: string; disposition?: string; contactId?: string; phoneNumber?: string; fields?: { key: string; value: unknown }[]; callSummary?: string; leadName?: string } = {}) {
  return {
    type: 'call.ended',
    call: {
      callId: opts.callId ?? `call_${process.pid}_${++seq}_${Date.now()}`,
      campaignId,
      ...(opts.contactId && { contactId: opts.contactId }),
      phoneNumber: opts.phoneNumber ?? '+15125550123',
      leadName: opts.leadName ?? 'Ana Lopez',
      direction: 'outbound',
      dateTime: new Date().toISOString(),
      duration: 42,
      cost: 0.12,
      disposition: opts.disposition ?? 'VOICEMAIL',
      callSummary: opts.callSummary ?? 'Left a voicemail.',
      transcript: 'Agent: Hello\nLead: (voicemail)',
      fields: opts.fields ?? [],
    },
  };
}

/** Waits for a post-call run to finish, by Temporal's own result, not by sleeping. */
export async function awaitRun(h: Harness, callId: string, agencyId = h.agencyId) {
  const handle = h.temporal!.client.workflow.getHandle(postCallWorkflowId(agencyId, callId));
  return handle.result();
}
