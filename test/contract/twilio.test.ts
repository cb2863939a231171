import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentPortError, type EffectContext } from '../../engine/ports.js';
import { twilioMessaging } from '../../server/adapters/twilio/index.js';
import { twilioNumbers } from '../../server/adapters/twilio/numbers.js';
import { vendorHttp } from '../../server/adapters/vendor-http.js';
import { storeJournal } from '../helpers/store-journal.js';
import { conforming, requestViolations, startPrismMocks, type PrismMocks } from '../helpers/prism.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { startVapiFake, type VapiFake } from '../fakes/vapi-fake.js';
import { canonicalJson } from '../../server/http/idempotency.js';

/** The Twilio adapters against Prism serving Twilio's own documents (Messages; phone numbers). */

const doc = path.resolve(import.meta.dirname, '../fixtures/vendor-openapi/twilio/twilio_api_v2010.messages.json');
const numbersDoc = path.resolve(import.meta.dirname, '../fixtures/vendor-openapi/twilio/twilio_api_v2010.numbers.json');
const ACCOUNT = 'ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const AUTH_TOKEN = 'twilio-contract-auth-token-0123';
const AGENCY = 'agency_contract';

let mocks: PrismMocks;
let numberMocks: PrismMocks;
let seq = 0;
const effect = (): EffectContext => ({ agencyId: AGENCY, locationId: 'loc_1', idempotencyKey: `wf_contract:${++seq}` });

beforeAll(async () => {
  [mocks, numberMocks] = await Promise.all([startPrismMocks([{ prefix: '/', document: doc }]), startPrismMocks([{ prefix: '/', document: numbersDoc }])]);
});

afterAll(async () => {
  await Promise.all([mocks?.stop(), numberMocks?.stop()]);
});

