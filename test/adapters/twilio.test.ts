import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CredentialRejectedError, PermanentPortError, RateLimitedError, VendorTimeoutError, type EffectContext, type Messaging } from '../../engine/ports.js';
import { twilioMessaging } from '../../server/adapters/twilio/index.js';
import { startTwilioFake, type TwilioFake } from '../fakes/twilio-fake.js';
import { storeJournal, type StoreJournal } from '../helpers/store-journal.js';

/** The Twilio SMS adapter against a stateful Messages fake. */

const ACCOUNT = 'AC0123456789abcdef0123456789abcdef';
const AUTH_TOKEN = 'f00dfeedcafe4b1d9e8f7a6b5c4d3e2f';
const AGENCY = 'agency_twilio';
const MESSAGES = `/2010-04-01/Accounts/${ACCOUNT}/Messages.json`;

let fake: TwilioFake;
let mj: StoreJournal;
let twilio: Messaging;
let impatient: Messaging;
let seq = 0;
const effect = (): EffectContext => ({ agencyId: AGENCY, locationId: 'loc_1', idempotencyKey: `wf_${++seq}:sms` });
const sms = (body = `Thanks for your time (${seq})`) => ({ contactId: 'ct_1', to: '+15125550123', from: '+15125550100', body });

async function failure(p: Promise<unknown>): Promise<Error> {
  const e = await p.then(
    () => {
      throw new Error('expected a failure');
    },
    (x: unknown) => x as Error,
  );
  expect(e.message).not.toContain(AUTH_TOKEN);
  expect(e.message).not.toContain(Buffer.from(`${ACCOUNT}:${AUTH_TOKEN}`).toString('base64'));
  return e;
}

beforeAll(async () => {
  fake = await startTwilioFake({ accountSid: ACCOUNT, authToken: AUTH_TOKEN });
});
afterAll(async () => {
  await fake?.close();
});
beforeEach(() => {
  mj = storeJournal();
  twilio = twilioMessaging({ baseUrl: fake.url, accountSid: ACCOUNT, authToken: AUTH_TOKEN, journal: mj.journal, timeoutMs: 5_000 });
  impatient = twilioMessaging({ baseUrl: fake.url, accountSid: ACCOUNT, authToken: AUTH_TOKEN, journal: mj.journal, timeoutMs: 300 });
});

