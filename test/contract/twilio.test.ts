import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentPortError, type EffectContext } from '../../engine/ports.js';
import { twilioMessaging } from '../../server/adapters/twilio/index.js';
import { vendorHttp } from '../../server/adapters/vendor-http.js';
import { storeJournal } from '../helpers/store-journal.js';
import { conforming, requestViolations, startPrismMocks, type PrismMocks } from '../helpers/prism.js';

/** The Twilio send against Prism serving Twilio's own Messages document. */

const doc = path.resolve(import.meta.dirname, '../fixtures/vendor-openapi/twilio/twilio_api_v2010.messages.json');
const ACCOUNT = 'ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const AUTH_TOKEN = 'twilio-contract-auth-token-0123';
const AGENCY = 'agency_contract';

let mocks: PrismMocks;
let seq = 0;
const effect = (): EffectContext => ({ agencyId: AGENCY, locationId: 'loc_1', idempotencyKey: `wf_contract:${++seq}` });

beforeAll(async () => {
  mocks = await startPrismMocks([{ prefix: '/', document: doc }]);
});

afterAll(async () => {
  await mocks?.stop();
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
