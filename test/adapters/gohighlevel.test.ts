import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CredentialRejectedError, PermanentPortError, RateLimitedError, VendorTimeoutError, type EffectContext } from '../../engine/ports.js';
import { gohighlevelAdapter, type GohighlevelAdapter } from '../../server/adapters/gohighlevel/index.js';
import { fakeId } from '../fakes/http-fake.js';
import { seedLocation, startGohighlevelFake, type GohighlevelFake } from '../fakes/gohighlevel-fake.js';
import { storeJournal, type StoreJournal } from '../helpers/store-journal.js';

/** The GoHighLevel adapter's behaviour against a stateful fake: state after effects, exactly-once, faults. */

const TOKEN = 'pit-7f3c2a9e-5b1d-4e8f-a6c0-secret';
const AGENCY = 'agency_ghl';

let fake: GohighlevelFake;
let mj: StoreJournal;
let ghl: GohighlevelAdapter;
/** the same, with a short deadline, for accepted-then-hung requests */
let impatient: GohighlevelAdapter;
let seed: ReturnType<typeof seedLocation>;
let seq = 0;
const effect = (): EffectContext => ({ agencyId: AGENCY, locationId: seed.locationId, idempotencyKey: `wf_${++seq}:node_1` });

/** Every error a test meets goes through here: none may carry the token. */
async function failure(p: Promise<unknown>): Promise<Error> {
  const e = await p.then(
    () => {
      throw new Error('expected a failure');
    },
    (x: unknown) => x as Error,
  );
  expect(e.message).not.toContain(TOKEN);
  expect(e.message).not.toContain(TOKEN.slice(4, 20));
  expect(JSON.stringify(e)).not.toContain(TOKEN);
  return e;
}

beforeAll(async () => {
  fake = await startGohighlevelFake({ token: TOKEN });
});
afterAll(async () => {
  await fake?.close();
});
beforeEach(() => {
  seed = seedLocation(fake);
  mj = storeJournal();
  ghl = gohighlevelAdapter({ baseUrl: fake.url, token: async () => TOKEN, journal: mj.journal, timeoutMs: 5_000 });
  impatient = gohighlevelAdapter({ baseUrl: fake.url, token: async () => TOKEN, journal: mj.journal, timeoutMs: 300 });
});

const requestsSince = (n: number) => fake.requests.slice(n).map((r) => `${r.method} ${r.path}`);

