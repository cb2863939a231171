import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialRejectedError, PermanentPortError, RateLimitedError, VendorTimeoutError } from '../../engine/ports.js';
import { NUMBER_NOT_AVAILABLE, twilioNumbers, type TwilioNumbers } from '../../server/adapters/twilio/numbers.js';
import { pickAvailable, toAvailableNumbers } from '../../server/adapters/twilio/number-resources.js';
import { VendorRefusedError } from '../../server/adapters/vendor-http.js';
import { startTwilioFake, stockOf, type TwilioFake } from '../fakes/twilio-fake.js';

/** Twilio's phone-number resources (search, buy, find) against the stateful fake. */

const ACCOUNT = 'AC0123456789abcdef0123456789abcdef';
const AUTH_TOKEN = 'f00dfeedcafe4b1d9e8f7a6b5c4d3e2f';
const ROOT = `/2010-04-01/Accounts/${ACCOUNT}`;

let fake: TwilioFake;
let twilio: TwilioNumbers;

async function failure(p: Promise<unknown>): Promise<Error> {
  const e = await p.then(
    () => {
      throw new Error('expected a failure');
    },
    (x: unknown) => x as Error,
  );
  expect(e.message).not.toContain(AUTH_TOKEN);
  return e;
}

beforeAll(async () => {
  fake = await startTwilioFake({ accountSid: ACCOUNT, authToken: AUTH_TOKEN, stock: [...stockOf('US', [512, 737], { region: 'TX' }), ...stockOf('CA', [416]), ...stockOf('US', [888], { tollFree: true })] });
  twilio = twilioNumbers({ baseUrl: fake.url, accountSid: ACCOUNT, authToken: AUTH_TOKEN, timeoutMs: 5_000 });
});
afterAll(async () => {
  await fake?.close();
});

