/**
 * Vapi server messages (the webhooks Vapi posts to an assistant's server URL): authenticating a
 * delivery, telling the message types apart, and mapping an `end-of-call-report` to our own
 * `call.ended` event (schemas/call.ts). Pure: no I/O, no clock (`now` is a parameter).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { normalizeOutcome, type Disposition } from '../../../engine/graph/outcomes.js';
import type { CallEndedEvent } from '../../../schemas/call.js';
import type { VapiCallMetadata } from './types.js';

// ---------------------------------------------------------------------------------------------
// Authentication
// ---------------------------------------------------------------------------------------------

/**
 * A secret Vapi signs (or sends) its deliveries with, as configured on the assistant's server
 * credential (server-authentication.mdx; component `HMACAuthenticationPlan`):
 * - `hmac`: an HMAC credential with the defaults: algorithm sha256, header `x-signature`, hex
 *   encoding, no signature prefix, timestamp included, timestamp header `x-timestamp`, payload
 *   `{timestamp}.{body}`, secret used as text (not base64).
 * - `secret`: the legacy shared secret, sent as is in `X-Vapi-Secret` (a Bearer Token credential
 *   with header `X-Vapi-Secret` and no Bearer prefix, or the old inline `server.secret`).
 * Several may be configured at once: the old and the new secret during a rotation.
 */
export type VapiCredential = { kind: 'hmac'; secret: string } | { kind: 'secret'; secret: string };

export const VAPI_SIGNATURE_HEADER = 'x-signature';
export const VAPI_TIMESTAMP_HEADER = 'x-timestamp';
export const VAPI_SECRET_HEADER = 'x-vapi-secret';

export type VapiVerification =
  | {
      ok: true;
      scheme: 'hmac' | 'secret';
      /** which of `credentials` matched (an old one means the rotation is not finished) */
      credentialIndex: number;
      /** for replay detection: the HMAC signature, which is unique per delivery; null for the legacy secret */
      replayKey: string | null;
    }
  | { ok: false; reason: string };

type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;

function header(headers: Headers, name: string): string | undefined | 'multiple' {
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== name) continue;
    if (Array.isArray(v)) return v.length === 1 ? v[0] : 'multiple';
    return v as string | undefined;
  }
  return undefined;
}

/**
 * The unit of `x-timestamp` is not documented (HMACAuthenticationPlan says only "the header name
 * where the timestamp will be sent"). Both Unix seconds and Unix milliseconds are accepted, told
 * apart by size: below 10^11 it is seconds (10^11 s is the year 5138; 10^11 ms was 1973).
 */
function timestampMs(raw: string): number | null {
  if (!/^\d{1,16}$/.test(raw)) return null;
  const n = Number(raw);
  return n < 1e11 ? n * 1000 : n;
}

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/** Equal-length comparison in constant time: both sides are hashed first, so lengths never leak. */
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/**
 * Authenticates one delivery. A delivery that carries `x-signature` is judged by the HMAC scheme
 * alone: a malformed, stale or wrong signature is never downgraded to the legacy secret.
 * `now` is epoch milliseconds; `toleranceSeconds` bounds |now - x-timestamp| both ways (stale and
 * from the future). The legacy secret has no timestamp and so no replay protection.
 */
