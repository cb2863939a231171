import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PermanentPortError } from '../../engine/ports.js';
import { CallEndedEvent } from '../../schemas/call.js';
import {
  classifyEndedReason,
  mapEndOfCallReport,
  MalformedVapiReportError,
  messageType,
  reportMetadata,
  verifyVapiRequest,
  type VapiCredential,
} from '../../server/adapters/vapi/server-messages.js';
import { vapiVoice } from '../../server/adapters/vapi/voice.js';
import { validate } from '../../server/domain/validation.js';
import { storeJournal } from '../helpers/store-journal.js';
import { startVapiFake, type ReportOptions, type VapiFake } from '../fakes/vapi-fake.js';
import { vapiEndedReasons, vapiViolations, vapiViolationsUnpatched } from '../helpers/vapi-schemas.js';

// ------------------------------------------------------------------------------------------------
// verifyVapiRequest: every signature here is computed with node:crypto, apart from the product code
// ------------------------------------------------------------------------------------------------

const NEW_SECRET = 'hmac-new-7d1c0b6e';
const OLD_SECRET = 'hmac-old-2f9a44d1';
const LEGACY = 'legacy-shared-secret-91c2';
const NOW = Date.parse('2026-03-02T15:04:05.000Z');
const BODY = JSON.stringify({ message: { type: 'end-of-call-report', endedReason: 'voicemail' } });