describe('GoHighLevel adapter: effects', () => {
  it('tags after two adds are merged at the vendor; a removal takes one away', async () => {
    await ghl.addTags(effect(), seed.contact.id, ['called']);
    expect(await ghl.addTags(effect(), seed.contact.id, ['hot', 'called'])).toEqual({ tags: ['lead', 'called', 'hot'] });
    expect(fake.state.contacts.get(seed.contact.id)!.tags).toEqual(['lead', 'called', 'hot']);
    expect(await ghl.removeTags(effect(), seed.contact.id, ['lead'])).toEqual({ tags: ['called', 'hot'] });
    expect((await ghl.getContact(AGENCY, seed.locationId, seed.contact.id))!.tags).toEqual(['called', 'hot']);
  });

  it('a field set by our key lands on the location field id, whichever way the key is written', async () => {
    expect(await ghl.setField(effect(), seed.contact.id, 'contact.callback_time', '2026-01-05T15:00:00.000Z')).toEqual({ field: 'callback_time', value: '2026-01-05T15:00:00.000Z' });
    expect(fake.state.contacts.get(seed.contact.id)!.customFields).toContainEqual({ id: seed.callbackField.id, value: '2026-01-05T15:00:00.000Z' });
    await ghl.setField(effect(), seed.contact.id, '{{contact.insurance_provider}}', 'Aetna');
    await ghl.setField(effect(), seed.contact.id, 'callback_time', '2026-01-06T15:00:00.000Z');
    const c = await ghl.getContact(AGENCY, seed.locationId, seed.contact.id);
    expect(c!.fields).toEqual({ callback_time: '2026-01-06T15:00:00.000Z', insurance_provider: 'Aetna' });
  });

  it('field definitions are reused for a while, and a field created since is found by asking again', async () => {
    const from = fake.requests.length;
    await ghl.setField(effect(), seed.contact.id, 'callback_time', 'a');
    await ghl.setField(effect(), seed.contact.id, 'callback_time', 'b');
    expect(requestsSince(from).filter((r) => r.endsWith('/customFields'))).toHaveLength(1);
    const score = { id: fakeId('f'), locationId: seed.locationId, name: 'Score', fieldKey: 'contact.score', dataType: 'NUMERICAL' };
    fake.state.fields.push(score);
    expect(await ghl.setField(effect(), seed.contact.id, 'score', 7)).toEqual({ field: 'score', value: 7 });
    expect(fake.state.contacts.get(seed.contact.id)!.customFields).toContainEqual({ id: score.id, value: '7' });
    const e = await failure(ghl.setField(effect(), seed.contact.id, 'contact.nope', 1));
    expect(e).toBeInstanceOf(PermanentPortError);
    expect(e.message).toBe(`no contact custom field "contact.nope" in location ${seed.locationId}`);
  });

  it('a stage move creates the opportunity in the pipeline, and the next move updates it', async () => {
    const [nw, booked, won] = seed.pipeline.stages;
    expect(await ghl.moveStage(effect(), seed.contact.id, seed.pipeline.id, booked!.id)).toEqual({ pipelineId: seed.pipeline.id, stageId: booked!.id });
    const mine = () => [...fake.state.opportunities.values()].filter((o) => o.contactId === seed.contact.id);
    expect(mine()).toMatchObject([{ pipelineId: seed.pipeline.id, pipelineStageId: booked!.id, name: 'Ana Lopez', status: 'open' }]);
    const from = fake.requests.length;
    await ghl.moveStage(effect(), seed.contact.id, seed.pipeline.id, won!.id);
    expect(requestsSince(from)).toEqual(['GET /opportunities/search', `PUT /opportunities/${mine()[0]!.id}`]);
    expect(mine()).toMatchObject([{ pipelineStageId: won!.id }]);
    expect(nw).toBeDefined();
  });

  it('a stage the pipeline does not have is refused with the vendor\'s message', async () => {
    const e = await failure(ghl.moveStage(effect(), seed.contact.id, seed.pipeline.id, 'no-such-stage'));
    expect(e).toBeInstanceOf(PermanentPortError);
    expect(e.message).toContain(`Stage no-such-stage is not in pipeline ${seed.pipeline.id}`);
  });

  it('a note is added once across an attempt whose answer was lost and its retry', async () => {
    fake.inject({ method: 'POST', path: /\/notes$/, kind: 'hang' });
    const e = effect();
    const err = await failure(impatient.addNote(e, seed.contact.id, 'Asked for a callback tomorrow'));
    expect(err).toBeInstanceOf(VendorTimeoutError);
    expect(mj.entry(AGENCY, e.idempotencyKey)).toMatchObject({ state: 'pending', attempts: 1 });
    expect(fake.state.contacts.get(seed.contact.id)!.notes).toHaveLength(1); // the vendor did act

    const from = fake.requests.length;
    const result = await ghl.addNote(e, seed.contact.id, 'Asked for a callback tomorrow');
    const notes = fake.state.contacts.get(seed.contact.id)!.notes;
    expect(notes).toHaveLength(1);
    expect(result).toEqual({ noteId: notes[0]!.id, body: 'Asked for a callback tomorrow' });
    expect(requestsSince(from)).toEqual([`GET /contacts/${seed.contact.id}/notes`]);
    // and a third attempt returns the recorded result without asking
    const again = fake.requests.length;
    expect(await ghl.addNote(e, seed.contact.id, 'Asked for a callback tomorrow')).toEqual(result);
    expect(fake.requests.length).toBe(again);
  });

  it('after a 500 the outcome stays unknown: the retry checks, finds nothing, and adds the note once', async () => {
    fake.inject({ method: 'POST', path: /\/notes$/, kind: 'status', status: 500, message: 'Internal server error' });
    const e = effect();
    const err = await failure(ghl.addNote(e, seed.contact.id, 'Voicemail left'));
    expect(err).not.toBeInstanceOf(PermanentPortError);
    expect(err).not.toBeInstanceOf(RateLimitedError);
    expect(mj.entry(AGENCY, e.idempotencyKey)).toMatchObject({ state: 'pending' });
    await ghl.addNote(e, seed.contact.id, 'Voicemail left');
    expect(fake.state.contacts.get(seed.contact.id)!.notes.map((n) => n.body)).toEqual(['Voicemail left']);
    expect(mj.entry(AGENCY, e.idempotencyKey)).toMatchObject({ state: 'done' });
  });

  it('an SMS is sent once across an accepted-then-timed-out attempt and its retry', async () => {
    fake.inject({ method: 'POST', path: '/conversations/messages', kind: 'hang' });
    const e = effect();
    const msg = { contactId: seed.contact.id, to: '+15125550123', from: '+15125550100', body: 'Thanks Ana, talk tomorrow.' };
    expect(await failure(impatient.sendSms(e, msg))).toBeInstanceOf(VendorTimeoutError);
    const result = await ghl.sendSms(e, msg);
    const sent = fake.state.messages.filter((m) => m.contactId === seed.contact.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ messageType: 'TYPE_SMS', body: msg.body, to: msg.to, from: msg.from });
    expect(result).toEqual({ messageId: sent[0]!.id, status: 'sent', body: msg.body });
  });

  it('an email is sent once across an accepted-then-timed-out attempt and its retry', async () => {
    fake.inject({ method: 'POST', path: '/conversations/messages', kind: 'hang' });
    const e = effect();
    const msg = { contactId: seed.contact.id, to: 'ana@example.com', subject: 'Your visit', body: 'Hi Ana,\nsee you at 3 <pm>.' };
    expect(await failure(impatient.sendEmail(e, msg))).toBeInstanceOf(VendorTimeoutError);
    await ghl.sendEmail(e, msg);
    const sent = fake.state.messages.filter((m) => m.contactId === seed.contact.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ messageType: 'TYPE_EMAIL', subject: 'Your visit', to: 'ana@example.com', body: 'Hi Ana,<br>see you at 3 &lt;pm&gt;.' });
  });

  it('an appointment is booked once across an accepted-then-timed-out attempt and its retry', async () => {
    fake.inject({ method: 'POST', path: '/calendars/events/appointments', kind: 'hang' });
    const e = effect();
    const req = { calendarId: seed.calendar.id, contactId: seed.contact.id, startsAt: '2030-03-04T15:00:00.000Z', durationMinutes: 30 };
    expect(await failure(impatient.book(e, req))).toBeInstanceOf(VendorTimeoutError);
    const result = await ghl.book(e, req);
    const mine = fake.state.appointments.filter((a) => a.contactId === seed.contact.id);
    expect(mine).toHaveLength(1);
    expect(result).toEqual({ appointmentId: mine[0]!.id, calendarId: seed.calendar.id, startsAt: '2030-03-04T15:00:00.000Z', endsAt: '2030-03-04T15:30:00.000Z' });
  });

  it('a taken slot is a PermanentPortError naming the slot, and the journal lets a later attempt start afresh', async () => {
    const req = { calendarId: seed.calendar.id, contactId: seed.contact.id, startsAt: '2030-03-05T16:00:00.000Z', durationMinutes: 30 };
    await ghl.book(effect(), req);
    const e = effect();
    const err = await failure(ghl.book(e, req));
    expect(err).toBeInstanceOf(PermanentPortError);
    expect(err.message).toBe(`slot 2030-03-05T16:00:00.000Z on calendar ${seed.calendar.id} is not free`);
    expect(mj.entry(AGENCY, e.idempotencyKey)).toBeNull();
    expect(fake.state.appointments.filter((a) => a.calendarId === seed.calendar.id)).toHaveLength(1);
  });
});

