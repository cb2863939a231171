import type { IncomingHttpHeaders } from 'node:http';
import { MalformedVapiReportError, mapEndOfCallReport, messageType, reportMetadata, verifyVapiRequest, type VapiCredential } from '../adapters/vapi/server-messages.js';
import type { Services } from '../services.js';
import type { Agency } from '../store/index.js';
import { CallEndedEvent, CallStartedEvent } from '../../schemas/call.js';
import type { ContactEvent } from '../../schemas/lead.js';
import { DEFAULT_VAPI_OUTCOME_FIELD } from './agency.js';
import { acceptCallEnded, type AcceptResult } from './calls/accept-call-ended.js';
import { invalid, notFound, unauthentic } from './errors.js';
import { AGENCY_HEADER, SIGNATURE_HEADER, verify } from './event-signature.js';
import { applyContactEvent } from './power-dialer/dialer.js';
import { validate } from './validation.js';

/**
 * Signed deliveries from a voice platform or a CRM. Each is authenticated before anything is read
 * from its body or stored: the agency's signature (current secret, or during a rotation's grace
 * period the previous one), a fresh timestamp, a signature never used before.
 */

/** A delivery as it arrived: the agency it names, its signature, its exact bytes, the parsed body. */
export interface SignedDelivery {
  agencyId: string;
  signature: string;
  raw: string;
}

async function authentic(s: Services, d: SignedDelivery): Promise<Agency> {
  const agency = d.agencyId ? await s.store.agencies.get(d.agencyId) : undefined;
  if (!agency || !d.signature) throw unauthentic(`${AGENCY_HEADER} and ${SIGNATURE_HEADER} headers are required`);
  verify(await s.store.agencies.verificationSecrets(agency.id), d.signature, d.raw, s.config.eventToleranceSeconds);
  return agency;
}

export type CallEventResult = { type: string; fresh: boolean } & ({ started: { callId: string; duplicate: boolean } } | { ended: AcceptResult });

/** `call.started` is recorded once; `call.ended` is accepted durably and starts the call's run (acceptCallEnded). */
export async function receiveCallEvent(s: Services, d: SignedDelivery, body: unknown): Promise<CallEventResult> {
  const agency = await authentic(s, d);
  // Every signature once: a re-delivery is signed afresh; a reused signature is a replay.
  if (!(await s.store.webhookSignatures.claim(agency.id, 'calls', d.signature, s.config.eventToleranceSeconds))) {
    throw unauthentic('this signature was already used (replay)');
  }
  const event = body as { type: string; call: { callId: string } };
  if (event.type === 'call.started') {
    validate('body', CallStartedEvent, body);
    const fresh = await s.store.calls.recordEvent(agency.id, event.call.callId, event.type, d.signature);
    return { type: event.type, fresh, started: { callId: event.call.callId, duplicate: !fresh } };
  }
  validate('body', CallEndedEvent, body);
  const ended = await acceptCallEnded(s, agency.id, body as CallEndedEvent, d.signature);
  return { type: event.type, fresh: !ended.duplicate, ended };
}

/** A CRM contact event: upserts the contact, enrols it in or excludes it from its project's campaigns. */
export async function receiveContactEvent(s: Services, d: SignedDelivery, event: ContactEvent) {
  const agency = await authentic(s, d);
  if (!(await s.store.leads.recordContactEvent(d.signature, agency.id, event.contact.locationId, event.contact.id, event.type))) {
    throw unauthentic('this signature was already used (replay)');
  }
  return applyContactEvent(s, agency.id, event);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export type VapiMessageResult = { type: string; ignored: true } | { type: string; accepted: AcceptResult };

/**
 * Vapi's server messages for one agency, authenticated as Vapi documents it (an HMAC credential, or
 * the legacy X-Vapi-Secret). An `end-of-call-report` of a call our dialer placed becomes our
 * `call.ended` and takes the same path as our own event; other message types are ignored. Nothing
 * is stored for a delivery that is not authentic, not fresh, a replay, about a call we did not
 * place, or malformed.
 */
export async function receiveVapiMessage(s: Services, agencyId: string, headers: IncomingHttpHeaders, raw: string, body: unknown): Promise<VapiMessageResult> {
  const agency = await s.store.agencies.get(agencyId);
  const cred = agency ? await s.credentials.get(agency.id, 'agency', 'vapi') : undefined;
  // An unknown agency and one without Vapi look the same from outside.
  if (!agency || !cred) throw unauthentic('this server URL does not accept Vapi messages (no Vapi credentials for it)');
  const credentials: VapiCredential[] = [{ kind: cred.secretKind, secret: cred.serverSecret }];
  if (cred.previousServerSecret && cred.previousUntil && Date.parse(cred.previousUntil) > Date.now()) credentials.push({ kind: cred.secretKind, secret: cred.previousServerSecret });
  const verdict = verifyVapiRequest({ headers, rawBody: raw, now: Date.now(), toleranceSeconds: s.config.eventToleranceSeconds, credentials });
  if (!verdict.ok) throw unauthentic(verdict.reason);

  const type = messageType(body) ?? 'unknown';
  if (type !== 'end-of-call-report') return { type, ignored: true };
  const message = (body as { message: unknown }).message;
  const meta = reportMetadata(message);
  const platformCallId = isObject(message) && isObject(message.call) && typeof message.call.id === 'string' ? message.call.id : undefined;
  if (meta.agencyId && meta.agencyId !== agency.id) throw notFound(`call ${meta.callId ?? platformCallId ?? '?'} was not placed by this agency`, 'UnknownCall');
  const placed =
    (meta.callId && (await s.store.placedCalls.get(agency.id, meta.callId))) || (platformCallId && (await s.store.placedCalls.byPlatformId(agency.id, 'vapi', platformCallId))) || undefined;
  if (!placed) throw notFound(`Vapi call ${platformCallId ?? '(no call.id)'} was not placed by this agency's dialer`, 'UnknownCall');

  const settings = await s.store.agencies.settings(agency.id);
  let event: CallEndedEvent;
  try {
    const mapped = mapEndOfCallReport(message, { outcomeField: settings.vapiOutcomeField ?? DEFAULT_VAPI_OUTCOME_FIELD, outcomeMap: settings.vapiOutcomeMap, campaignId: placed.campaignId });
    event = { ...mapped.event, call: { ...mapped.event.call, callId: placed.callId, campaignId: placed.campaignId, contactId: placed.contactId, ...(placed.leadId && { leadId: placed.leadId }) } };
  } catch (err) {
    if (err instanceof MalformedVapiReportError) throw invalid(`body.message: ${err.problems.join('; ')}`);
    throw err;
  }
  try {
    validate('body', CallEndedEvent, event);
  } catch (err) {
    // Named as what it is: the report, mapped, is not a call event we can accept.
    throw invalid(`body.message does not map to a valid call: ${(err as Error).message}`);
  }
  // Every HMAC signature once; the legacy secret has none, and the call id makes it idempotent.
  const signature = `vapi:${verdict.replayKey ?? platformCallId ?? placed.callId}`;
  if (verdict.replayKey && !(await s.store.webhookSignatures.claim(agency.id, 'vapi', verdict.replayKey, s.config.eventToleranceSeconds))) {
    throw unauthentic('this signature was already used (replay)');
  }
  return { type, accepted: await acceptCallEnded(s, agency.id, event, signature) };
}