describe('Twilio contract (Prism)', () => {
  it('sendSms posts a conforming form-encoded message and reads the documented answer', async () => {
    const mj = storeJournal();
    const twilio = twilioMessaging({ baseUrl: mocks.url, accountSid: ACCOUNT, authToken: AUTH_TOKEN, journal: mj.journal });
    const e = effect();
    expect(await conforming(mocks, () => twilio.sendSms(e, { contactId: 'ct_1', to: '+15125550123', from: '+15125550100', body: 'Thanks for your time' }))).toEqual({
      messageId: 'SMaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      status: 'queued',
      body: 'Thanks for your time',
    });
    expect(mocks.exchanges.at(-1)).toMatchObject({ method: 'POST', path: `/2010-04-01/Accounts/${ACCOUNT}/Messages.json`, status: 201 });
    expect(mj.entry(AGENCY, e.idempotencyKey)).toMatchObject({ state: 'done' });
  });

  it('after an unknown outcome it lists messages by To and From and takes the same text as the earlier send', async () => {
    const mj = storeJournal();
    const twilio = twilioMessaging({ baseUrl: mocks.url, accountSid: ACCOUNT, authToken: AUTH_TOKEN, journal: mj.journal });
    const e = effect();
    mj.seed(AGENCY, e.idempotencyKey, { state: 'pending', startedAt: '2019-05-24T17:44:00.000Z', attempts: 1 });
    // the documented list holds "testing", outbound to +18182008801, created Fri, 24 May 2019 17:44:46
    expect(await conforming(mocks, () => twilio.sendSms(e, { contactId: 'ct_1', to: '+18182008801', from: '+12019235161', body: 'testing' }))).toEqual({
      messageId: 'SMded05904ccb347238880ca9264e8fe1c',
      status: 'sent',
      body: 'testing',
    });
    const x = mocks.exchanges.at(-1)!;
    expect(x.method).toBe('GET');
    expect(x.path).toBe(`/2010-04-01/Accounts/${ACCOUNT}/Messages.json?To=%2B18182008801&From=%2B12019235161&PageSize=50`);
  });

  it('a request Twilio would refuse (no To) is a 422 naming the violation', async () => {
    const http = vendorHttp({ vendor: 'twilio', baseUrl: mocks.url, auth: async () => ({ authorization: `Basic ${Buffer.from(`${ACCOUNT}:${AUTH_TOKEN}`).toString('base64')}` }) });
    const err = await http.request({ method: 'POST', path: `/2010-04-01/Accounts/${ACCOUNT}/Messages.json`, form: { From: '+15125550100', Body: 'x' } }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(PermanentPortError);
    expect((err as Error).message).toContain('HTTP 422');
    expect((err as Error).message).toContain("Request body must have required property 'To'");
    expect(requestViolations(mocks.exchanges.at(-1)!)).toEqual([]); // Twilio's document has no 422: Prism reports in the body
    expect((err as Error).message).not.toContain(AUTH_TOKEN);
  });

  it('sendEmail is refused for good: Twilio carries SMS only', async () => {
    const twilio = twilioMessaging({ baseUrl: mocks.url, accountSid: ACCOUNT, authToken: AUTH_TOKEN, journal: storeJournal().journal });
    await expect(twilio.sendEmail(effect(), { contactId: 'ct_1', to: 'a@b.c', subject: 's', body: 'b' })).rejects.toThrow(PermanentPortError);
  });
});

describe('Twilio phone numbers contract (Prism)', () => {
  const numbers = () => twilioNumbers({ baseUrl: numberMocks.url, accountSid: ACCOUNT, authToken: AUTH_TOKEN });
  const ROOT = `/2010-04-01/Accounts/${ACCOUNT}`;

  it('searches Local.json by area code and reads the documented offer', async () => {
    const found = await conforming(numberMocks, () => numbers().search({ countryCode: 'US', tollFree: false, areaCode: 808, limit: 20 }));
    expect(found).toEqual([{ phoneNumber: '+18089251571', friendlyName: '(808) 925-1571', isoCountry: 'US', locality: 'Hilo', region: 'HI', addressRequirements: 'none', voice: true, sms: false }]);
    expect(numberMocks.exchanges.at(-1)).toMatchObject({ method: 'GET', path: `${ROOT}/AvailablePhoneNumbers/US/Local.json?AreaCode=808&VoiceEnabled=true&PageSize=20`, status: 200 });
  });

  it('searches TollFree.json (CA too) and reads the documented offer', async () => {
    const found = await conforming(numberMocks, () => numbers().search({ countryCode: 'CA', tollFree: true, limit: 5 }));
    expect(found.map((n) => n.phoneNumber)).toEqual(['+18001000052']);
    expect(numberMocks.exchanges.at(-1)).toMatchObject({ method: 'GET', path: `${ROOT}/AvailablePhoneNumbers/CA/TollFree.json?VoiceEnabled=true&PageSize=5`, status: 200 });
  });

  it('buys by PhoneNumber with a conforming form body and reads the documented IncomingPhoneNumber', async () => {
    expect(await conforming(numberMocks, () => numbers().buy('+18089251571', 'Front desk'))).toEqual({ sid: 'PNaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', phoneNumber: '+18089255327', friendlyName: 'friendly_name' });
    expect(numberMocks.exchanges.at(-1)).toMatchObject({ method: 'POST', path: `${ROOT}/IncomingPhoneNumbers.json`, status: 201 });
  });

  it('looks a number up among the account\'s own with IncomingPhoneNumbers.json?PhoneNumber=', async () => {
    // the documented list holds +18089255327
    expect(await conforming(numberMocks, () => numbers().find('+18089255327'))).toEqual({ sid: 'PNaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', phoneNumber: '+18089255327', friendlyName: '(808) 925-5327' });
    expect(numberMocks.exchanges.at(-1)).toMatchObject({ method: 'GET', path: `${ROOT}/IncomingPhoneNumbers.json?PhoneNumber=%2B18089255327&PageSize=50`, status: 200 });
    expect(await conforming(numberMocks, () => numbers().find('+15125550100'))).toBeNull();
  });
});

describe('buying a number through the API, against Prism serving Twilio\'s numbers document', () => {
  let h: Harness;
  let vapi: VapiFake;
  let campaignId: string;
  beforeAll(async () => {
    vapi = await startVapiFake();
    h = await createHarness({ config: { twilioBaseUrl: numberMocks.url, vapiBaseUrl: vapi.url } });
    // Set directly: the credential checks read Messages.json, which this document does not serve.
    await h.services.credentials.put(h.agencyId, 'agency', 'twilio', { accountSid: ACCOUNT, authToken: AUTH_TOKEN });
    await h.services.credentials.put(h.agencyId, 'agency', 'vapi', { apiKey: vapi.apiKey, serverSecret: 'vsec_contract', secretKind: 'hmac' });
    expect((await h.api('PATCH', '/api/agency', { body: { voicePlatform: 'vapi' } })).status).toBe(200);
    campaignId = (await createProjectAgentCampaign(h)).campaignId;
  });
  afterAll(async () => {
    await h?.close();
    await vapi?.close();
  });

  it('search and purchase conform, and the number Twilio answered is stored, imported (a valid CreateTwilioPhoneNumberDTO) and assigned', async () => {
    const from = numberMocks.exchanges.length;
    const r = await conforming(numberMocks, () => h.api('POST', '/api/agent-builder/phone-numbers', { body: { campaignId, areaCode: 808 }, headers: { 'Idempotency-Key': 'contract-buy-1' } }));
    expect(r.status, r.text).toBe(200);
    expect(numberMocks.exchanges.slice(from).map((x) => `${x.method} ${x.path.split('?')[0]} ${x.status}`)).toEqual([
      `GET /2010-04-01/Accounts/${ACCOUNT}/AvailablePhoneNumbers/US/Local.json 200`,
      `POST /2010-04-01/Accounts/${ACCOUNT}/IncomingPhoneNumbers.json 201`,
    ]);
    // Prism answers the documented example, whatever was asked: that is the number the account now has.
    expect(r.body.phoneNumber).toMatchObject({ phoneNumber: '+18089255327', twilioSid: 'PNaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', vapiPhoneNumberId: vapi.imported[0]!.number.id });
    expect(vapi.violations).toEqual([]);
    expect(vapi.imported[0]!.request).toMatchObject({ provider: 'twilio', number: '+18089255327', twilioAccountSid: ACCOUNT });
  });

  it('a purchase whose outcome was lost is settled with a conforming IncomingPhoneNumbers.json?PhoneNumber= lookup, buying nothing', async () => {
    const body = { campaignId, phoneNumber: '+18089255327' };
    // What a request that timed out after recording its intent leaves.
    await h.store.numberPurchases.begin({ agencyId: h.agencyId, key: 'contract-buy-2', request: canonicalJson(body), campaignId, phoneNumber: '+18089255327' });
    const from = numberMocks.exchanges.length;
    const r = await conforming(numberMocks, () => h.api('POST', '/api/agent-builder/phone-numbers', { body, headers: { 'Idempotency-Key': 'contract-buy-2' } }));
    expect(r.status, r.text).toBe(200);
    expect(numberMocks.exchanges.slice(from).map((x) => `${x.method} ${x.path}`)).toEqual([`GET /2010-04-01/Accounts/${ACCOUNT}/IncomingPhoneNumbers.json?PhoneNumber=%2B18089255327&PageSize=50`]);
    // Vapi had the number from the purchase before (Prism sells the same one): its id is taken, not imported twice.
    expect(vapi.imported).toHaveLength(1);
    expect(r.body.phoneNumber.vapiPhoneNumberId).toBe(vapi.imported[0]!.number.id);
  });
});