describe('Twilio phone numbers', () => {
  it('searches local numbers by country and area code, voice-capable, one page', async () => {
    const found = await twilio.search({ countryCode: 'US', tollFree: false, areaCode: 737, limit: 3 });
    expect(found.map((n) => n.phoneNumber)).toEqual(['+17375550100', '+17375550107', '+17375550114']);
    expect(found[0]).toMatchObject({ isoCountry: 'US', region: 'TX', addressRequirements: 'none', voice: true, sms: true });
    const req = fake.requests.at(-1)!;
    expect(`${req.method} ${req.path}?${req.query}`).toBe(`GET ${ROOT}/AvailablePhoneNumbers/US/Local.json?AreaCode=737&VoiceEnabled=true&PageSize=3`);
  });

  it('searches toll-free numbers; an area code that is no toll-free prefix is not passed on', async () => {
    expect((await twilio.search({ countryCode: 'US', tollFree: true, areaCode: 512, limit: 2 })).map((n) => n.phoneNumber)).toEqual(['+18885550100', '+18885550107']);
    expect(fake.requests.at(-1)!.path).toBe(`${ROOT}/AvailablePhoneNumbers/US/TollFree.json`);
    expect(fake.requests.at(-1)!.query.has('AreaCode')).toBe(false);
    expect(await twilio.search({ countryCode: 'US', tollFree: true, areaCode: 800, limit: 2 })).toEqual([]);
    expect(fake.requests.at(-1)!.query.get('AreaCode')).toBe('800');
  });

  it('buys exactly the number asked for, form-encoded, and finds it among the account\'s own afterwards', async () => {
    expect(await twilio.find('+15125550100')).toBeNull();
    const bought = await twilio.buy('+15125550100', 'Front desk');
    expect(bought).toEqual({ sid: expect.stringMatching(/^PN[0-9a-f]{32}$/), phoneNumber: '+15125550100', friendlyName: 'Front desk' });
    const req = fake.requests.at(-1)!;
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.body).toEqual({ PhoneNumber: '+15125550100', FriendlyName: 'Front desk' });
    expect(fake.owned.map((n) => n.phone_number)).toEqual(['+15125550100']);
    expect(await twilio.find('+15125550100')).toEqual(bought);
    expect(fake.requests.at(-1)!.query.get('PhoneNumber')).toBe('+15125550100');
    // Twilio's PhoneNumber filter is a pattern: a number that merely contains the digits is not ours.
    expect(await twilio.find('+1512555010')).toBeNull();
  });

  it('a number no longer for sale is refused with Twilio\'s code 21422 and message', async () => {
    const err = await failure(twilio.buy('+15125550100'));
    expect(err).toBeInstanceOf(VendorRefusedError);
    expect((err as VendorRefusedError).vendorCode).toBe(NUMBER_NOT_AVAILABLE);
    expect((err as VendorRefusedError).vendorMessage).toBe('The phone number +15125550100 is not available. (code 21422)');
  });

  it('a refusal before the purchase (a regulatory bundle missing) keeps the vendor\'s words and buys nothing', async () => {
    fake.refusePurchase = (n) => (n.country === 'CA' ? { status: 400, code: 21649, message: 'A regulatory Bundle is required to buy this Canadian number.' } : null);
    try {
      const err = await failure(twilio.buy('+14165550100'));
      expect(err).toBeInstanceOf(PermanentPortError);
      expect(err.message).toContain('A regulatory Bundle is required to buy this Canadian number. (code 21649)');
      expect(fake.owned.map((n) => n.phone_number)).not.toContain('+14165550100');
    } finally {
      fake.refusePurchase = null;
    }
  });

  it('a timeout after Twilio bought leaves the number at the account, where find sees it', async () => {
    const impatient = twilioNumbers({ baseUrl: fake.url, accountSid: ACCOUNT, authToken: AUTH_TOKEN, timeoutMs: 300 });
    fake.inject({ method: 'POST', path: `${ROOT}/IncomingPhoneNumbers.json`, kind: 'hang' });
    expect(await failure(impatient.buy('+17375550100'))).toBeInstanceOf(VendorTimeoutError);
    expect(await twilio.find('+17375550100')).toMatchObject({ phoneNumber: '+17375550100', sid: fake.owned.at(-1)!.sid });
  });

  it('401 is a rejected credential, 429 waits Retry-After, 500 is transient (outcome unknown)', async () => {
    fake.inject({ path: `${ROOT}/IncomingPhoneNumbers.json`, kind: 'status', status: 401, message: 'Authenticate' });
    expect(await failure(twilio.buy('+17375550107'))).toBeInstanceOf(CredentialRejectedError);
    fake.inject({ path: `${ROOT}/IncomingPhoneNumbers.json`, kind: 'status', status: 429, retryAfter: '3' });
    const limited = await failure(twilio.buy('+17375550107'));
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect((limited as RateLimitedError).retryAfterMs).toBe(3000);
    fake.inject({ path: `${ROOT}/IncomingPhoneNumbers.json`, kind: 'status', status: 500 });
    const down = await failure(twilio.buy('+17375550107'));
    expect(down).not.toBeInstanceOf(PermanentPortError);
    expect(down).not.toBeInstanceOf(RateLimitedError);
  });
});

describe('reading Twilio number resources', () => {
  const offer = (phone_number: string | null, address_requirements: string | null) => ({ phone_number, address_requirements, capabilities: { voice: true, SMS: false } });
  it('skips entries without a number and prefers one that needs no address on file', () => {
    const list = toAvailableNumbers({ available_phone_numbers: [offer(null, 'none'), offer('+15125550001', 'local'), offer('+15125550002', 'none')] });
    expect(list.map((n) => [n.phoneNumber, n.voice, n.sms])).toEqual([['+15125550001', true, false], ['+15125550002', true, false]]);
    expect(pickAvailable(list)!.phoneNumber).toBe('+15125550002');
    expect(pickAvailable(list.slice(0, 1))!.phoneNumber).toBe('+15125550001');
    expect(pickAvailable([])).toBeNull();
  });
});