const hmacHex = (secret: string, timestamp: string, body: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
const signed = (secret: string, timestamp: string, body = BODY) => ({ 'x-signature': hmacHex(secret, timestamp, body), 'x-timestamp': timestamp });

function check(headers: Record<string, string>, credentials: VapiCredential[] = [{ kind: 'hmac', secret: NEW_SECRET }], rawBody: string | Buffer = BODY) {
  return verifyVapiRequest({ headers, rawBody, now: NOW, toleranceSeconds: 300, credentials });
}

describe('verifyVapiRequest: the HMAC credential (x-signature, x-timestamp)', () => {
  it('accepts a good signature, with the timestamp in milliseconds or in seconds', () => {
    expect(check(signed(NEW_SECRET, String(NOW)))).toEqual({ ok: true, scheme: 'hmac', credentialIndex: 0, replayKey: hmacHex(NEW_SECRET, String(NOW), BODY) });
    expect(check(signed(NEW_SECRET, String(NOW / 1000 - 20)))).toMatchObject({ ok: true, scheme: 'hmac' });
  });

  it('accepts a small clock difference either way', () => {
    expect(check(signed(NEW_SECRET, String(NOW + 60_000)))).toMatchObject({ ok: true });
    expect(check(signed(NEW_SECRET, String(NOW - 299_000)))).toMatchObject({ ok: true });
  });

  it('refuses a timestamp from the future beyond the tolerance', () => {
    const r = check(signed(NEW_SECRET, String(NOW + 301_000)));
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/x-timestamp is 301s in the future, beyond the 300s tolerance/) });
  });

  it('refuses a stale timestamp (a replay), in either unit', () => {
    expect(check(signed(NEW_SECRET, String(NOW - 3_600_000)))).toEqual({ ok: false, reason: expect.stringMatching(/x-timestamp is 3600s old, beyond the 300s tolerance/) });
    expect(check(signed(NEW_SECRET, String(NOW / 1000 - 3600)))).toMatchObject({ ok: false, reason: expect.stringMatching(/old/) });
  });

  it('refuses malformed headers with the reason', () => {
    const good = signed(NEW_SECRET, String(NOW));
    expect(check({ ...good, 'x-signature': `sha256=${good['x-signature']}` })).toEqual({ ok: false, reason: expect.stringMatching(/x-signature must be one hex HMAC-SHA256/) });
    expect(check({ ...good, 'x-signature': good['x-signature'].slice(0, 63) })).toMatchObject({ ok: false, reason: expect.stringMatching(/64 hex digits/) });
    expect(check({ ...good, 'x-signature': Buffer.from(good['x-signature'], 'hex').toString('base64') })).toMatchObject({ ok: false });
    expect(check({ ...good, 'x-timestamp': new Date(NOW).toISOString() })).toEqual({ ok: false, reason: expect.stringMatching(/x-timestamp must be a Unix time/) });
    expect(check({ 'x-signature': good['x-signature'] })).toEqual({ ok: false, reason: expect.stringMatching(/x-timestamp is missing/) });
    expect(verifyVapiRequest({ headers: { ...good, 'x-signature': [good['x-signature'], good['x-signature']] }, rawBody: BODY, now: NOW, toleranceSeconds: 300, credentials: [{ kind: 'hmac', secret: NEW_SECRET }] })).toMatchObject({ ok: false });
  });

  it('refuses a signature made with another secret', () => {
    expect(check(signed('someone-else', String(NOW)))).toEqual({ ok: false, reason: expect.stringMatching(/does not match the body with any configured HMAC secret/) });
  });

  it('refuses a tampered body, and a tampered timestamp', () => {
    const good = signed(NEW_SECRET, String(NOW));
    expect(check(good, undefined, BODY.replace('voicemail', 'customer-ended-call'))).toMatchObject({ ok: false, reason: expect.stringMatching(/does not match/) });
    expect(check({ ...good, 'x-timestamp': String(NOW + 1) })).toMatchObject({ ok: false, reason: expect.stringMatching(/does not match/) });
  });

  it('accepts the old secret during a rotation, and says which one matched', () => {
    const both: VapiCredential[] = [{ kind: 'hmac', secret: NEW_SECRET }, { kind: 'hmac', secret: OLD_SECRET }];
    expect(check(signed(OLD_SECRET, String(NOW)), both)).toMatchObject({ ok: true, credentialIndex: 1 });
    expect(check(signed(NEW_SECRET, String(NOW)), both)).toMatchObject({ ok: true, credentialIndex: 0 });
    // after the grace period the old secret is removed, and then refused
    expect(check(signed(OLD_SECRET, String(NOW)), [{ kind: 'hmac', secret: NEW_SECRET }])).toMatchObject({ ok: false });
  });

  it('verifies the raw bytes (a Buffer body, non-ASCII text) and reads header names in any case', () => {
    const body = JSON.stringify({ message: { type: 'end-of-call-report', summary: 'Señora Núñez pidió una cita ☎' } });
    const h = signed(NEW_SECRET, String(NOW), body);
    expect(check({ 'X-Signature': h['x-signature'], 'X-Timestamp': h['x-timestamp'] }, undefined, Buffer.from(body, 'utf8'))).toMatchObject({ ok: true });
  });

  it('never downgrades a bad signature to the legacy secret', () => {
    const creds: VapiCredential[] = [{ kind: 'hmac', secret: NEW_SECRET }, { kind: 'secret', secret: LEGACY }];
    expect(check({ ...signed('wrong', String(NOW)), 'x-vapi-secret': LEGACY }, creds)).toMatchObject({ ok: false });
  });

  it('refuses a signed delivery when no HMAC secret is configured', () => {
    expect(check(signed(NEW_SECRET, String(NOW)), [{ kind: 'secret', secret: LEGACY }])).toEqual({ ok: false, reason: expect.stringMatching(/no HMAC secret is configured/) });
  });
});

describe('verifyVapiRequest: the legacy X-Vapi-Secret', () => {
  const creds: VapiCredential[] = [{ kind: 'secret', secret: LEGACY }];
  it('accepts the right secret', () => {
    expect(check({ 'x-vapi-secret': LEGACY }, creds)).toEqual({ ok: true, scheme: 'secret', credentialIndex: 0, replayKey: null });
    expect(check({ 'X-Vapi-Secret': LEGACY }, [{ kind: 'secret', secret: 'old-legacy' }, ...creds])).toMatchObject({ ok: true, credentialIndex: 1 });
  });
  it('refuses a wrong one, of any length', () => {
    for (const wrong of ['nope', `${LEGACY}x`, LEGACY.slice(0, -1), '']) {
      expect(check({ 'x-vapi-secret': wrong }, creds)).toEqual({ ok: false, reason: 'X-Vapi-Secret does not match any configured secret' });
    }
  });
  it('refuses a delivery with no credential headers', () => {
    expect(check({ 'content-type': 'application/json' }, creds)).toEqual({ ok: false, reason: expect.stringMatching(/neither x-signature and x-timestamp .* nor X-Vapi-Secret/) });
  });
});