export function verifyVapiRequest(input: {
  headers: Headers;
  rawBody: string | Buffer;
  now: number;
  toleranceSeconds: number;
  credentials: readonly VapiCredential[];
}): VapiVerification {
  const { headers, now, toleranceSeconds, credentials } = input;
  const signature = header(headers, VAPI_SIGNATURE_HEADER);
  if (signature !== undefined) {
    const hmacs = credentials.map((c, i) => ({ c, i })).filter(({ c }) => c.kind === 'hmac' && c.secret.length > 0);
    if (hmacs.length === 0) return { ok: false, reason: 'the delivery is HMAC-signed but no HMAC secret is configured' };
    if (signature === 'multiple' || !HEX_SHA256.test(signature)) return { ok: false, reason: `${VAPI_SIGNATURE_HEADER} must be one hex HMAC-SHA256 (64 hex digits)` };
    const ts = header(headers, VAPI_TIMESTAMP_HEADER);
    if (ts === undefined) return { ok: false, reason: `${VAPI_TIMESTAMP_HEADER} is missing (the HMAC credential must include the timestamp)` };
    const at = ts === 'multiple' ? null : timestampMs(ts);
    if (ts === 'multiple' || at === null) return { ok: false, reason: `${VAPI_TIMESTAMP_HEADER} must be a Unix time in seconds or milliseconds` };
    const skew = now - at;
    if (skew > toleranceSeconds * 1000) return { ok: false, reason: `${VAPI_TIMESTAMP_HEADER} is ${Math.round(skew / 1000)}s old, beyond the ${toleranceSeconds}s tolerance (stale or replayed)` };
    if (-skew > toleranceSeconds * 1000) return { ok: false, reason: `${VAPI_TIMESTAMP_HEADER} is ${Math.round(-skew / 1000)}s in the future, beyond the ${toleranceSeconds}s tolerance (clock skew)` };
    const given = Buffer.from(signature, 'hex');
    const body = typeof input.rawBody === 'string' ? Buffer.from(input.rawBody, 'utf8') : input.rawBody;
    // Every configured secret is tried (no early exit), so timing says nothing about which matched.
    let matched = -1;
    for (const { c, i } of hmacs) {
      const expected = createHmac('sha256', c.secret).update(`${ts}.`).update(body).digest();
      if (timingSafeEqual(expected, given) && matched < 0) matched = i;
    }
    if (matched < 0) return { ok: false, reason: `${VAPI_SIGNATURE_HEADER} does not match the body with any configured HMAC secret` };
    return { ok: true, scheme: 'hmac', credentialIndex: matched, replayKey: signature.toLowerCase() };
  }
  const secret = header(headers, VAPI_SECRET_HEADER);
  if (secret !== undefined) {
    const legacy = credentials.map((c, i) => ({ c, i })).filter(({ c }) => c.kind === 'secret' && c.secret.length > 0);
    if (legacy.length === 0) return { ok: false, reason: 'the delivery carries X-Vapi-Secret but no legacy secret is configured' };
    if (secret === 'multiple') return { ok: false, reason: 'X-Vapi-Secret appears more than once' };
    let matched = -1;
    for (const { c, i } of legacy) if (sameSecret(c.secret, secret) && matched < 0) matched = i;
    if (matched < 0) return { ok: false, reason: 'X-Vapi-Secret does not match any configured secret' };
    return { ok: true, scheme: 'secret', credentialIndex: matched, replayKey: null };
  }
  return { ok: false, reason: `neither ${VAPI_SIGNATURE_HEADER} and ${VAPI_TIMESTAMP_HEADER} (HMAC credential) nor X-Vapi-Secret is present` };
}

// ---------------------------------------------------------------------------------------------
// Message types
// ---------------------------------------------------------------------------------------------

/**
 * `message.type` of a server message body (`{ message: { type, ... } }`), or null when the body
 * is not one. A route acknowledges the types it does not act on (status-update, transcript, ...).
 */
export function messageType(body: unknown): string | null {
  const message = isObject(body) ? body.message : undefined;
  return isObject(message) && typeof message.type === 'string' && message.type !== '' ? message.type : null;
}

// ---------------------------------------------------------------------------------------------
// endedReason -> outcome
// ---------------------------------------------------------------------------------------------

/**
 * What an `endedReason` says about the call, in families. Vapi publishes ~630 reasons (most are
 * `pipeline-error-*` and `call.in-progress.error-*` provider faults); every published one falls in
 * a family other than `unknown` (a test checks the whole enum).
 */
export type EndedReasonFamily = 'voicemail' | 'transferred' | 'transfer-failed' | 'not-reached' | 'conversation-ended' | 'canceled' | 'error' | 'unknown';

/**
 * The outcome of a call whose analysis recorded none, by family:
 *
 * | family              | examples                                                        | outcome   |
 * |---------------------|-----------------------------------------------------------------|-----------|
 * | voicemail           | `voicemail`                                                     | VOICEMAIL |
 * | transferred         | `assistant-forwarded-call`, `call.ending.hook-executed-transfer`| TRANSFER  |
 * | transfer-failed     | `call.forwarding.operator-busy`, `…error-transfer-failed`, `…warm-transfer-*`, `customer-ended-call-during-transfer` | NO_ACTION |
 * | not-reached         | `customer-did-not-answer`, `customer-busy`, `twilio-failed-to-connect-call`, `…providerfault-outbound-sip-*` | NO_ACTION |
 * | conversation-ended  | `customer-ended-call`, `assistant-ended-call*`, `silence-timed-out`, `exceeded-max-duration` | NO_ACTION |
 * | canceled            | `manually-canceled`, `call-deleted`, `scheduled-call-deleted`   | NO_ACTION |
 * | error               | `pipeline-error-*`, `call.start.error-*`, `call.in-progress.error-*`, `assistant-request-*`, `worker-shutdown` | NO_ACTION |
 * | unknown             | anything Vapi adds later                                        | NO_ACTION |
 *
 * NO_ACTION is the cadence's "try the next step" (engine/cadence: VOICEMAIL and NO_ACTION move on,
 * TRANSFER, SUCCESS and RESCHEDULE stop), so a call that did not reach anyone, failed, or ended
 * without a recorded result is attempted again rather than closed. Only a voicemail and a completed
 * transfer are read from the reason; success, callback and reschedule need the agent's analysis.
 */
