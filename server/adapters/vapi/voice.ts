/**
 * The Vapi voice platform: places outbound calls with `POST /call` (Vapi API, operation
 * `CallController_create`, body `CreateCallDTO`). Call ends come back as `end-of-call-report`
 * server messages (server-messages.ts), matched to our call by the metadata stored here.
 */
import { CredentialRejectedError, PermanentPortError, RateLimitedError, type EffectJournal, type VoicePlatform } from '../../../engine/ports.js';
import type { VapiCall, VapiCallMetadata, VapiCreateCall } from './types.js';

export const VAPI_VENDOR = 'vapi';

/** Which Vapi assistant and phone number place a campaign's call from a caller ID. */
export interface VapiCallRoute {
  assistantId: string;
  phoneNumberId: string;
}

export interface VapiVoiceOptions {
  /** `https://api.vapi.ai` in production; the fake's address in tests */
  baseUrl: string;
  /** the agency's private API key, read per call (so a rotated key is used at once) */
  apiKey: (agencyId: string) => Promise<string>;
  /**
   * The agent's Vapi assistant and the Vapi phone-number id of the chosen caller ID (one of the
   * campaign's fromNumbers; null when the campaign has none). Throws PermanentPortError when a
   * mapping is missing: retrying cannot create it.
   */
  resolve: (q: { agencyId: string; campaignId: string; from: string | null }) => Promise<VapiCallRoute>;
  /**
   * Exactly-once bookkeeping (engine/ports.ts): Vapi has no idempotency key, so a retried
   * placeCall consults the journal and, after an attempt whose fate is unknown, Vapi's call list.
   */
  journal: EffectJournal;
  fetch?: typeof fetch;
  /** per request; a request that takes longer is abandoned and the activity retried (default 15 s) */
  timeoutMs?: number;
  /**
   * How far before the earlier attempt's start the call list is searched, for the difference
   * between our clock and Vapi's `createdAt` (default 10 minutes).
   */
  lookupSkewMs?: number;
}

export type PlaceCallRequest = Parameters<VoicePlatform['placeCall']>[0];
export type PlacedVapiCall = { callId: string; platformCallId: string };
/** A VoicePlatform whose result always carries Vapi's call id. */
export interface VapiVoicePlatform extends VoicePlatform {
  placeCall(req: PlaceCallRequest): Promise<PlacedVapiCall>;
}

/** A failure whose effect at Vapi is unknown (timeout, 5xx, connection reset): retry, after a lookup. */
export class VapiTransientError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VapiTransientError';
  }
}

const JOURNAL_KIND = 'vapi.call';
const journalKey = (callId: string) => `vapi.call:${callId}`;
const MAX_MESSAGE = 500;
const DEFAULT_RETRY_AFTER_MS = 1_000;
const LIST_LIMIT = 1000;

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date. */
export function retryAfterMs(value: string | null, now = Date.now()): number {
  if (!value) return DEFAULT_RETRY_AFTER_MS;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? DEFAULT_RETRY_AFTER_MS : Math.max(0, at - now);
}

const redact = (text: string, apiKey: string) => (apiKey ? text.split(apiKey).join('[redacted]') : text);

/** Vapi's error text (NestJS form: `{ message: string | string[], error, statusCode }`), short, never the key. */
async function vapiMessage(res: Response, apiKey: string): Promise<string> {
  const text = await res.text().catch(() => '');
  let message = text;
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    if (Array.isArray(body.message)) message = body.message.map(String).join('; ');
    else if (typeof body.message === 'string') message = body.message;
    else if (typeof body.error === 'string') message = body.error;
  } catch {
    // not JSON: the raw text is the message
  }
  message = redact(message.trim() || res.statusText || 'no message', apiKey);
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
}

/**
 * The error an HTTP refusal becomes: 401 -> CredentialRejectedError (the agency must reconnect),
 * 429 -> RateLimitedError (transient, Retry-After), 408 and 5xx -> VapiTransientError, any other
 * 4xx -> PermanentPortError with Vapi's message.
 */
async function refusal(res: Response, what: string, apiKey: string): Promise<Error> {
  const message = `Vapi ${what}: HTTP ${res.status}: ${await vapiMessage(res, apiKey)}`;
  if (res.status === 401) return new CredentialRejectedError(VAPI_VENDOR, message);
  if (res.status === 429) return new RateLimitedError(VAPI_VENDOR, retryAfterMs(res.headers.get('retry-after')), message);
  if (res.status === 408 || res.status >= 500) return new VapiTransientError(message);
  return new PermanentPortError(message);
}

/** Our variables, as Vapi template values: empty ones left out so the assistant's defaults apply. */
function variableValues(vars: PlaceCallRequest['variables']): Record<string, string> | undefined {
  if (!vars) return undefined;
  const out = Object.fromEntries(Object.entries(vars).filter(([, v]) => typeof v === 'string' && v.trim() !== ''));
  return Object.keys(out).length > 0 ? out : undefined;
}