describe('messageType', () => {
  it('reads message.type, and is null for anything that is not a server message', () => {
    expect(messageType({ message: { type: 'status-update', status: 'ringing' } })).toBe('status-update');
    expect(messageType({ message: { type: 'end-of-call-report' } })).toBe('end-of-call-report');
    for (const body of [null, 'x', [], {}, { message: null }, { message: { type: 3 } }, { type: 'end-of-call-report' }]) expect(messageType(body)).toBeNull();
  });
});

// ------------------------------------------------------------------------------------------------
// endedReason families
// ------------------------------------------------------------------------------------------------

describe('classifyEndedReason', () => {
  it('puts every endedReason Vapi publishes in a known family', () => {
    const reasons = vapiEndedReasons();
    expect(reasons.length).toBeGreaterThan(600);
    const unknown = reasons.filter((r) => classifyEndedReason(r).family === 'unknown');
    expect(unknown).toEqual([]);
  });

  it.each([
    ['voicemail', 'voicemail', 'VOICEMAIL'],
    ['assistant-forwarded-call', 'transferred', 'TRANSFER'],
    ['call.ending.hook-executed-transfer', 'transferred', 'TRANSFER'],
    ['customer-did-not-answer', 'not-reached', 'NO_ACTION'],
    ['customer-busy', 'not-reached', 'NO_ACTION'],
    ['twilio-failed-to-connect-call', 'not-reached', 'NO_ACTION'],
    ['call.in-progress.error-providerfault-outbound-sip-480-temporarily-unavailable', 'not-reached', 'NO_ACTION'],
    ['call.forwarding.operator-busy', 'transfer-failed', 'NO_ACTION'],
    ['call.in-progress.error-warm-transfer-max-duration', 'transfer-failed', 'NO_ACTION'],
    ['customer-ended-call-during-transfer', 'transfer-failed', 'NO_ACTION'],
    ['customer-ended-call', 'conversation-ended', 'NO_ACTION'],
    ['assistant-ended-call-after-message-spoken', 'conversation-ended', 'NO_ACTION'],
    ['silence-timed-out', 'conversation-ended', 'NO_ACTION'],
    ['exceeded-max-duration', 'conversation-ended', 'NO_ACTION'],
    ['manually-canceled', 'canceled', 'NO_ACTION'],
    ['pipeline-error-openai-llm-failed', 'error', 'NO_ACTION'],
    ['call.start.error-subscription-insufficient-credits', 'error', 'NO_ACTION'],
    ['call.in-progress.error-vapifault-openai-llm-failed', 'error', 'NO_ACTION'],
    ['worker-shutdown', 'error', 'NO_ACTION'],
    ['something-vapi-adds-next-year', 'unknown', 'NO_ACTION'],
  ])('%s -> %s (%s)', (reason, family, outcome) => {
    expect(classifyEndedReason(reason)).toEqual({ family, outcome });
  });

  it('the published reasons used above exist (the table is not about invented names)', () => {
    const reasons = new Set(vapiEndedReasons());
    for (const r of ['voicemail', 'assistant-forwarded-call', 'customer-did-not-answer', 'customer-busy', 'call.forwarding.operator-busy', 'customer-ended-call', 'manually-canceled', 'worker-shutdown', 'call.in-progress.error-providerfault-outbound-sip-480-temporarily-unavailable']) {
      expect(reasons.has(r), r).toBe(true);
    }
  });
});

// ------------------------------------------------------------------------------------------------
// end-of-call-report -> call.ended, on calls placed through the adapter against the Vapi fake
// ------------------------------------------------------------------------------------------------

const AGENCY = 'agy_9';
const CAMPAIGN = 'cmp_spring';
let fake: VapiFake;
let seq = 0;

beforeAll(async () => {
  fake = await startVapiFake({ assistants: ['asst-1'], phoneNumbers: [{ id: 'pn-1', number: '+15125550100' }] });
});
afterAll(async () => {
  expect(fake.violations).toEqual([]);
  await fake.close();
});

const voice = () =>
  vapiVoice({
    baseUrl: fake.url,
    apiKey: async () => fake.apiKey,
    journal: storeJournal().journal,
    async resolve({ from }) {
      if (from !== '+15125550100') throw new PermanentPortError(`no number ${from}`);
      return { assistantId: 'asst-1', phoneNumberId: 'pn-1' };
    },
  });

