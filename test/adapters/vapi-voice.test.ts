import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CredentialRejectedError, PermanentPortError, RateLimitedError } from '../../engine/ports.js';
import { retryAfterMs, vapiVoice, VapiTransientError, type PlaceCallRequest, type VapiVoiceOptions } from '../../server/adapters/vapi/voice.js';
import { storeJournal } from '../helpers/store-journal.js';
import { startVapiFake, type VapiFake } from '../fakes/vapi-fake.js';
import { vapiViolations } from '../helpers/vapi-schemas.js';

const AGENCY = 'agy_1';
const CAMPAIGN = 'cmp_1';
/** the campaign's caller IDs and their Vapi phone-number ids */
const NUMBERS = [
  { id: 'pn-austin', number: '+15125550100' },
  { id: 'pn-nyc', number: '+12125550100' },
];

let fake: VapiFake;
let journal: ReturnType<typeof storeJournal>['journal'];

beforeEach(async () => {
  fake = await startVapiFake({ assistants: ['asst-front-desk'], phoneNumbers: NUMBERS });
  journal = storeJournal().journal;
});
afterEach(async () => {
  expect(fake.violations, 'every body sent to Vapi conforms to CreateCallDTO').toEqual([]);
  await fake.close();
});

function voice(over: Partial<VapiVoiceOptions> = {}) {
  return vapiVoice({
    baseUrl: fake.url,
    apiKey: async () => fake.apiKey,
    journal,
    timeoutMs: 2_000,
    async resolve({ agencyId, campaignId, from }) {
      const number = NUMBERS.find((n) => n.number === from);
      if (agencyId !== AGENCY || campaignId !== CAMPAIGN || !number) throw new PermanentPortError(`no Vapi assistant or number for ${campaignId} from ${from}`);
      return { assistantId: 'asst-front-desk', phoneNumberId: number.id };
    },
    ...over,
  });
}

function request(over: Partial<PlaceCallRequest> = {}): PlaceCallRequest {
  return {
    agencyId: AGENCY,
    callId: 'lead_7f3a-1',
    campaignId: CAMPAIGN,
    contactId: 'ct_42',
    leadId: 'lead_7f3a',
    to: '+15125550123',
    from: '+15125550100',
    variables: { firstName: 'Ana', fullName: 'Ana Lopez', businessName: 'Bright Smiles Dental', campaignName: 'Spring recall' },
    ...over,
  };
}

const posts = () => fake.requests.filter((r) => r.route === 'POST /call').length;

describe('vapiVoice.placeCall: the request', () => {
  it('posts a CreateCallDTO with the assistant, the caller ID number, the lead, the variables and our ids as metadata', async () => {
    const placed = await voice().placeCall(request());

    expect(fake.calls).toHaveLength(1);
    const body = fake.calls[0]!.request;
    expect(vapiViolations('CreateCallDTO', body)).toEqual([]);
    expect(body).toEqual({
      assistantId: 'asst-front-desk',
      phoneNumberId: 'pn-austin',
      customer: { number: '+15125550123', name: 'Ana Lopez' },
      name: 'lead_7f3a-1',
      assistantOverrides: {
        variableValues: { firstName: 'Ana', fullName: 'Ana Lopez', businessName: 'Bright Smiles Dental', campaignName: 'Spring recall' },
        metadata: { callId: 'lead_7f3a-1', agencyId: AGENCY, campaignId: CAMPAIGN, contactId: 'ct_42', leadId: 'lead_7f3a' },
      },
    });
    expect(placed).toEqual({ callId: 'lead_7f3a-1', platformCallId: fake.calls[0]!.call.id });
  });

  it('uses the Vapi number of the caller ID the dialer chose', async () => {
    await voice().placeCall(request({ from: '+12125550100', to: '+12125550188' }));
    expect(fake.calls[0]!.request).toMatchObject({ phoneNumberId: 'pn-nyc', customer: { number: '+12125550188' } });
  });

  it('leaves out empty variables, and the display names Vapi caps at 40 characters when ours are longer', async () => {
    const longId = `lead_${'x'.repeat(40)}-1`;
    await voice().placeCall(request({ callId: longId, leadId: undefined, variables: { firstName: '', fullName: 'Maria de los Angeles Fernandez-Gutierrez y Santos' } }));
    const body = fake.calls[0]!.request as { name?: string; customer: { name: string }; assistantOverrides: Record<string, unknown> };
    expect(body.name).toBeUndefined();
    expect(body.customer.name).toHaveLength(40);
    expect(body.assistantOverrides).toEqual({
      variableValues: { fullName: 'Maria de los Angeles Fernandez-Gutierrez y Santos' },
      metadata: { callId: longId, agencyId: AGENCY, campaignId: CAMPAIGN, contactId: 'ct_42' },
    });
  });

  it('sends no variableValues when there are none', async () => {
    await voice().placeCall(request({ variables: undefined }));
    expect(fake.calls[0]!.request.assistantOverrides).not.toHaveProperty('variableValues');
  });

  it('the fake holds bodies to the schema: one Vapi does not accept is refused with the violations', async () => {
    const res = await fetch(`${fake.url}/call`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fake.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ assistantId: 'asst-front-desk', phoneNumberId: 'pn-austin', customer: { number: '+1'.padEnd(41, '5') }, assistantOverrides: { metadata: 'not an object' } }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string[] };
    expect(body.message.join('\n')).toMatch(/customer\/number must NOT have more than 40 characters/);
    expect(body.message.join('\n')).toMatch(/assistantOverrides\/metadata must be object/);
    expect(fake.calls).toHaveLength(0);
    fake.violations.length = 0; // this refusal was the point of the test
  });
});

