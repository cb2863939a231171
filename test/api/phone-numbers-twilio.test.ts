/**
 * Buying a caller ID with the agency's Twilio account (spec 4.5, issue 41), through the API, against
 * stateful fakes of Twilio (numbers for sale, purchases, the account's numbers) and Vapi (imports,
 * bodies held to Vapi's CreateTwilioPhoneNumberDTO): the number is searched and bought at Twilio,
 * stored with its SID, imported into Vapi and put on the campaign; it is never bought twice, and
 * whatever a failure leaves is finished by the retry with the same Idempotency-Key.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeVoice } from '../../server/compose.js';
import { createLogger } from '../../server/logger.js';
import { startTwilioFake, stockOf, type TwilioFake } from '../fakes/twilio-fake.js';
import { startVapiFake, type VapiFake } from '../fakes/vapi-fake.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { rowsOf } from '../helpers/state.js';
import { vapiViolations } from '../helpers/vapi-schemas.js';

const ACCOUNT = 'AC41aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const AUTH_TOKEN = 'twilio-issue-41-auth-token-7f3c';
const ASSISTANT = 'c1a2b3c4-0000-4000-8000-0000000a5541';
const ROOT = `/2010-04-01/Accounts/${ACCOUNT}`;
const PURCHASES = `${ROOT}/IncomingPhoneNumbers.json`;
const BUY = '/api/agent-builder/phone-numbers';

let twilio: TwilioFake;
let vapi: VapiFake;
let h: Harness;
let ctx: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
const logs: string[] = [];
let seq = 0;

beforeAll(async () => {
  twilio = await startTwilioFake({
    accountSid: ACCOUNT,
    authToken: AUTH_TOKEN,
    stock: [...stockOf('US', [512, 737], { region: 'TX' }), ...stockOf('CA', [416], { region: 'ON' }), ...stockOf('US', [888], { tollFree: true })],
  });
  // Vapi checks with Twilio that the account owns what it imports.
  vapi = await startVapiFake({ assistants: [ASSISTANT], twilioOwns: ({ accountSid, authToken, number }) => accountSid === ACCOUNT && authToken === AUTH_TOKEN && twilio.owned.some((n) => n.phone_number === number) });
  const logSink = new Writable({ write: (chunk, _enc, done) => (logs.push(String(chunk)), done()) });
  h = await createHarness({ config: { twilioBaseUrl: twilio.url, vapiBaseUrl: vapi.url, vendorTimeoutMs: 1_000, logLevel: 'debug' }, logSink });
  ctx = await createProjectAgentCampaign(h);
  expect((await h.api('PUT', '/api/agency/credentials/twilio', { body: { accountSid: ACCOUNT, authToken: AUTH_TOKEN } })).status).toBe(200);
  expect((await h.api('PUT', '/api/agency/credentials/vapi', { body: { apiKey: vapi.apiKey } })).status).toBe(200);
  expect((await h.api('PATCH', '/api/agency', { body: { voicePlatform: 'vapi' } })).status).toBe(200);
});
afterAll(async () => {
  await h?.close();
  await twilio?.close();
  await vapi?.close();
});

const key = () => `buy-41-${++seq}`;
const buy = (body: Record<string, unknown>, idempotencyKey: string | null = key()) =>
  h.api('POST', BUY, { body: { campaignId: ctx.campaignId, ...body }, ...(idempotencyKey && { headers: { 'Idempotency-Key': idempotencyKey } }) });
const twilioCalls = (from: number) => twilio.requests.slice(from).map((r) => `${r.method} ${r.path}${[...r.query].length ? `?${r.query}` : ''}`);
const fromNumbers = async () => (await h.store.campaigns.get(h.agencyId, ctx.campaignId))!.fromNumbers;
const purchase = (k: string) => h.db.prepare('SELECT state, phone_number, twilio_sid, vapi_phone_number_id, attempts FROM number_purchases WHERE agency_id = ? AND purchase_key = ?').get(h.agencyId, k);
const NUMBER_TABLES = ['phone_numbers', 'campaigns', 'number_purchases', 'idempotency_keys'];

describe('buying at Twilio, importing into Vapi', () => {
  it('a buy: searches the area code, buys the first number, stores it with its SID, imports it into Vapi, assigns it', async () => {
    const from = twilio.requests.length;
    const k = key();
    const r = await buy({ areaCode: 512, nickname: 'Front desk' }, k);
    expect(r.status, r.text).toBe(200);
    const bought = twilio.owned.at(-1)!;
    const imported = vapi.imported.at(-1)!;
    expect(r.body.phoneNumber).toEqual({ phoneNumber: '+15125550100', pretty: '(512) 555-0100', nickname: 'Front desk', boundToAgent: false, twilioSid: bought.sid, vapiPhoneNumberId: imported.number.id });
    expect(twilioCalls(from)).toEqual([`GET ${ROOT}/AvailablePhoneNumbers/US/Local.json?AreaCode=512&VoiceEnabled=true&PageSize=20`, `POST ${PURCHASES}`]);
    expect(twilio.requests.at(-1)!.body).toEqual({ PhoneNumber: '+15125550100', FriendlyName: 'Front desk' });
    expect(bought).toMatchObject({ phone_number: '+15125550100', friendly_name: 'Front desk' });
    // The import Vapi received is its own CreateTwilioPhoneNumberDTO, with the agency's Twilio account.
    expect(vapi.violations).toEqual([]);
    expect(vapiViolations('CreateTwilioPhoneNumberDTO', imported.request)).toEqual([]);
    expect(imported.request).toEqual({ provider: 'twilio', number: '+15125550100', twilioAccountSid: ACCOUNT, twilioAuthToken: AUTH_TOKEN, name: 'Front desk', smsEnabled: false });
    expect(await h.store.phoneNumbers.get(h.agencyId, '+15125550100')).toMatchObject({ twilioSid: bought.sid, vapiPhoneNumberId: imported.number.id, nickname: 'Front desk' });
    expect((await fromNumbers())).toContain('+15125550100');
    expect(purchase(k)).toEqual({ state: 'done', phone_number: '+15125550100', twilio_sid: bought.sid, vapi_phone_number_id: imported.number.id, attempts: 1 });
    expect(r.text).not.toContain(AUTH_TOKEN);

    // The same key replays the first answer and asks no vendor anything.
    const [twilioBefore, vapiBefore] = [twilio.requests.length, vapi.requests.length];
    const again = await buy({ areaCode: 512, nickname: 'Front desk' }, k);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(r.body);
    expect([twilio.requests.length, vapi.requests.length]).toEqual([twilioBefore, vapiBefore]);
  });

  it('the dialer places a call from the bought number at once, with the Vapi id stored for it', async () => {
    expect((await h.api('PATCH', `/api/agent-builder/agents/${ctx.agentId}`, { body: { vapiAssistantId: ASSISTANT } })).status).toBe(200);
    const voice = composeVoice(h.services.config, h.store, createLogger('silent'), () => h.url, h.services.credentials);
    try {
      const placed = await voice.placeCall({ agencyId: h.agencyId, callId: 'call_41_first', campaignId: ctx.campaignId, contactId: 'ct_41', to: '+15125550177', from: '+15125550100' });
      expect(placed.platform).toBe('vapi');
      expect(vapi.violations).toEqual([]);
      expect(vapi.calls.at(-1)!.request).toMatchObject({ phoneNumberId: (await h.store.phoneNumbers.get(h.agencyId, '+15125550100'))!.vapiPhoneNumberId, customer: { number: '+15125550177' } });
    } finally {
      voice.close();
    }
  });

  it('a buy by a chosen number: the search route lists what is for sale, and the purchase buys exactly the one chosen', async () => {
    const list = await h.api('GET', '/api/agent-builder/available-phone-numbers?areaCode=737&limit=3');
    expect(list.status, list.text).toBe(200);
    expect(list.body).toEqual({
      success: true,
      carrier: 'twilio',
      data: ['+17375550100', '+17375550107', '+17375550114'].map((n) => ({ phoneNumber: n, pretty: `(737) 555-0${n.slice(-3)}`, countryCode: 'US', tollFree: false, locality: null, region: 'TX' })),
    });
    const tollFree = await h.api('GET', '/api/agent-builder/available-phone-numbers?tollFree=true&limit=1');
    expect(tollFree.body.data).toEqual([{ phoneNumber: '+18885550100', pretty: '(888) 555-0100', countryCode: 'US', tollFree: true, locality: null, region: null }]);
    // An area code says its country: 416 searches Canada.
    const toronto = await h.api('GET', '/api/agent-builder/available-phone-numbers?areaCode=416&limit=1');
    expect(toronto.body.data[0]).toMatchObject({ phoneNumber: '+14165550100', countryCode: 'CA' });

    const from = twilio.requests.length;
    const r = await buy({ phoneNumber: '+17375550114' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.phoneNumber.phoneNumber).toBe('+17375550114');
    // No search: the number was chosen.
    expect(twilioCalls(from)).toEqual([`POST ${PURCHASES}`]);
    expect(twilio.requests.at(-1)!.body).toMatchObject({ PhoneNumber: '+17375550114' });
    expect(twilio.owned.at(-1)!.phone_number).toBe('+17375550114');
    expect((await fromNumbers())).toContain('+17375550114');
  });

  it('no number available: a 409 naming what was asked, nothing bought, stored or recorded', async () => {
    const before = rowsOf(h.db, NUMBER_TABLES);
    const owned = twilio.owned.length;
    const none = await buy({ areaCode: 999 });
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ error: 'CONFLICT', code: 'NumberUnavailable', message: 'no number available at Twilio for area code 999 in US; nothing was bought' });
    const canada = await buy({ countryCode: 'CA', areaCode: 604 });
    expect(canada.body).toMatchObject({ code: 'NumberUnavailable', message: 'no number available at Twilio for area code 604 in CA; nothing was bought' });
    const tollFree = await buy({ tollFree: true, areaCode: 800 });
    expect(tollFree.body.message).toBe('no number available at Twilio for toll-free numbers (800) in US; nothing was bought');
    // A chosen number already sold (here, to this agency): Twilio's refusal, named.
    const sold = await buy({ phoneNumber: '+15125550100' });
    expect(sold.status).toBe(409);
    expect(sold.body).toMatchObject({ code: 'NumberUnavailable', message: '+15125550100 is not available at Twilio: The phone number +15125550100 is not available. (code 21422); nothing was bought' });
    const wrongCountry = await buy({ phoneNumber: '+15125550107', countryCode: 'CA' });
    expect(wrongCountry.body).toMatchObject({ code: 'NumberUnavailable', message: '+15125550107 is not a CA number; nothing was bought' });
    expect(twilio.owned).toHaveLength(owned);
    expect(rowsOf(h.db, NUMBER_TABLES)).toEqual(before);
  });

  it("a vendor refusal (a regulatory bundle missing for CA) is a 409 with Twilio's message; nothing is bought or kept", async () => {
    twilio.refusePurchase = (n) => (n.country === 'CA' ? { status: 400, code: 21649, message: 'A regulatory Bundle is required to buy this Canadian number.' } : null);
    try {
      const before = rowsOf(h.db, NUMBER_TABLES);
      const r = await buy({ countryCode: 'CA' });
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ error: 'CONFLICT', code: 'VendorRefused', message: 'Twilio refused to sell +14165550100: A regulatory Bundle is required to buy this Canadian number. (code 21649); nothing was bought' });
      expect(twilio.owned.some((n) => n.iso_country === 'CA')).toBe(false);
      expect(rowsOf(h.db, NUMBER_TABLES)).toEqual(before);
    } finally {
      twilio.refusePurchase = null;
    }
  });

  it('an unreachable or rate-limiting Twilio is a 503 with Retry-After; nothing is bought', async () => {
    const before = rowsOf(h.db, NUMBER_TABLES);
    twilio.inject({ method: 'GET', path: `${ROOT}/AvailablePhoneNumbers/US/Local.json`, kind: 'status', status: 502 });
    const down = await buy({ areaCode: 737 });
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect(down.body).toMatchObject({ error: 'ServiceUnavailable' });
    expect(down.body.message).toMatch(/^Twilio could not be reached to search for area code 737 in US \(.*HTTP 502.*\); nothing was bought; retry in 5 s$/);
    twilio.inject({ method: 'POST', path: PURCHASES, kind: 'status', status: 429, retryAfter: '7' });
    const limited = await buy({ areaCode: 737 });
    expect(limited.status).toBe(503);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(limited.body.message).toMatch(/^Twilio asks us to slow down \(.*\); \+1737\d{7} was not bought: retry with the header Idempotency-Key: buy-41-\d+ in 7 s$/);
    const list = await (async () => {
      twilio.inject({ method: 'GET', path: `${ROOT}/AvailablePhoneNumbers/US/TollFree.json`, kind: 'status', status: 503 });
      return h.api('GET', '/api/agent-builder/available-phone-numbers?tollFree=true');
    })();
    expect(list.status).toBe(503);
    expect(list.headers.get('retry-after')).toBe('5');
    expect(list.body.message).toMatch(/^Twilio could not be reached to search for toll-free numbers in US \(.*HTTP 503.*\); retry in 5 s$/);
    // The 429 left its intent (Twilio asked us to wait, it did not say no): the key resumes it.
    expect(rowsOf(h.db, ['phone_numbers', 'campaigns'])).toEqual({ phone_numbers: before.phone_numbers, campaigns: before.campaigns });
  });
});

describe('never bought twice', () => {
  it('a timeout after Twilio bought: the retry finds the number at Twilio; one number at Twilio, one stored, one imported', async () => {
    const k = key();
    const body = { areaCode: 737 };
    twilio.inject({ method: 'POST', path: PURCHASES, kind: 'hang' });
    const [ownedBefore, importedBefore] = [twilio.owned.length, vapi.imported.length];
    const lost = await buy(body, k);
    expect(lost.status).toBe(503);
    expect(lost.headers.get('retry-after')).toBe('5');
    const number = purchase(k) as { phone_number: string; state: string };
    expect(number.state).toBe('buying');
    expect(lost.body.message).toContain(`the purchase of ${number.phone_number} at Twilio did not complete`);
    expect(lost.body.message).toContain(`retry with the header Idempotency-Key: ${k}`);
    // Twilio bought it; the product has not stored it yet.
    expect(twilio.owned).toHaveLength(ownedBefore + 1);
    expect(await h.store.phoneNumbers.get(h.agencyId, number.phone_number)).toBeUndefined();

    // Another request under the unfinished purchase's key is refused, not bought.
    const other = await buy({ areaCode: 512 }, k);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('IdempotencyKeyReused');

    const from = twilio.requests.length;
    const retry = await buy(body, k);
    expect(retry.status, retry.text).toBe(200);
    expect(twilioCalls(from)).toEqual([`GET ${PURCHASES}?PhoneNumber=${encodeURIComponent(number.phone_number)}&PageSize=50`]);
    expect(twilio.owned).toHaveLength(ownedBefore + 1);
    expect(twilio.owned.filter((n) => n.phone_number === number.phone_number)).toHaveLength(1);
    expect((await h.store.phoneNumbers.list(h.agencyId)).filter((n) => n.phoneNumber === number.phone_number)).toEqual([expect.objectContaining({ twilioSid: twilio.owned.at(-1)!.sid })]);
    expect(vapi.imported.slice(importedBefore).map((p) => p.number.number)).toEqual([number.phone_number]);
    expect(retry.body.phoneNumber).toMatchObject({ phoneNumber: number.phone_number, vapiPhoneNumberId: vapi.imported.at(-1)!.number.id });
    expect(purchase(k)).toMatchObject({ state: 'done', attempts: 2 });
  });

  it('a 500 before Twilio bought: the retry looks, finds nothing, and buys once', async () => {
    const k = key();
    twilio.inject({ method: 'POST', path: PURCHASES, kind: 'status', status: 500 });
    const owned = twilio.owned.length;
    expect((await buy({ areaCode: 737 }, k)).status).toBe(503);
    expect(twilio.owned).toHaveLength(owned);
    const from = twilio.requests.length;
    expect((await buy({ areaCode: 737 }, k)).status).toBe(200);
    expect(twilioCalls(from)).toEqual([expect.stringMatching(new RegExp(`^GET ${PURCHASES}\\?PhoneNumber=`)), `POST ${PURCHASES}`]);
    expect(twilio.owned).toHaveLength(owned + 1);
  });

  it('Twilio bought, the Vapi import was lost: the number is stored, not on the campaign; the retry finds the import and assigns, buying nothing', async () => {
    const k = key();
    vapi.inject('POST /phone-number', { kind: 'accept-then-hang' });
    const [owned, imported] = [twilio.owned.length, vapi.imported.length];
    const lost = await buy({ areaCode: 512 }, k);
    expect(lost.status).toBe(503);
    const n = twilio.owned.at(-1)!.phone_number;
    expect(lost.body.message).toContain(`Twilio bought ${n}, which is now the agency's number (not yet on the campaign); its import into Vapi did not complete`);
    expect(await h.store.phoneNumbers.get(h.agencyId, n)).toMatchObject({ twilioSid: twilio.owned.at(-1)!.sid });
    expect((await h.store.phoneNumbers.get(h.agencyId, n))!.vapiPhoneNumberId).toBeUndefined();
    expect((await fromNumbers())).not.toContain(n);
    expect(purchase(k)).toMatchObject({ state: 'importing' });

    const [twilioFrom, vapiFrom] = [twilio.requests.length, vapi.requests.length];
    const retry = await buy({ areaCode: 512 }, k);
    expect(retry.status, retry.text).toBe(200);
    expect(twilio.requests.length).toBe(twilioFrom);
    expect(vapi.requests.slice(vapiFrom).map((x) => x.route)).toEqual(['GET /phone-number']);
    expect(twilio.owned).toHaveLength(owned + 1);
    expect(vapi.imported).toHaveLength(imported + 1);
    expect(retry.body.phoneNumber.vapiPhoneNumberId).toBe(vapi.imported.at(-1)!.number.id);
    expect((await fromNumbers())).toContain(n);
  });

  it("Vapi refuses the import: a 409 with Vapi's message saying the number is the agency's; the retry imports it, buying nothing", async () => {
    const k = key();
    vapi.inject('POST /phone-number', { kind: 'status', status: 400, message: 'Twilio Number Already Has A Voice URL Owned By Another App.' });
    const owned = twilio.owned.length;
    const refused = await buy({ tollFree: true }, k);
    expect(refused.status).toBe(409);
    const n = twilio.owned.at(-1)!.phone_number;
    expect(refused.body).toMatchObject({ code: 'VendorRefused' });
    expect(refused.body.message).toContain(`Twilio bought ${n}, which is now the agency's number (not yet on the campaign); Vapi refused to import it: Twilio Number Already Has A Voice URL Owned By Another App.`);
    expect(refused.body.message).toContain(`retry with the header Idempotency-Key: ${k}`);
    expect(purchase(k)).toMatchObject({ state: 'bought' });
    const retry = await buy({ tollFree: true }, k);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body.phoneNumber.phoneNumber).toBe(n);
    expect(twilio.owned).toHaveLength(owned + 1);
  });

  it('two concurrent buys with one Idempotency-Key: one purchase; the second is told the first is in progress, a later one replays it', async () => {
    const k = key();
    let release!: () => void;
    twilio.inject({ method: 'GET', path: `${ROOT}/AvailablePhoneNumbers/US/Local.json`, kind: 'hold', until: new Promise<void>((r) => (release = r)) });
    const searched = twilio.received({ method: 'GET', path: `${ROOT}/AvailablePhoneNumbers/US/Local.json` });
    const owned = twilio.owned.length;
    const purchasesBefore = twilio.requests.filter((r) => r.method === 'POST' && r.path === PURCHASES).length;
    const first = buy({ areaCode: 737 }, k);
    await searched;
    const second = await buy({ areaCode: 737 }, k);
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('IdempotencyKeyInProgress');
    release();
    const done = await first;
    expect(done.status, done.text).toBe(200);
    const later = await buy({ areaCode: 737 }, k);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(later.body).toEqual(done.body);
    expect(twilio.owned).toHaveLength(owned + 1);
    expect(twilio.requests.filter((r) => r.method === 'POST' && r.path === PURCHASES).length).toBe(purchasesBefore + 1);
  });

  it('without an Idempotency-Key, a lost answer names a key of its own, and a retry with it finishes the purchase once', async () => {
    twilio.inject({ method: 'POST', path: PURCHASES, kind: 'hang' });
    const owned = twilio.owned.length;
    const lost = await buy({ areaCode: 512 }, null);
    expect(lost.status).toBe(503);
    const made = /Idempotency-Key: (purchase-[0-9a-f-]{36})/.exec(lost.body.message)?.[1];
    expect(made).toBeDefined();
    const retry = await buy({ areaCode: 512 }, made!);
    expect(retry.status, retry.text).toBe(200);
    expect(twilio.owned).toHaveLength(owned + 1);
    expect(retry.body.phoneNumber.phoneNumber).toBe(twilio.owned.at(-1)!.phone_number);
  });
});

describe('without Twilio credentials, and secrets', () => {
  it("an agency without Twilio credentials searches and buys from the sandbox carrier's stock, reaching no vendor", async () => {
    const other = await createProjectAgentCampaign(h, { key: h.otherAgencyKey });
    const [t, v] = [twilio.requests.length, vapi.requests.length];
    const list = await h.api('GET', '/api/agent-builder/available-phone-numbers?areaCode=512&limit=2', { key: h.otherAgencyKey });
    expect(list.body).toMatchObject({ carrier: 'sandbox', data: [{ countryCode: 'US', tollFree: false }, { countryCode: 'US' }] });
    const r = await h.api('POST', BUY, { key: h.otherAgencyKey, body: { campaignId: other.campaignId, phoneNumber: list.body.data[1].phoneNumber } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.phoneNumber).not.toHaveProperty('twilioSid');
    expect([twilio.requests.length, vapi.requests.length]).toEqual([t, v]);
  });

  it('no answer and no log line carries the Twilio auth token or the Vapi key; each purchase is logged with its SID', () => {
    const all = logs.join('');
    const bought = logs.filter((l) => l.includes('bought a number at Twilio')).map((l) => JSON.parse(l) as { phoneNumber: string; twilioSid: string });
    expect(bought.map((l) => l.twilioSid).sort()).toEqual(twilio.owned.map((n) => n.sid).sort());
    expect(all).not.toContain(AUTH_TOKEN);
    expect(all).not.toContain(vapi.apiKey);
  });
});
