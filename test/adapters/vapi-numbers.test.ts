import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialRejectedError, VendorTimeoutError } from '../../engine/ports.js';
import { importTwilioBody, vapiNumbers, type VapiNumbers } from '../../server/adapters/vapi/numbers.js';
import { VendorRefusedError } from '../../server/adapters/vendor-http.js';
import { startVapiFake, type VapiFake } from '../fakes/vapi-fake.js';
import { vapiSchemaProperties, vapiViolations } from '../helpers/vapi-schemas.js';

/** Importing a Twilio number into Vapi (POST /phone-number) and finding it again, against the Vapi fake. */

const ACCOUNT = 'AC0123456789abcdef0123456789abcdef';
const AUTH_TOKEN = 'f00dfeedcafe4b1d9e8f7a6b5c4d3e2f';
const OTHER_NUMBER = '+15125550999';

let fake: VapiFake;
let vapi: VapiNumbers;

beforeAll(async () => {
  fake = await startVapiFake({ twilioOwns: ({ accountSid, authToken, number }) => accountSid === ACCOUNT && authToken === AUTH_TOKEN && number !== OTHER_NUMBER });
  vapi = vapiNumbers({ baseUrl: fake.url, apiKey: fake.apiKey, timeoutMs: 5_000 });
});
afterAll(async () => {
  await fake?.close();
});

async function failure(p: Promise<unknown>): Promise<Error> {
  const e = await p.then(
    () => {
      throw new Error('expected a failure');
    },
    (x: unknown) => x as Error,
  );
  expect(e.message).not.toContain(AUTH_TOKEN);
  expect(e.message).not.toContain(fake.apiKey);
  return e;
}

describe('the import body', () => {
  it("is Vapi's CreateTwilioPhoneNumberDTO (ajv, Vapi's published schema), with only properties it declares", () => {
    const body = importTwilioBody({ number: '+15125550100', twilioAccountSid: ACCOUNT, twilioAuthToken: AUTH_TOKEN, name: 'New patient follow-up, evenings and weekends' });
    expect(vapiViolations('CreateTwilioPhoneNumberDTO', body)).toEqual([]);
    const declared = Object.keys(vapiSchemaProperties('CreateTwilioPhoneNumberDTO'));
    expect(Object.keys(body).filter((k) => !declared.includes(k))).toEqual([]);
    expect(body).toEqual({ provider: 'twilio', number: '+15125550100', twilioAccountSid: ACCOUNT, twilioAuthToken: AUTH_TOKEN, name: 'New patient follow-up, evenings and week', smsEnabled: false });
    // the schema's rules are live: a body without the number is refused by it
    expect(vapiViolations('CreateTwilioPhoneNumberDTO', { ...body, number: undefined })).toEqual(["/ must have required property 'number'"]);
  });
});

describe('Vapi phone numbers', () => {
  it('imports a Twilio number, answers its id, and finds it again by number and account', async () => {
    const made = await vapi.importTwilio({ number: '+15125550100', twilioAccountSid: ACCOUNT, twilioAuthToken: AUTH_TOKEN, name: 'Front desk' });
    expect(fake.violations).toEqual([]);
    expect(fake.imported).toHaveLength(1);
    expect(made).toEqual({ id: fake.imported[0]!.number.id });
    expect(fake.imported[0]!.request).toEqual({ provider: 'twilio', number: '+15125550100', twilioAccountSid: ACCOUNT, twilioAuthToken: AUTH_TOKEN, name: 'Front desk', smsEnabled: false });
    expect(await vapi.findTwilio('+15125550100', ACCOUNT)).toEqual(made);
    expect(await vapi.findTwilio('+15125550101', ACCOUNT)).toBeNull();
    expect(await vapi.findTwilio('+15125550100', `AC${'f'.repeat(32)}`)).toBeNull();
  });

  it('an import whose answer is lost (accepted, then no answer) is found by the lookup', async () => {
    const impatient = vapiNumbers({ baseUrl: fake.url, apiKey: fake.apiKey, timeoutMs: 300 });
    fake.inject('POST /phone-number', { kind: 'accept-then-hang' });
    expect(await failure(impatient.importTwilio({ number: '+15125550101', twilioAccountSid: ACCOUNT, twilioAuthToken: AUTH_TOKEN }))).toBeInstanceOf(VendorTimeoutError);
    expect(await vapi.findTwilio('+15125550101', ACCOUNT)).toEqual({ id: fake.imported.at(-1)!.number.id });
  });

  it("a refusal keeps Vapi's message, never the Twilio auth token; a refused key is a rejected credential", async () => {
    const refused = await failure(vapi.importTwilio({ number: OTHER_NUMBER, twilioAccountSid: ACCOUNT, twilioAuthToken: AUTH_TOKEN }));
    expect(refused).toBeInstanceOf(VendorRefusedError);
    expect((refused as VendorRefusedError).vendorMessage).toBe(`Number ${OTHER_NUMBER} Not Found On Twilio Account ${ACCOUNT}.`);
    const wrongKey = vapiNumbers({ baseUrl: fake.url, apiKey: 'vapi-private-not-this-one' });
    expect(await failure(wrongKey.importTwilio({ number: '+15125550102', twilioAccountSid: ACCOUNT, twilioAuthToken: AUTH_TOKEN }))).toBeInstanceOf(CredentialRejectedError);
  });
});