/** Places a call through the adapter, then has the fake end it with a report valid per Vapi's schema. */
async function endedCall(opts: ReportOptions) {
  const n = ++seq;
  const req = { agencyId: AGENCY, callId: `lead_${n}-1`, campaignId: CAMPAIGN, contactId: `ct_${n}`, leadId: `lead_${n}`, to: '+15125550123', from: '+15125550100', variables: { fullName: 'Ana Lopez' } };
  const placed = await voice().placeCall(req);
  const report = fake.endOfCallReport(placed.platformCallId, opts);
  expect(vapiViolations('ServerMessageEndOfCallReport', report)).toEqual([]);
  return { req, placed, report };
}

/** The mapped body must be accepted by our own events endpoint's schema. */
function expectCallEndedEvent(event: unknown) {
  expect(() => validate('body', CallEndedEvent, event)).not.toThrow();
}

const ENDED_AT = Date.parse('2026-03-02T15:04:05.000Z');
const TURNS: ReportOptions['turns'] = [
  { role: 'bot', text: 'Hi Ana, this is Bright Smiles Dental calling about your cleaning.' },
  { role: 'user', text: "I'm driving, can you call me back tomorrow at ten?" },
  { role: 'bot', text: 'Of course, tomorrow at ten. Drive safely!' },
];

