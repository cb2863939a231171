/**
 * Vapi's phone numbers: importing a number the agency bought at Twilio (`POST /phone-number`,
 * `PhoneNumberController_create`, body `CreateTwilioPhoneNumberDTO`) and finding one imported
 * before (`GET /phone-number`), which is how an import whose answer was lost is settled: Vapi
 * takes no idempotency key either.
 */
import { vendorHttp } from '../vendor-http.js';
import { sameNumber } from '../twilio/messages.js';
import type { VapiCreateTwilioPhoneNumber, VapiPhoneNumber } from './types.js';

export interface TwilioImport {
  number: string;
  twilioAccountSid: string;
  twilioAuthToken: string;
  /** shown in Vapi's dashboard (cut to 40) */
  name?: string;
}

export interface VapiNumbers {
  /** imports the number; resolves with its Vapi phone-number id */
  importTwilio(i: TwilioImport): Promise<{ id: string }>;
  /** the Vapi id of this Twilio number of that account, if it was imported */
  findTwilio(number: string, twilioAccountSid: string): Promise<{ id: string } | null>;
}

/** `GET /phone-number` answers at most this many (its documented maximum). */
const LIST_LIMIT = 1000;

export function importTwilioBody(i: TwilioImport): VapiCreateTwilioPhoneNumber {
  const name = i.name?.trim().slice(0, 40);
  return {
    provider: 'twilio',
    number: i.number,
    twilioAccountSid: i.twilioAccountSid,
    twilioAuthToken: i.twilioAuthToken,
    ...(name && { name }),
    // The product sends SMS through Twilio's Messages API; where the number's inbound messages go
    // is the agency's choice, which an import must not overwrite.
    smsEnabled: false,
  };
}

/** The id of `number` (of that Twilio account) in a `GET /phone-number` answer, or null. */
export function importedIdIn(list: unknown, number: string, twilioAccountSid: string): string | null {
  if (!Array.isArray(list)) return null;
  for (const p of list as VapiPhoneNumber[]) {
    if (p?.provider === 'twilio' && typeof p.number === 'string' && sameNumber(p.number, number) && p.twilioAccountSid === twilioAccountSid && typeof p.id === 'string' && p.id) return p.id;
  }
  return null;
}

export function vapiNumbers(opts: { baseUrl: string; apiKey: string; fetch?: typeof fetch; timeoutMs?: number }): VapiNumbers {
  const httpFor = (secrets: string[] = []) =>
    vendorHttp({ vendor: 'vapi', baseUrl: opts.baseUrl, auth: async () => ({ authorization: `Bearer ${opts.apiKey}` }), fetch: opts.fetch, timeoutMs: opts.timeoutMs, secrets });
  return {
    async importTwilio(i) {
      // The Twilio auth token travels in the body: scrubbed from any error, like the API key.
      const made = await httpFor([i.twilioAuthToken]).request<VapiPhoneNumber>({ method: 'POST', path: '/phone-number', json: importTwilioBody(i) });
      // Vapi answered 2xx, so the number is imported; without its id, only a lookup can say which.
      if (typeof made?.id !== 'string' || !made.id) throw new Error('vapi POST /phone-number answered without a phone-number id');
      return { id: made.id };
    },
    async findTwilio(number, twilioAccountSid) {
      const id = importedIdIn(await httpFor().request({ method: 'GET', path: '/phone-number', query: { limit: LIST_LIMIT } }), number, twilioAccountSid);
      return id ? { id } : null;
    },
  };
}