export function createCallBody(req: PlaceCallRequest, route: VapiCallRoute): VapiCreateCall {
  const metadata: VapiCallMetadata = {
    callId: req.callId,
    agencyId: req.agencyId,
    campaignId: req.campaignId,
    contactId: req.contactId,
    ...(req.leadId && { leadId: req.leadId }),
  };
  const values = variableValues(req.variables);
  const fullName = req.variables?.fullName?.trim();
  return {
    assistantId: route.assistantId,
    phoneNumberId: route.phoneNumberId,
    // `customer.name` (max 40) is for display in Vapi's dashboard only.
    customer: { number: req.to, ...(fullName && { name: fullName.slice(0, 40) }) },
    // `name` (max 40) is for display too; it is never used as a key (a longer call id would not fit).
    ...(req.callId.length <= 40 && { name: req.callId }),
    assistantOverrides: { ...(values && { variableValues: values }), metadata },
  };
}

/**
 * A VoicePlatform on Vapi. Idempotency, which Vapi's API does not offer (no idempotency key on
 * `POST /call`, and `GET /call` filters only by id, assistant, phone number and time):
 * - the journal records `pending` before the POST and the Vapi call id after it: a retry of an
 *   accepted call returns that id and places nothing;
 * - a retry that finds `pending` (the earlier attempt timed out, got a 5xx, or its worker died)
 *   lists the calls of the same assistant and phone number created since shortly before that
 *   attempt, and adopts the one whose `assistantOverrides.metadata.callId` is ours;
 * - a definite refusal (4xx, 429) abandons the entry, so the next attempt starts afresh.
 * Left open: a POST that Vapi had not yet committed when the lookup ran (it would have to take
 * longer than the request timeout plus the retry backoff) could be placed twice.
 */
export function vapiVoice(opts: VapiVoiceOptions): VapiVoicePlatform {
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const skewMs = opts.lookupSkewMs ?? 10 * 60_000;
  const base = opts.baseUrl.replace(/\/+$/, '');

  async function request(apiKey: string, method: 'GET' | 'POST', path: string, what: string, body?: unknown): Promise<Response> {
    try {
      return await doFetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json', ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      // Only the error's name and message: the request (and its Authorization header) stays out.
      const e = err as Error;
      const why = e?.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `${e?.name ?? 'Error'}: ${e?.message ?? String(err)}`;
      throw new VapiTransientError(`Vapi ${what}: ${redact(why, apiKey)}`);
    }
  }

  async function json<T>(res: Response, what: string): Promise<T> {
    try {
      return (await res.json()) as T;
    } catch {
      throw new VapiTransientError(`Vapi ${what}: HTTP ${res.status} with a body that is not JSON`);
    }
  }

  /** The call an earlier attempt placed, if Vapi has it. */
  async function findPlaced(apiKey: string, route: VapiCallRoute, req: PlaceCallRequest, since: string): Promise<string | null> {
    const startedAt = Date.parse(since);
    const from = new Date((Number.isNaN(startedAt) ? Date.now() : startedAt) - skewMs).toISOString();
    const q = new URLSearchParams({ assistantId: route.assistantId, phoneNumberId: route.phoneNumberId, createdAtGe: from, limit: String(LIST_LIMIT) });
    const res = await request(apiKey, 'GET', `/call?${q}`, 'list calls');
    if (!res.ok) throw await refusal(res, 'list calls', apiKey);
    const calls = await json<unknown>(res, 'list calls');
    if (!Array.isArray(calls)) throw new VapiTransientError('Vapi list calls: the answer is not a list');
    for (const c of calls as VapiCall[]) {
      const meta = c?.assistantOverrides?.metadata;
      if (meta && meta.callId === req.callId && meta.agencyId === req.agencyId && typeof c.id === 'string') return c.id;
    }
    return null;
  }

  return {
    async placeCall(req) {
      const key = journalKey(req.callId);
      const entry = await opts.journal.lookup(req.agencyId, key);
      if (entry?.state === 'done') return entry.result as PlacedVapiCall;

      const route = await opts.resolve({ agencyId: req.agencyId, campaignId: req.campaignId, from: req.from });
      const apiKey = await opts.apiKey(req.agencyId);

      if (entry?.state === 'pending') {
        const platformCallId = await findPlaced(apiKey, route, req, entry.startedAt);
        if (platformCallId) {
          const placed = { callId: req.callId, platformCallId };
          await opts.journal.complete(req.agencyId, key, JOURNAL_KIND, placed);
          return placed;
        }
      }

      await opts.journal.begin(req.agencyId, key, JOURNAL_KIND);
      const res = await request(apiKey, 'POST', '/call', 'create call', createCallBody(req, route));
      if (!res.ok) {
        const err = await refusal(res, 'create call', apiKey);
        // A 4xx (429 included) means Vapi did not create the call; a 5xx or 408 may have.
        if (!(err instanceof VapiTransientError)) await opts.journal.abandon(req.agencyId, key);
        throw err;
      }
      const call = await json<VapiCall>(res, 'create call');
      if (typeof call?.id !== 'string' || call.id === '') throw new VapiTransientError(`Vapi create call: HTTP ${res.status} without a call id`);
      const placed = { callId: req.callId, platformCallId: call.id };
      await opts.journal.complete(req.agencyId, key, JOURNAL_KIND, placed);
      return placed;
    },
  };
}