describe('mapEndOfCallReport', () => {
  let mapping: { outcomeField: string; outcomeMap?: Record<string, string> };
  beforeEach(() => {
    mapping = { outcomeField: 'call_outcome' };
  });

  it('a recorded outcome: every field of call.ended, from a report Vapi would send', async () => {
    const { req, placed, report } = await endedCall({
      endedReason: 'customer-ended-call',
      durationSeconds: 95,
      endedAt: ENDED_AT,
      cost: 0.2731,
      recording: true,
      summary: 'Ana asked to be called back tomorrow at 10am.',
      turns: TURNS,
      structuredData: { call_outcome: 'Call Back', callback_time: '2026-03-03T10:00:00-06:00', interested: true, attempts: 2, notes: { mood: 'busy' }, topics: ['cleaning'], empty: null },
    });
    const mapped = mapEndOfCallReport(report, mapping);
    expectCallEndedEvent(mapped.event);
    expect(mapped).toEqual({
      platformCallId: placed.platformCallId,
      outcomeFrom: 'structuredData',
      endedReason: 'customer-ended-call',
      endedReasonFamily: 'conversation-ended',
      event: {
        type: 'call.ended',
        call: {
          callId: req.callId,
          campaignId: CAMPAIGN,
          contactId: req.contactId,
          leadId: req.leadId,
          phoneNumber: '+15125550123',
          leadName: 'Ana Lopez',
          direction: 'outbound',
          dateTime: '2026-03-02T15:04:05.000Z',
          status: 'ended',
          duration: 95,
          cost: 0.2731,
          recordingUrl: `https://storage.vapi.ai/${placed.platformCallId}-mono.wav`,
          callSummary: 'Ana asked to be called back tomorrow at 10am.',
          transcript:
            "Agent: Hi Ana, this is Bright Smiles Dental calling about your cleaning.\nLead: I'm driving, can you call me back tomorrow at ten?\nAgent: Of course, tomorrow at ten. Drive safely!",
          transcriptSource: 'vapi',
          disposition: 'CALLBACK',
          fields: [
            { key: 'call_outcome', value: 'Call Back' },
            { key: 'callback_time', value: '2026-03-03T10:00:00-06:00' },
            { key: 'interested', value: true },
            { key: 'attempts', value: 2 },
            { key: 'notes', value: '{"mood":"busy"}' },
            { key: 'topics', value: '["cleaning"]' },
            { key: 'empty', value: null },
          ],
        },
      },
    });
    expect(reportMetadata(report)).toEqual({ callId: req.callId, agencyId: AGENCY, campaignId: CAMPAIGN, contactId: req.contactId, leadId: req.leadId });
  });

  it("the agent's own outcome words, through outcomeMap", async () => {
    const { report } = await endedCall({ endedReason: 'assistant-ended-call', durationSeconds: 60, turns: TURNS, structuredData: { call_outcome: ' Booked ' } });
    const mapped = mapEndOfCallReport(report, { outcomeField: 'call_outcome', outcomeMap: { booked: 'SUCCESS', 'not interested': 'no action' } });
    expectCallEndedEvent(mapped.event);
    expect(mapped.event.call.disposition).toBe('SUCCESS');
    expect(mapped.outcomeFrom).toBe('structuredData');
  });

  it('voicemail: no recorded outcome, so the endedReason decides', async () => {
    const { report } = await endedCall({
      endedReason: 'voicemail',
      durationSeconds: 21,
      endedAt: ENDED_AT,
      turns: [{ role: 'bot', text: 'Hi Ana, sorry we missed you. Please call us back at 512 555 0100.' }],
      summary: 'Reached voicemail; left a message.',
    });
    const mapped = mapEndOfCallReport(report, mapping);
    expectCallEndedEvent(mapped.event);
    expect(mapped).toMatchObject({ outcomeFrom: 'endedReason', endedReasonFamily: 'voicemail' });
    expect(mapped.event.call).toMatchObject({ disposition: 'VOICEMAIL', duration: 21, transcript: 'Agent: Hi Ana, sorry we missed you. Please call us back at 512 555 0100.', fields: [] });
  });

  it('no answer: never connected, no duration or transcript, NO_ACTION', async () => {
    const { report } = await endedCall({ endedReason: 'customer-did-not-answer', endedAt: ENDED_AT });
    const mapped = mapEndOfCallReport(report, mapping);
    expectCallEndedEvent(mapped.event);
    expect(mapped).toMatchObject({ outcomeFrom: 'endedReason', endedReasonFamily: 'not-reached' });
    expect(mapped.event.call.disposition).toBe('NO_ACTION');
    expect(mapped.event.call).not.toHaveProperty('duration');
    expect(mapped.event.call).not.toHaveProperty('transcript');
    expect(mapped.event.call).not.toHaveProperty('recordingUrl');
    expect(mapped.event.call.dateTime).toBe('2026-03-02T15:04:05.000Z');
  });

  it('busy is NO_ACTION; a completed transfer is TRANSFER', async () => {
    const busy = mapEndOfCallReport((await endedCall({ endedReason: 'customer-busy' })).report, mapping);
    expectCallEndedEvent(busy.event);
    expect(busy.event.call.disposition).toBe('NO_ACTION');
    const moved = mapEndOfCallReport((await endedCall({ endedReason: 'assistant-forwarded-call', durationSeconds: 40, turns: TURNS })).report, mapping);
    expectCallEndedEvent(moved.event);
    expect(moved.event.call.disposition).toBe('TRANSFER');
  });

  it('a recorded word that is no outcome falls back to the endedReason', async () => {
    const { report } = await endedCall({ endedReason: 'voicemail', durationSeconds: 10, structuredData: { call_outcome: 'maybe later' } });
    const mapped = mapEndOfCallReport(report, mapping);
    expect(mapped).toMatchObject({ outcomeFrom: 'endedReason', event: { call: { disposition: 'VOICEMAIL', fields: [{ key: 'call_outcome', value: 'maybe later' }] } } });
  });

  it("only artifact.transcript: Vapi's AI:/User: lines become Agent:/Lead:", async () => {
    const { report } = await endedCall({ endedReason: 'customer-ended-call', durationSeconds: 30, turns: TURNS, transcriptOnly: true, structuredData: { call_outcome: 'NO_ACTION' } });
    const mapped = mapEndOfCallReport(report, mapping);
    expectCallEndedEvent(mapped.event);
    expect(mapped.event.call.transcript).toBe(
      "Agent: Hi Ana, this is Bright Smiles Dental calling about your cleaning.\nLead: I'm driving, can you call me back tomorrow at ten?\nAgent: Of course, tomorrow at ten. Drive safely!",
    );
  });

  it('a report without our metadata (a call placed elsewhere): Vapi\'s call id, the campaign from the route', async () => {
    const { report, placed } = await endedCall({ endedReason: 'voicemail', durationSeconds: 5 });
    const call = report.call as { assistantOverrides?: unknown };
    delete call.assistantOverrides;
    expect(vapiViolations('ServerMessageEndOfCallReport', report)).toEqual([]);
    expect(() => mapEndOfCallReport(report, mapping)).toThrow(/metadata\.campaignId is missing/);
    const mapped = mapEndOfCallReport(report, { ...mapping, campaignId: CAMPAIGN });
    expectCallEndedEvent(mapped.event);
    expect(mapped.event.call.callId).toBe(placed.platformCallId);
    expect(mapped.event.call).not.toHaveProperty('leadId');
  });

  it('a malformed report is a typed error naming everything missing', async () => {
    const { report } = await endedCall({ endedReason: 'voicemail', durationSeconds: 5 });
    const broken = structuredClone(report) as Record<string, unknown> & { call: Record<string, unknown> };
    delete broken.customer;
    delete (broken.call as { customer?: unknown }).customer;
    delete broken.endedAt;
    delete broken.call.endedAt;
    delete broken.timestamp;
    delete broken.endedReason;
    delete broken.call.endedReason;
    const err = (() => {
      try {
        mapEndOfCallReport(broken, mapping);
      } catch (e) {
        return e;
      }
    })() as MalformedVapiReportError;
    expect(err).toBeInstanceOf(MalformedVapiReportError);
    expect(err.problems).toEqual([
      'customer.number is missing',
      'endedAt is missing (and call.endedAt and timestamp too)',
      'neither analysis.structuredData.call_outcome holds an outcome nor is endedReason present',
    ]);
    expect(() => mapEndOfCallReport({ type: 'status-update' }, mapping)).toThrow(/type is "status-update".*call is missing/);
    expect(() => mapEndOfCallReport(null, mapping)).toThrow(MalformedVapiReportError);
    const notE164 = structuredClone(report) as { customer: { number: string } };
    notE164.customer.number = '5125550123';
    expect(() => mapEndOfCallReport(notE164, mapping)).toThrow(/customer.number "5125550123" is not E.164/);
  });

  it('a signed delivery from the fake verifies, and its body maps', async () => {
    const { report, req } = await endedCall({ endedReason: 'voicemail', durationSeconds: 12, turns: TURNS.slice(0, 1) });
    const delivery = fake.sign(report, NEW_SECRET);
    const verdict = verifyVapiRequest({ headers: delivery.headers, rawBody: delivery.raw, now: Date.now(), toleranceSeconds: 300, credentials: [{ kind: 'hmac', secret: NEW_SECRET }] });
    expect(verdict).toMatchObject({ ok: true, scheme: 'hmac' });
    const body = JSON.parse(delivery.raw) as { message: unknown };
    expect(messageType(body)).toBe('end-of-call-report');
    const mapped = mapEndOfCallReport(body.message, mapping);
    expectCallEndedEvent(mapped.event);
    expect(mapped.event.call).toMatchObject({ callId: req.callId, disposition: 'VOICEMAIL' });
  });
});