describe('vapiVoice.placeCall: a retried call is placed once', () => {
  it('a retry after an accepted call returns the same call without asking Vapi again', async () => {
    const v = voice();
    const first = await v.placeCall(request());
    const again = await v.placeCall(request());
    expect(again).toEqual(first);
    expect(fake.calls).toHaveLength(1);
    expect(fake.requests).toHaveLength(1);
  });

  it('accepted, then no answer (timeout): the retry finds the call by its metadata and places nothing', async () => {
    fake.inject('POST /call', { kind: 'accept-then-hang' });
    const v = voice({ timeoutMs: 300 });
    const err = await v.placeCall(request()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VapiTransientError);
    expect((err as Error).message).toMatch(/no answer within 300 ms/);
    expect(await journal.lookup(AGENCY, 'vapi.call:lead_7f3a-1')).toMatchObject({ state: 'pending' });

    const placed = await v.placeCall(request());
    expect(fake.calls).toHaveLength(1);
    expect(placed).toEqual({ callId: 'lead_7f3a-1', platformCallId: fake.calls[0]!.call.id });
    expect(fake.requests.map((r) => r.route)).toEqual(['POST /call', 'GET /call']);
    expect(await journal.lookup(AGENCY, 'vapi.call:lead_7f3a-1')).toEqual({ state: 'done', result: placed });
  });

  it('accepted, then a 500: the 500 is transient and the retry adopts the call', async () => {
    fake.inject('POST /call', { kind: 'accept-then-500' });
    const v = voice();
    await expect(v.placeCall(request())).rejects.toBeInstanceOf(VapiTransientError);
    const placed = await v.placeCall(request());
    expect(fake.calls).toHaveLength(1);
    expect(placed.platformCallId).toBe(fake.calls[0]!.call.id);
  });

  it('a 500 before anything was created: the retry finds nothing and places the call once', async () => {
    fake.inject('POST /call', { kind: 'status', status: 500 });
    const v = voice();
    await expect(v.placeCall(request())).rejects.toBeInstanceOf(VapiTransientError);
    expect(fake.calls).toHaveLength(0);
    const placed = await v.placeCall(request());
    expect(fake.calls).toHaveLength(1);
    expect(placed.platformCallId).toBe(fake.calls[0]!.call.id);
    expect(fake.requests.map((r) => r.route)).toEqual(['POST /call', 'GET /call', 'POST /call']);
  });

  it('the lookup adopts only the call with our call id, not another call on the same assistant and number', async () => {
    const v = voice({ timeoutMs: 300 });
    const other = await v.placeCall(request({ callId: 'lead_other-1', leadId: 'lead_other', to: '+15125550999' }));
    fake.inject('POST /call', { kind: 'accept-then-hang' });
    await expect(v.placeCall(request())).rejects.toBeInstanceOf(VapiTransientError);
    const placed = await v.placeCall(request());
    expect(fake.calls).toHaveLength(2);
    expect(placed.platformCallId).toBe(fake.calls[1]!.call.id);
    expect(placed.platformCallId).not.toBe(other.platformCallId);
  });

  it('a definite refusal (429) forgets the attempt: the next one places without a lookup', async () => {
    fake.inject('POST /call', { kind: 'status', status: 429, retryAfter: '7' });
    const v = voice();
    await expect(v.placeCall(request())).rejects.toBeInstanceOf(RateLimitedError);
    expect(await journal.lookup(AGENCY, 'vapi.call:lead_7f3a-1')).toBeNull();
    await v.placeCall(request());
    expect(fake.requests.map((r) => r.route)).toEqual(['POST /call', 'POST /call']);
    expect(fake.calls).toHaveLength(1);
  });
});

