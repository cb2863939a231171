import { randomBytes } from 'node:crypto';
import { startHttpFake, type FakeRequest, type FakeResponse, type HttpFake } from './http-fake.js';

/**
 * A stateful Twilio account (2010-04-01, form-encoded, Basic auth) with Twilio's error bodies and
 * fault injection from http-fake:
 * - Messages: create, and list by To/From, newest first;
 * - phone numbers: a stock of numbers for sale (`stock`) searched by country, area code and
 *   toll-free (`AvailablePhoneNumbers/{country}/Local.json`, `TollFree.json`), bought by
 *   `PhoneNumber` (`POST IncomingPhoneNumbers.json`, which takes the number out of the stock) and
 *   listed by `PhoneNumber` (a pattern, as Twilio matches it) among the account's own (`owned`).
 */

export interface FakeTwilioMessage {
  sid: string;
  account_sid: string;
  to: string;
  from: string | null;
  messaging_service_sid: string | null;
  body: string;
  status: string;
  direction: 'outbound-api' | 'inbound';
  /** RFC 2822, as Twilio writes it */
  date_created: string;
  date_sent: string | null;
}

/** A number for sale. */
export interface FakeStockNumber {
  phoneNumber: string;
  country: 'US' | 'CA';
  tollFree?: boolean;
  locality?: string;
  region?: string;
  /** `none` unless given */
  addressRequirements?: string;
}

/** A number the account bought (an IncomingPhoneNumber resource). */
export interface FakeIncomingNumber {
  sid: string;
  account_sid: string;
  phone_number: string;
  friendly_name: string;
  iso_country: string;
  date_created: string;
  status: 'in-use';
  capabilities: { voice: boolean; sms: boolean; mms: boolean; fax: boolean };
}

export interface TwilioFake extends HttpFake {
  messages: FakeTwilioMessage[];
  /** numbers for sale; a purchase removes one */
  stock: FakeStockNumber[];
  /** numbers the account bought, in order */
  owned: FakeIncomingNumber[];
  /** a refusal a purchase meets before anything is bought (an unverified account, a missing regulatory bundle), or null */
  refusePurchase: ((n: FakeStockNumber) => { status: number; code: number; message: string } | null) | null;
}

/** Ten numbers in each area code (NXX 555, lines 01xx), deterministic. */
export function stockOf(country: 'US' | 'CA', areaCodes: number[], opts: { tollFree?: boolean; region?: string } = {}): FakeStockNumber[] {
  return areaCodes.flatMap((area) => Array.from({ length: 10 }, (_, i) => ({ phoneNumber: `+1${area}5550${String(100 + i * 7).padStart(3, '0')}`, country, ...(opts.tollFree && { tollFree: true }), ...(opts.region && { region: opts.region }) })));
}

const E164 = /^\+[1-9]\d{6,14}$/;
const rfc2822 = (d: Date) => d.toUTCString().replace('GMT', '+0000');
const twilioError = (status: number, code: number, message: string): FakeResponse => ({
  status,
  body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
});