describe("Vapi's published schema, as the tests use it", () => {
  it('as published, its message union refuses every spoken turn (workaround 4), while the patched one accepts them', async () => {
    const { report } = await endedCall({ endedReason: 'customer-ended-call', durationSeconds: 20, turns: TURNS });
    const unpatched = vapiViolationsUnpatched('ServerMessageEndOfCallReport', report);
    expect(unpatched).toContain('/artifact/messages/1 must match exactly one schema in oneOf');
    expect(vapiViolations('ServerMessageEndOfCallReport', report)).toEqual([]);
  });

  it('the patched union still holds each message to a message type', async () => {
    const { report } = await endedCall({ endedReason: 'customer-ended-call', durationSeconds: 20, turns: TURNS });
    const broken = structuredClone(report) as { artifact: { messages: Record<string, unknown>[] } };
    delete broken.artifact.messages[1]!.time;
    expect(vapiViolations('ServerMessageEndOfCallReport', broken).join('\n')).toMatch(/\/artifact\/messages\/1 must match a schema in anyOf/);
  });

  it('and the rest of the report is checked as published: a wrong endedReason or a missing analysis is refused', async () => {
    const { report } = await endedCall({ endedReason: 'voicemail', durationSeconds: 3 });
    expect(vapiViolations('ServerMessageEndOfCallReport', { ...report, endedReason: 'hung-up' }).join('\n')).toMatch(/endedReason must be equal to one of the allowed values/);
    const { analysis: _analysis, ...withoutAnalysis } = report;
    expect(vapiViolations('ServerMessageEndOfCallReport', withoutAnalysis).join('\n')).toMatch(/must have required property 'analysis'/);
  });
});