describe('GoHighLevel adapter: faults', () => {
  it('a 401 is CredentialRejectedError, for a revoked token and for a wrong one', async () => {
    fake.inject({ path: /^\/contacts\//, kind: 'status', status: 401, message: 'Invalid token: access token is invalid' });
    const e = await failure(ghl.addTags(effect(), seed.contact.id, ['x']));
    expect(e).toBeInstanceOf(CredentialRejectedError);
    expect((e as CredentialRejectedError).vendor).toBe('gohighlevel');
    expect(e.message).toContain('Invalid token: access token is invalid');
    const wrong = gohighlevelAdapter({ baseUrl: fake.url, token: async () => `${TOKEN}-old`, journal: mj.journal });
    expect(await failure(wrong.location(AGENCY, seed.locationId))).toBeInstanceOf(CredentialRejectedError);
  });

  it('a 403 about the token is a rejected credential; a 403 about the resource is only permanent', async () => {
    fake.inject({ path: /^\/locations\//, kind: 'status', status: 403, message: 'The token is not authorized for this scope.' });
    expect(await failure(ghl.location(AGENCY, seed.locationId))).toBeInstanceOf(CredentialRejectedError);
    fake.inject({ path: /^\/locations\//, kind: 'status', status: 403, message: 'This location is on a plan without calendars' });
    const e = await failure(ghl.location(AGENCY, seed.locationId));
    expect(e).toBeInstanceOf(PermanentPortError);
    expect(e).not.toBeInstanceOf(CredentialRejectedError);
  });

  it('a 429 with Retry-After: 2 is RateLimitedError with retryAfterMs 2000, and a journaled effect starts afresh', async () => {
    fake.inject({ method: 'POST', path: /\/notes$/, kind: 'status', status: 429, retryAfter: '2', message: 'Too many requests' });
    const e = effect();
    const err = await failure(ghl.addNote(e, seed.contact.id, 'x'));
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(2000);
    expect(mj.entry(AGENCY, e.idempotencyKey)).toBeNull();
    expect(fake.state.contacts.get(seed.contact.id)!.notes).toHaveLength(0);
  });

  it('a 400 carries the vendor\'s own message as a PermanentPortError', async () => {
    fake.inject({ path: `/contacts/${seed.contact.id}`, method: 'PUT', kind: 'status', status: 400, message: 'customFields[0].field_value must be a string' });
    const err = await failure(ghl.setField(effect(), seed.contact.id, 'callback_time', 'x'));
    expect(err).toBeInstanceOf(PermanentPortError);
    expect(err.message).toBe(`gohighlevel PUT /contacts/${seed.contact.id} → HTTP 400: customFields[0].field_value must be a string`);
  });

  it('a vendor message that echoes the token is scrubbed', async () => {
    fake.inject({ path: /^\/calendars\//, kind: 'status', status: 400, message: `bad header Bearer ${TOKEN}` });
    const err = await failure(ghl.calendars(AGENCY, seed.locationId));
    expect(err.message).toContain('bad header [redacted]');
  });

  it('every request carries the Version its API family requires', async () => {
    const from = fake.requests.length;
    await ghl.getContact(AGENCY, seed.locationId, seed.contact.id);
    await ghl.calendars(AGENCY, seed.locationId);
    await ghl.sendSms(effect(), { contactId: seed.contact.id, to: '+15125550123', from: null, body: 'hi' });
    await ghl.pipelines(AGENCY, seed.locationId);
    const seen = fake.requests.slice(from).map((r) => `${r.path.split('/')[1]} ${r.headers.version}`);
    expect(new Set(seen)).toEqual(new Set(['contacts 2021-07-28', 'locations 2021-07-28', 'calendars 2021-04-15', 'conversations 2021-04-15', 'opportunities 2021-07-28']));
  });
});

describe('GoHighLevel adapter: reads', () => {
  it('getContact maps the contact; an unknown id or another location\'s contact is null', async () => {
    expect(await ghl.getContact(AGENCY, seed.locationId, seed.contact.id)).toEqual({
      id: seed.contact.id,
      locationId: seed.locationId,
      firstName: 'Ana',
      lastName: 'Lopez',
      fullName: 'Ana Lopez',
      email: 'ana@example.com',
      phone: '+15125550123',
      timezone: 'America/Chicago',
      tags: ['lead'],
      fields: { insurance_provider: 'Delta' },
    });
    expect(await ghl.getContact(AGENCY, seed.locationId, 'nobody')).toBeNull();
    const other = seedLocation(fake);
    expect(await ghl.getContact(AGENCY, seed.locationId, other.contact.id)).toBeNull();
  });

  it('findContactByPhone finds the location\'s contact by number', async () => {
    expect((await ghl.findContactByPhone(AGENCY, seed.locationId, '+1 (512) 555-0123'))?.id).toBe(seed.contact.id);
    expect(await ghl.findContactByPhone(AGENCY, seed.locationId, '+15125559999')).toBeNull();
  });

  it('directory reads: location, pipelines with stages, calendars, custom values and fields', async () => {
    expect(await ghl.location(AGENCY, seed.locationId)).toEqual({
      id: seed.locationId,
      name: 'Sunrise Dental',
      timezone: 'America/Chicago',
      country: 'US',
      phone: '+15125550100',
      address: null,
      city: 'Austin',
      state: 'TX',
      postalCode: null,
      email: null,
      website: null,
    });
    expect(await ghl.pipelines(AGENCY, seed.locationId)).toEqual([{ id: seed.pipeline.id, name: 'Sales', stages: seed.pipeline.stages }]);
    expect(await ghl.calendars(AGENCY, seed.locationId)).toEqual([{ id: seed.calendar.id, name: 'Consultations' }]);
    const values = await ghl.customValues(AGENCY, seed.locationId);
    expect(values).toEqual([{ id: expect.any(String), name: 'Business name', fieldKey: '{{custom_values.business_name}}', placeholder: 'custom_values.business_name', value: 'Sunrise Dental' }]);
    expect(await ghl.customFields(AGENCY, seed.locationId)).toEqual([
      { id: seed.callbackField.id, name: 'Callback time', fieldKey: 'contact.callback_time', placeholder: '{{contact.callback_time}}', dataType: 'DATE' },
      { id: seed.insuranceField.id, name: 'Insurance provider', fieldKey: 'contact.insurance_provider', placeholder: '{{contact.insurance_provider}}', dataType: 'TEXT' },
    ]);
  });
});