export const FAMILY_OUTCOME: Readonly<Record<EndedReasonFamily, Disposition>> = {
  voicemail: 'VOICEMAIL',
  transferred: 'TRANSFER',
  'transfer-failed': 'NO_ACTION',
  'not-reached': 'NO_ACTION',
  'conversation-ended': 'NO_ACTION',
  canceled: 'NO_ACTION',
  error: 'NO_ACTION',
  unknown: 'NO_ACTION',
};

const FAMILY_RULES: readonly (readonly [EndedReasonFamily, RegExp])[] = [
  ['voicemail', /^voicemail$/],
  ['transferred', /^(assistant-forwarded-call|call\.(ending|ringing)\.hook-executed-transfer)$/],
  [
    'transfer-failed',
    /^(call\.forwarding\..*|call\.in-progress\.error-transfer-failed|call\.in-progress\.error-warm-transfer-.*|customer-ended-call-(before-warm-transfer|after-warm-transfer-attempt|during-transfer))$/,
  ],
  [
    'not-reached',
    /^(customer-did-not-answer|customer-busy|twilio-failed-to-connect-call|twilio-reported-customer-misdialed|vonage-rejected|vonage-failed-to-connect-call|call\.in-progress\.error-sip-(outbound|inbound)-call-failed-to-connect|call\.in-progress\.error-providerfault-outbound-sip-.*|call\.ringing\.sip-inbound-caller-hungup-before-call-connect|call\.ringing\.error-sip-inbound-call-failed-to-connect)$/,
  ],
  ['canceled', /^(manually-canceled|call-deleted|scheduled-call-deleted)$/],
  [
    'conversation-ended',
    /^(customer-ended-call|assistant-ended-call.*|assistant-said-end-call-phrase|silence-timed-out|exceeded-max-duration|call\.in-progress\.(twilio|sip)-completed-call|vonage-completed|vonage-disconnected|call\.(ending|ringing)\.hook-executed-say)$/,
  ],
  [
    'error',
    /^(pipeline-error-.*|call\.in-progress\.error-.*|call\.start\..*|call-start-error-.*|call\.ringing\.error-.*|assistant-request-.*|assistant-not-(valid|found)|assistant-join-timed-out|phone-call-provider-.*|worker-shutdown|customer-did-not-give-microphone-permission)$/,
  ],
];

export function classifyEndedReason(reason: string): { family: EndedReasonFamily; outcome: Disposition } {
  const family = FAMILY_RULES.find(([, re]) => re.test(reason))?.[0] ?? 'unknown';
  return { family, outcome: FAMILY_OUTCOME[family] };
}

// ---------------------------------------------------------------------------------------------
// end-of-call-report -> call.ended
// ---------------------------------------------------------------------------------------------