describe('vapiVoice.placeCall: errors', () => {
  it('401 is CredentialRejectedError, and neither the key nor the header appears in it', async () => {
    const wrongKey = 'vapi-private-wrong-0123456789';
    const err = (await voice({ apiKey: async () => wrongKey })
      .placeCall(request())
      .catch((e: unknown) => e)) as CredentialRejectedError;
    expect(err).toBeInstanceOf(CredentialRejectedError);
    expect(err.vendor).toBe('vapi');
    expect(err.message).toMatch(/HTTP 401: Invalid Key/);
    const everything = `${err.message}\n${err.stack}\n${JSON.stringify(err)}`;
    expect(everything).not.toContain(wrongKey);
    expect(everything).not.toMatch(/Bearer/);
    expect(await journal.lookup(AGENCY, 'vapi.call:lead_7f3a-1')).toBeNull();
  });

  it('429 is RateLimitedError with Retry-After in seconds or as a date', async () => {
    fake.inject('POST /call', { kind: 'status', status: 429, retryAfter: '7' });
    const err = (await voice().placeCall(request()).catch((e: unknown) => e)) as RateLimitedError;
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(err).not.toBeInstanceOf(PermanentPortError);
    expect(err.retryAfterMs).toBe(7000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:30 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(30_000);
    expect(retryAfterMs(null)).toBeGreaterThan(0);
  });

  it('5xx is transient, not permanent', async () => {
    fake.inject('POST /call', { kind: 'status', status: 503, message: 'upstream unavailable' });
    const err = await voice().placeCall(request()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VapiTransientError);
    expect(err).not.toBeInstanceOf(PermanentPortError);
    expect((err as Error).message).toMatch(/HTTP 503: upstream unavailable/);
  });

  it("another 4xx is PermanentPortError with Vapi's message", async () => {
    const v = voice({ resolve: async () => ({ assistantId: 'asst-deleted', phoneNumberId: 'pn-austin' }) });
    const err = await v.placeCall(request()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentPortError);
    expect(err).not.toBeInstanceOf(CredentialRejectedError);
    expect((err as Error).message).toBe("Vapi create call: HTTP 400: Couldn't Get Assistant. `assistantId` asst-deleted Does Not Exist.");
    expect(await journal.lookup(AGENCY, 'vapi.call:lead_7f3a-1')).toBeNull();
  });

  it('a Vapi message that echoes the key is redacted', async () => {
    fake.inject('POST /call', { kind: 'status', status: 400, message: `Key ${fake.apiKey} lacks the phone-number scope` });
    const err = (await voice().placeCall(request()).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(PermanentPortError);
    expect(err.message).toBe('Vapi create call: HTTP 400: Key [redacted] lacks the phone-number scope');
  });

  it("a missing mapping is resolve's PermanentPortError, and nothing is sent", async () => {
    await expect(voice().placeCall(request({ from: '+13105550100' }))).rejects.toThrow(PermanentPortError);
    expect(fake.requests).toHaveLength(0);
  });

  it('a refused connection is transient, and the key stays out of it', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const err = await voice({ baseUrl: `http://127.0.0.1:${port}` })
      .placeCall(request())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VapiTransientError);
    expect(`${(err as Error).message}${(err as Error).stack}`).not.toContain(fake.apiKey);
  });

  it('a failing lookup after an unknown outcome is classified too (401 while checking)', async () => {
    fake.inject('POST /call', { kind: 'status', status: 502 });
    const v = voice();
    await expect(v.placeCall(request())).rejects.toBeInstanceOf(VapiTransientError);
    fake.inject('GET /call', { kind: 'status', status: 401, message: 'Invalid Key.' });
    await expect(v.placeCall(request())).rejects.toBeInstanceOf(CredentialRejectedError);
    expect(fake.calls).toHaveLength(0);
  });
});