export async function startTwilioFake(opts: { accountSid: string; authToken: string; stock?: FakeStockNumber[] }): Promise<TwilioFake> {
  const messages: FakeTwilioMessage[] = [];
  const stock: FakeStockNumber[] = [...(opts.stock ?? [])];
  const owned: FakeIncomingNumber[] = [];
  // the fake itself, once made: tests set `refusePurchase` on it
  let self: TwilioFake | undefined;
  const digits = (v: string) => v.replace(/\D/g, '');
  const search = (tollFree: boolean) => (r: FakeRequest, p: Record<string, string>): FakeResponse => {
    if (p.accountSid !== opts.accountSid) return twilioError(404, 20404, 'The requested resource was not found');
    const areaCode = r.query.get('AreaCode');
    const size = Number(r.query.get('PageSize') ?? 50);
    const found = stock
      .filter((n) => n.country === p.country && !!n.tollFree === tollFree && (!areaCode || n.phoneNumber.startsWith(`+1${areaCode}`)))
      .slice(0, size)
      .map((n) => ({
        friendly_name: `(${n.phoneNumber.slice(2, 5)}) ${n.phoneNumber.slice(5, 8)}-${n.phoneNumber.slice(8)}`,
        phone_number: n.phoneNumber,
        lata: null,
        locality: n.locality ?? null,
        rate_center: null,
        latitude: null,
        longitude: null,
        region: n.region ?? null,
        postal_code: null,
        iso_country: n.country,
        address_requirements: n.addressRequirements ?? 'none',
        beta: false,
        capabilities: { voice: true, SMS: true, MMS: !tollFree },
      }));
    return { status: 200, body: { available_phone_numbers: found, uri: r.path } };
  };
  const expectedAuth = `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64')}`;
  const http = await startHttpFake({
    errorBody: (status, message) => ({ code: status === 401 ? 20003 : status === 429 ? 20429 : 20500, message, more_info: 'https://www.twilio.com/docs/errors', status }),
    gate: (r) => (r.headers.authorization === expectedAuth ? null : twilioError(401, 20003, 'Authenticate')),
    routes: [
      {
        method: 'POST',
        path: '/2010-04-01/Accounts/:accountSid/Messages.json',
        handler: (r, p) => {
          if (p.accountSid !== opts.accountSid) return twilioError(404, 20404, 'The requested resource was not found');
          const f = (r.body ?? {}) as Record<string, string>;
          if (!f.To) return twilioError(400, 21604, "A 'To' phone number is required.");
          if (!E164.test(f.To)) return twilioError(400, 21211, `The 'To' number ${f.To} is not a valid phone number.`);
          if (!f.From && !f.MessagingServiceSid) return twilioError(400, 21603, "A 'From' phone number is required.");
          if (!f.Body) return twilioError(400, 21602, 'Message body is required.');
          const now = new Date();
          const m: FakeTwilioMessage = {
            sid: `SM${randomBytes(16).toString('hex')}`,
            account_sid: opts.accountSid,
            to: f.To,
            from: f.From ?? null,
            messaging_service_sid: f.MessagingServiceSid ?? null,
            body: f.Body,
            status: 'queued',
            direction: 'outbound-api',
            date_created: rfc2822(now),
            // still queued: Twilio has not sent it yet
            date_sent: null,
          };
          messages.push(m);
          return { status: 201, body: m };
        },
      },
      {
        method: 'GET',
        path: '/2010-04-01/Accounts/:accountSid/Messages.json',
        handler: (r, p) => {
          if (p.accountSid !== opts.accountSid) return twilioError(404, 20404, 'The requested resource was not found');
          const to = r.query.get('To');
          const from = r.query.get('From');
          const size = Number(r.query.get('PageSize') ?? 50);
          const list = messages.filter((m) => (!to || m.to === to) && (!from || m.from === from)).reverse().slice(0, size);
          return { status: 200, body: { messages: list, page: 0, page_size: size, start: 0, end: list.length - 1, next_page_uri: null, previous_page_uri: null } };
        },
      },
      { method: 'GET', path: '/2010-04-01/Accounts/:accountSid/AvailablePhoneNumbers/:country/Local.json', handler: search(false) },
      { method: 'GET', path: '/2010-04-01/Accounts/:accountSid/AvailablePhoneNumbers/:country/TollFree.json', handler: search(true) },
      {
        method: 'POST',
        path: '/2010-04-01/Accounts/:accountSid/IncomingPhoneNumbers.json',
        handler: (r, p) => {
          if (p.accountSid !== opts.accountSid) return twilioError(404, 20404, 'The requested resource was not found');
          const f = (r.body ?? {}) as Record<string, string>;
          if (!f.PhoneNumber) return twilioError(400, 21450, 'PhoneNumber or AreaCode is required.');
          const i = stock.findIndex((n) => n.phoneNumber === f.PhoneNumber);
          if (i < 0) return twilioError(400, 21422, `The phone number ${f.PhoneNumber} is not available.`);
          const refusal = self?.refusePurchase?.(stock[i]!);
          if (refusal) return twilioError(refusal.status, refusal.code, refusal.message);
          const [n] = stock.splice(i, 1);
          const bought: FakeIncomingNumber = {
            sid: `PN${randomBytes(16).toString('hex')}`,
            account_sid: opts.accountSid,
            phone_number: n!.phoneNumber,
            friendly_name: f.FriendlyName ?? n!.phoneNumber,
            iso_country: n!.country,
            date_created: rfc2822(new Date()),
            status: 'in-use',
            capabilities: { voice: true, sms: true, mms: !n!.tollFree, fax: false },
          };
          owned.push(bought);
          return { status: 201, body: bought };
        },
      },
      {
        method: 'GET',
        path: '/2010-04-01/Accounts/:accountSid/IncomingPhoneNumbers.json',
        handler: (r, p) => {
          if (p.accountSid !== opts.accountSid) return twilioError(404, 20404, 'The requested resource was not found');
          const pattern = digits(r.query.get('PhoneNumber') ?? '');
          const size = Number(r.query.get('PageSize') ?? 50);
          const list = owned.filter((n) => digits(n.phone_number).includes(pattern)).slice(0, size);
          return { status: 200, body: { incoming_phone_numbers: list, page: 0, page_size: size, start: 0, end: list.length - 1, next_page_uri: null, previous_page_uri: null } };
        },
      },
    ],
  });
  const fake: TwilioFake = Object.assign(http, { messages, stock, owned, refusePurchase: null });
  self = fake;
  return fake;
}
