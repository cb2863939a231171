import { vendorHttp, type VendorHttp } from '../vendor-http.js';

export const TWILIO_BASE_URL = 'https://api.twilio.com';

/** What every Twilio adapter needs to reach one account. */
export interface TwilioAccount {
  baseUrl?: string;
  accountSid: string;
  authToken: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** The REST API 2010-04-01 with Basic auth (account SID and auth token), through vendor-http. */
export function twilioHttp(a: TwilioAccount): VendorHttp {
  return vendorHttp({
    vendor: 'twilio',
    baseUrl: a.baseUrl ?? TWILIO_BASE_URL,
    auth: async () => ({ authorization: `Basic ${Buffer.from(`${a.accountSid}:${a.authToken}`).toString('base64')}` }),
    fetch: a.fetch,
    timeoutMs: a.timeoutMs,
  });
}

/** `/2010-04-01/Accounts/{AccountSid}`, the root of every resource of the account. */
export const accountPath = (accountSid: string) => `/2010-04-01/Accounts/${encodeURIComponent(accountSid)}`;