/** The report lacks what a `call.ended` event needs; `problems` names each missing or bad field. */
export class MalformedVapiReportError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Vapi end-of-call-report cannot be mapped: ${problems.join('; ')}`);
    this.name = 'MalformedVapiReportError';
  }
}

export interface EndOfCallReportMapping {
  /** the key of `analysis.structuredData` the agent's analysis records the outcome under */
  outcomeField: string;
  /**
   * the agent's own outcome words -> ours (`{ "booked": "SUCCESS", "not interested": "NO_ACTION" }`),
   * matched case-insensitively after trimming, before `normalizeOutcome`
   */
  outcomeMap?: Readonly<Record<string, string>>;
  /** used when the report carries no `campaignId` metadata (a call not placed by our dialer) */
  campaignId?: string;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const E164 = /^\+\d{10,15}$/;
const RECORDED_KEY_MAX = 100;
const RECORDED_FIELDS_MAX = 200;
const SUMMARY_MAX = 20_000;
const TRANSCRIPT_MAX = 500_000;

/**
 * Our ids as stored by the adapter (server/adapters/vapi/voice.ts) in
 * `assistantOverrides.metadata`, which Vapi keeps on the call (`Call.assistantOverrides`) and so
 * echoes in the report's `call`. Read before verification it is untrusted; after it, a route
 * still checks `agencyId` against the agency the delivery was addressed to.
 */
export function reportMetadata(message: unknown): Partial<VapiCallMetadata> {
  const call = isObject(message) && isObject(message.call) ? message.call : undefined;
  const overrides = call && isObject(call.assistantOverrides) ? call.assistantOverrides : undefined;
  const meta = overrides && isObject(overrides.metadata) ? overrides.metadata : {};
  const out: Partial<VapiCallMetadata> = {};
  for (const key of ['callId', 'agencyId', 'campaignId', 'contactId', 'leadId'] as const) {
    const v = str(meta[key]);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** `outcomeField`'s value, through `outcomeMap`, as one of our outcomes; null when it is none. */
function structuredOutcome(value: unknown, mapping: EndOfCallReportMapping): Disposition | null {
  if (typeof value !== 'string') return null;
  const word = value.trim().toLowerCase();
  if (mapping.outcomeMap) {
    for (const [k, v] of Object.entries(mapping.outcomeMap)) if (k.trim().toLowerCase() === word) return normalizeOutcome(v);
  }
  return normalizeOutcome(value);
}

const SPEAKER: Readonly<Record<string, string>> = { bot: 'Agent', assistant: 'Agent', user: 'Lead', customer: 'Lead' };

/**
 * The conversation as `Agent: …` / `Lead: …` lines (the form the sandbox and the call records
 * use): from `artifact.messages` (spoken turns only; system prompts and tool calls are left out),
 * else from `artifact.transcript` (Vapi's `AI:` / `User:` lines, relabelled).
 */
function transcriptOf(artifact: Obj): string | undefined {
  const turns: string[] = [];
  if (Array.isArray(artifact.messages)) {
    for (const m of artifact.messages) {
      if (!isObject(m) || typeof m.role !== 'string') continue;
      const who = SPEAKER[m.role];
      const text = typeof m.message === 'string' ? m.message.trim() : '';
      if (who && text) turns.push(`${who}: ${text}`);
    }
  }
  if (turns.length > 0) return turns.join('\n');
  const raw = str(artifact.transcript);
  if (!raw) return undefined;
  return raw
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => l.replace(/^(AI|Assistant|Bot):\s*/i, 'Agent: ').replace(/^(User|Customer):\s*/i, 'Lead: '))
    .join('\n');
}

function recordingUrlOf(artifact: Obj): string | undefined {
  const recording = isObject(artifact.recording) ? artifact.recording : {};
  const mono = isObject(recording.mono) ? recording.mono : {};
  for (const candidate of [artifact.recordingUrl, mono.combinedUrl, artifact.stereoRecordingUrl, recording.stereoUrl]) {
    const url = str(candidate);
    if (url && /^https?:\/\//i.test(url) && URL.canParse(url)) return url;
  }
  return undefined;
}

/** Structured data as recorded fields: scalars as they are, anything else as JSON text. */
function fieldsOf(structured: Obj): { key: string; value: string | number | boolean | null }[] {
  const fields: { key: string; value: string | number | boolean | null }[] = [];
  for (const [key, value] of Object.entries(structured)) {
    // Keys that our record cannot hold (empty, over 100 characters) are left out, not truncated into another key.
    if (key.length === 0 || key.length > RECORDED_KEY_MAX || fields.length >= RECORDED_FIELDS_MAX) continue;
    if (value === undefined) continue;
    const scalar = value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
    fields.push({ key, value: scalar ? (value as string | number | boolean | null) : JSON.stringify(value) });
  }
  return fields;
}

const isoOf = (v: unknown): string | undefined => {
  const s = str(v);
  if (!s) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
};

/**
 * Maps an `end-of-call-report` message (the `message` of the delivery body) to the body of our
 * `call.ended` event (schemas/call.ts `CallEndedEvent`), with Vapi's call id beside it:
 * - `callId`: ours from the call's metadata, else Vapi's `call.id` (a call not placed by us).
 * - `disposition`: `analysis.structuredData[outcomeField]` (through `outcomeMap`, normalised),
 *   else by `endedReason` (see `FAMILY_OUTCOME`). A recorded outcome wins over the reason: the
 *   agent's analysis has heard the call.
 * - `transcript`, `callSummary` (`analysis.summary`), `recordingUrl`, `cost`, `duration` (seconds,
 *   `endedAt - startedAt`), `fields` (`analysis.structuredData`), `phoneNumber`
 *   (`customer.number`), `dateTime` (`endedAt`), `leadName` (`customer.name`), `direction`.
 * Throws MalformedVapiReportError naming every missing piece.
 */
export interface MappedEndOfCallReport {
  /** the body of our `call.ended` event; validates against schemas/call.ts `CallEndedEvent` */
  event: CallEndedEvent;
  /**
   * Vapi's `call.id`. Not in the event: `CallEndedEvent` has no field for it (additionalProperties
   * false), so it travels beside it for the route to log or store.
   */
  platformCallId: string | null;
  /** where the disposition came from */
  outcomeFrom: 'structuredData' | 'endedReason';
  endedReason: string | null;
  endedReasonFamily: EndedReasonFamily | null;
}

export function mapEndOfCallReport(message: unknown, mapping: EndOfCallReportMapping): MappedEndOfCallReport {
  const problems: string[] = [];
  if (!isObject(message)) throw new MalformedVapiReportError(['the message is not an object']);
  if (message.type !== 'end-of-call-report') problems.push(`type is ${JSON.stringify(message.type)}, not "end-of-call-report"`);
  const call = isObject(message.call) ? message.call : undefined;
  if (!call) problems.push('call is missing');
  const artifact = isObject(message.artifact) ? message.artifact : {};
  const analysis = isObject(message.analysis) ? message.analysis : {};
  const structured = isObject(analysis.structuredData) ? analysis.structuredData : {};
  const meta = reportMetadata(message);

  const platformCallId = str(call?.id);
  const callId = meta.callId ?? platformCallId;
  if (!callId) problems.push('call.id is missing (and call.assistantOverrides.metadata.callId too)');
  const campaignId = meta.campaignId ?? mapping.campaignId;
  if (!campaignId) problems.push('call.assistantOverrides.metadata.campaignId is missing (a call not placed by our dialer needs the campaign from the route)');

  const customer = isObject(message.customer) ? message.customer : call && isObject(call.customer) ? call.customer : {};
  const phoneNumber = str(customer.number);
  if (!phoneNumber) problems.push('customer.number is missing');
  else if (!E164.test(phoneNumber)) problems.push(`customer.number ${JSON.stringify(phoneNumber)} is not E.164`);

  const endedAt = isoOf(message.endedAt) ?? isoOf(call?.endedAt);
  const startedAt = isoOf(message.startedAt) ?? isoOf(call?.startedAt);
  const dateTime = endedAt ?? (typeof message.timestamp === 'number' && Number.isFinite(message.timestamp) ? new Date(message.timestamp).toISOString() : undefined);
  if (!dateTime) problems.push('endedAt is missing (and call.endedAt and timestamp too)');

  const endedReason = str(message.endedReason) ?? str(call?.endedReason);
  const recorded = structuredOutcome(structured[mapping.outcomeField], mapping);
  const byReason = endedReason ? classifyEndedReason(endedReason) : null;
  const disposition = recorded ?? byReason?.outcome ?? null;
  if (!disposition) problems.push(`neither analysis.structuredData.${mapping.outcomeField} holds an outcome nor is endedReason present`);

  if (problems.length > 0) throw new MalformedVapiReportError(problems);

  const duration = startedAt && endedAt ? Math.max(0, Date.parse(endedAt) - Date.parse(startedAt)) / 1000 : undefined;
  const costRaw = typeof message.cost === 'number' ? message.cost : call?.cost;
  const cost = typeof costRaw === 'number' && Number.isFinite(costRaw) && costRaw >= 0 ? costRaw : undefined;
  const summary = str(analysis.summary);
  const transcript = transcriptOf(artifact);
  const recordingUrl = recordingUrlOf(artifact);
  const leadName = str(customer.name);
  const type = str(call?.type);

  const event: CallEndedEvent = {
    type: 'call.ended',
    call: {
      callId: callId!,
      campaignId: campaignId!,
      ...(meta.contactId && { contactId: meta.contactId }),
      ...(meta.leadId && { leadId: meta.leadId }),
      phoneNumber: phoneNumber!,
      ...(leadName && { leadName: leadName.slice(0, 200) }),
      direction: type === 'inboundPhoneCall' ? 'inbound' : 'outbound',
      dateTime: dateTime!,
      status: 'ended',
      ...(duration !== undefined && { duration }),
      ...(cost !== undefined && { cost }),
      ...(recordingUrl && { recordingUrl }),
      ...(summary && { callSummary: summary.slice(0, SUMMARY_MAX) }),
      ...(transcript && { transcript: transcript.slice(0, TRANSCRIPT_MAX), transcriptSource: 'vapi' }),
      disposition: disposition!,
      fields: fieldsOf(structured),
    },
  };
  return {
    event,
    platformCallId: platformCallId ?? null,
    outcomeFrom: recorded ? 'structuredData' : 'endedReason',
    endedReason: endedReason ?? null,
    endedReasonFamily: byReason?.family ?? null,
  };
}