describe('Twilio adapter', () => {
  it('sends a form-encoded message from the campaign caller ID with Basic auth', async () => {
    const e = effect();
    const msg = sms('See you tomorrow at 3pm');
    const result = await twilio.sendSms(e, msg);
    const m = fake.messages.at(-1)!;
    expect(m).toMatchObject({ to: '+15125550123', from: '+15125550100', body: 'See you tomorrow at 3pm', status: 'queued' });
    expect(result).toEqual({ messageId: m.sid, status: 'queued', body: 'See you tomorrow at 3pm' });
    const req = fake.requests.at(-1)!;
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.body).toEqual({ To: '+15125550123', Body: 'See you tomorrow at 3pm', From: '+15125550100' });
    // a retried activity gets the recorded result without a second send
    const n = fake.messages.length;
    expect(await twilio.sendSms(e, msg)).toEqual(result);
    expect(fake.messages.length).toBe(n);
  });

  it('an SMS is sent once across an accepted-then-timed-out attempt and its retry (found while still queued)', async () => {
    fake.inject({ method: 'POST', path: MESSAGES, kind: 'hang' });
    const e = effect();
    const msg = sms('Your appointment is confirmed');
    const before = fake.messages.length;
    expect(await failure(impatient.sendSms(e, msg))).toBeInstanceOf(VendorTimeoutError);
    expect(mj.entry(AGENCY, e.idempotencyKey)).toMatchObject({ state: 'pending' });
    expect(fake.messages.length).toBe(before + 1);
    const from = fake.requests.length;
    const result = await twilio.sendSms(e, msg);
    expect(fake.messages.length).toBe(before + 1);
    expect(result).toEqual({ messageId: fake.messages.at(-1)!.sid, status: 'queued', body: msg.body });
    expect(fake.requests.slice(from).map((r) => `${r.method} ${r.path}?${r.query.toString()}`)).toEqual([`GET ${MESSAGES}?To=%2B15125550123&From=%2B15125550100&PageSize=50`]);
  });

  it('the same text to the same number sent before this attempt began is not taken for it', async () => {
    const e = effect();
    // an earlier, unrelated send of the same text (a previous campaign), long before this attempt
    mj.seed(AGENCY, e.idempotencyKey, { state: 'pending', startedAt: new Date(Date.now() + 3_600_000).toISOString(), attempts: 1 });
    await twilio.sendSms(effect(), sms('Reminder: call us back'));
    const before = fake.messages.length;
    await twilio.sendSms(e, sms('Reminder: call us back'));
    expect(fake.messages.length).toBe(before + 1);
  });

  it('without a sender it uses the messaging service, and without either it refuses before calling', async () => {
    const svc = twilioMessaging({ baseUrl: fake.url, accountSid: ACCOUNT, authToken: AUTH_TOKEN, journal: mj.journal, messagingServiceSid: 'MG0123456789abcdef0123456789abcdef' });
    await svc.sendSms(effect(), { ...sms('via service'), from: null });
    expect(fake.messages.at(-1)).toMatchObject({ from: null, messaging_service_sid: 'MG0123456789abcdef0123456789abcdef', body: 'via service' });
    const n = fake.requests.length;
    const err = await failure(twilio.sendSms(effect(), { ...sms(), from: null }));
    expect(err).toBeInstanceOf(PermanentPortError);
    expect(fake.requests.length).toBe(n);
  });

  it('a 401 is CredentialRejectedError (wrong auth token too)', async () => {
    fake.inject({ path: MESSAGES, kind: 'status', status: 401, message: 'Authenticate' });
    expect(await failure(twilio.sendSms(effect(), sms()))).toBeInstanceOf(CredentialRejectedError);
    const wrong = twilioMessaging({ baseUrl: fake.url, accountSid: ACCOUNT, authToken: 'ffffffffffffffffffffffffffffffff', journal: mj.journal });
    const err = await failure(wrong.sendSms(effect(), sms()));
    expect(err).toBeInstanceOf(CredentialRejectedError);
    expect(err.message).not.toContain('ffffffffffffffffffffffffffffffff');
  });

  it('a 429 with Retry-After: 2 is RateLimitedError with retryAfterMs 2000; the journal starts afresh', async () => {
    fake.inject({ path: MESSAGES, kind: 'status', status: 429, retryAfter: '2', message: 'Too Many Requests' });
    const e = effect();
    const err = await failure(twilio.sendSms(e, sms()));
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(2000);
    expect(mj.entry(AGENCY, e.idempotencyKey)).toBeNull();
  });

  it('a 400 carries Twilio\'s message and code as a PermanentPortError', async () => {
    const err = await failure(twilio.sendSms(effect(), { ...sms(), to: '555' }));
    expect(err).toBeInstanceOf(PermanentPortError);
    expect(err.message).toBe(`twilio POST ${MESSAGES} → HTTP 400: The 'To' number 555 is not a valid phone number. (code 21211)`);
  });

  it('a 500 leaves the outcome unknown; the retry looks, finds nothing, and sends once', async () => {
    fake.inject({ path: MESSAGES, method: 'POST', kind: 'status', status: 500, message: 'Internal error' });
    const e = effect();
    const msg = sms('after a 500');
    const err = await failure(twilio.sendSms(e, msg));
    expect(err).not.toBeInstanceOf(PermanentPortError);
    expect(mj.entry(AGENCY, e.idempotencyKey)).toMatchObject({ state: 'pending' });
    await twilio.sendSms(e, msg);
    expect(fake.messages.filter((m) => m.body === 'after a 500')).toHaveLength(1);
  });

  it('sendEmail is refused for good', async () => {
    const err = await failure(twilio.sendEmail(effect(), { contactId: 'ct_1', to: 'a@b.c', subject: 's', body: 'b' }));
    expect(err).toBeInstanceOf(PermanentPortError);
    expect(err.message).toMatch(/SMS only/);
  });
});
