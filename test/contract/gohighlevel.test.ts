import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentPortError, type EffectContext } from '../../engine/ports.js';
import { gohighlevelAdapter, type GohighlevelAdapter } from '../../server/adapters/gohighlevel/index.js';
import { ghlClient } from '../../server/adapters/gohighlevel/client.js';
import { VendorRefusedError } from '../../server/adapters/vendor-http.js';
import { storeJournal, type StoreJournal } from '../helpers/store-journal.js';
import { conforming, requestViolations, startPrismMocks, type PrismMocks } from '../helpers/prism.js';

/**
 * Every port method of the GoHighLevel adapter against Prism serving GoHighLevel's own documents
 * (one Prism per app document behind one router): each request must conform (Version header,
 * parameters, body), and each documented example answer must parse into our shapes.
 */

const docs = path.resolve(import.meta.dirname, '../fixtures/vendor-openapi/gohighlevel/apps');
// The documents' own example ids, so that what Prism answers is what a real location would.
const LOCATION = 've9EPM428h8vShlRW1KT';
const AGENCY = 'agency_contract';
const TOKEN = 'pit-contract-token-0123456789';

let mocks: PrismMocks;
let mj: StoreJournal;
let ghl: GohighlevelAdapter;
let seq = 0;
const effect = (): EffectContext => ({ agencyId: AGENCY, locationId: LOCATION, idempotencyKey: `wf_contract:${++seq}` });

beforeAll(async () => {
  mocks = await startPrismMocks(
    ['contacts', 'opportunities', 'conversations', 'calendars', 'locations'].map((app) => ({ prefix: `/${app}`, document: path.join(docs, `${app}.json`) })),
  );
  mj = storeJournal();
  ghl = gohighlevelAdapter({ baseUrl: mocks.url, token: async () => TOKEN, journal: mj.journal, timeoutMs: 10_000 });
});

afterAll(async () => {
  await mocks?.stop();
});

const call = <T>(fn: () => Promise<T>) => conforming(mocks, fn);
const lastPaths = (n: number) => mocks.exchanges.slice(-n).map((x) => `${x.method} ${x.path.split('?')[0]}`);

describe('GoHighLevel contract (Prism)', () => {
  it('a request that does not conform is refused with Prism\'s violation, and the adapter surfaces it as permanent', async () => {
    const client = ghlClient({ baseUrl: mocks.url, token: async () => TOKEN });
    const from = mocks.exchanges.length;
    const err = await client.call('contacts', { method: 'POST', path: '/contacts/abc/tags', json: { tag: 'x' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentPortError);
    expect((err as VendorRefusedError).status).toBe(422);
    const x = mocks.exchanges.slice(from);
    expect(x.flatMap(requestViolations).map((v) => v.message)).toContain("Request body must have required property 'tags'");
    // and the contract wrapper turns it into a failure that names the violation
    await expect(call(() => client.call('contacts', { method: 'POST', path: '/contacts/abc/tags', json: {} }))).rejects.toThrow(/required property 'tags'/);
    // a wrong Version header is a violation too
    const wrong = await fetch(`${mocks.url}/contacts/abc`, { headers: { authorization: `Bearer ${TOKEN}`, Version: '2021-04-15' } });
    expect(wrong.status).toBe(422);
  });

  it('getContact reads the documented contact into our Contact', async () => {
    const c = await call(() => ghl.getContact(AGENCY, LOCATION, 'ocQHyuzHvysMo5N5VsXc'));
    expect(lastPaths(2)).toEqual(['GET /contacts/ocQHyuzHvysMo5N5VsXc', `GET /locations/${LOCATION}/customFields`]);
    expect(c).toEqual({
      id: 'seD4PfOuKoVMLkEZqohJ',
      locationId: LOCATION,
      firstName: 'rubika',
      lastName: 'Deo',
      fullName: 'rubika deo',
      email: 'rubika@deos.com',
      phone: '+18832327657',
      timezone: 'Asia/Calcutta',
      tags: ['nisi sint commodo amet', 'consequat'],
      // the example's value belongs to a field id the example field list does not define: kept by id
      fields: { MgobCB14YMVKuE4Ka8p1: 'name' },
    });
  });

  it('findContactByPhone asks the duplicate search; the document gives no body, which reads as no contact', async () => {
    expect(await call(() => ghl.findContactByPhone(AGENCY, LOCATION, '+15125550123'))).toBeNull();
    const x = mocks.exchanges.at(-1)!;
    expect(x.path).toBe(`/contacts/search/duplicate?locationId=${LOCATION}&number=%2B15125550123`);
  });

  it('customValues and customFields map to our spec 2.9 shapes', async () => {
    expect(await call(() => ghl.customValues(AGENCY, LOCATION))).toEqual([
      { id: 'rWQ709Pb62syqGLceg1x', name: 'Custom Field', fieldKey: '{{custom_values.custom_field}}', placeholder: 'custom_values.custom_field', value: 'Value' },
    ]);
    expect(await call(() => ghl.customFields(AGENCY, LOCATION))).toEqual([
      { id: '3sv6UEo51C9Bmpo1cKTq', name: 'pincode', fieldKey: 'contact.pincode', placeholder: '{{contact.pincode}}', dataType: 'TEXT' },
    ]);
    expect(mocks.exchanges.at(-1)!.path).toBe(`/locations/${LOCATION}/customFields?model=contact`);
  });

  it('location, pipelines and calendars read into LocationInfo, Pipeline and CalendarInfo', async () => {
    expect(await call(() => ghl.location(AGENCY, LOCATION))).toEqual({
      id: LOCATION,
      name: 'dentist',
      timezone: 'America/Chicago',
      country: 'IN',
      phone: '+919039160788',
      address: 'ganthi nagar, gyanbabu chauk motihati',
      city: 'motihari',
      state: 'Loca',
      postalCode: '567654',
      email: 'rane@due.com',
      website: 'https://gohighlevel.com/',
    });
    // the document types stages as arrays of arrays; nothing in them is a stage
    expect(await call(() => ghl.pipelines(AGENCY, LOCATION))).toEqual([{ id: 'aWdODOBVOlH1RUFKWQke', name: 'new pipeline', stages: [] }]);
    const cals = await call(() => ghl.calendars(AGENCY, LOCATION));
    expect(cals).toHaveLength(1);
    expect(cals[0]!.name).toBe('test calendar');
    expect(typeof cals[0]!.id).toBe('string');
  });

  it('addTags and removeTags send the tags and read the answer', async () => {
    expect(await call(() => ghl.addTags(effect(), 'sx6wyHhbFdRXh302LLNR', ['called', 'hot']))).toEqual({ tags: ['minim', 'velit magna'] });
    expect(await call(() => ghl.removeTags(effect(), 'sx6wyHhbFdRXh302LLNR', ['hot']))).toEqual({ tags: ['minim', 'velit magna'] });
  });

  it('setField resolves the key to the location field id and updates the contact', async () => {
    expect(await call(() => ghl.setField(effect(), 'ocQHyuzHvysMo5N5VsXc', 'contact.pincode', 94107))).toEqual({ field: 'pincode', value: 94107 });
    expect(lastPaths(1)).toEqual(['PUT /contacts/ocQHyuzHvysMo5N5VsXc']);
    await expect(call(() => ghl.setField(effect(), 'ocQHyuzHvysMo5N5VsXc', 'no_such_field', 'x'))).rejects.toThrow(/no contact custom field "contact.no_such_field"/);
  });

  it('moveStage updates the contact\'s opportunity in the pipeline, or creates one there', async () => {
    // the documented search answer holds an opportunity of contact zT46… in pipeline VDm7…
    expect(await call(() => ghl.moveStage(effect(), 'zT46WSCPbudrq4zhWMk6', 'VDm7RPYC2GLUvdpKmBfC', 'stage-won'))).toEqual({ pipelineId: 'VDm7RPYC2GLUvdpKmBfC', stageId: 'stage-won' });
    expect(lastPaths(2)).toEqual(['GET /opportunities/search', 'PUT /opportunities/yWQobCRIhRguQtD2llvk']);
    const e = effect();
    expect(await call(() => ghl.moveStage(e, 'zT46WSCPbudrq4zhWMk6', 'otherPipeline', 'stage-1'))).toEqual({ pipelineId: 'otherPipeline', stageId: 'stage-1' });
    expect(lastPaths(1)).toEqual(['POST /opportunities/']);
    expect(mj.entry(AGENCY, `${e.idempotencyKey}:opportunity`)).toMatchObject({ state: 'done', result: { opportunityId: 'yWQobCRIhRguQtD2llvk' } });
  });

  it('addNote creates a note; after an unknown outcome it finds the earlier note instead of adding another', async () => {
    expect(await call(() => ghl.addNote(effect(), 'sx6wyHhbFdRXh302LLNR', 'Called, interested'))).toEqual({ noteId: 'HGPcayliwcdoUFzvbTok', body: 'Called, interested' });
    expect(lastPaths(1)).toEqual(['POST /contacts/sx6wyHhbFdRXh302LLNR/notes']);
    const e = effect();
    mj.seed(AGENCY, e.idempotencyKey, { state: 'pending', startedAt: '2021-07-08T12:00:00.000Z', attempts: 1 });
    // the documented note list holds "lorem ipsum" added 2021-07-08T12:02:11Z
    expect(await call(() => ghl.addNote(e, 'sx6wyHhbFdRXh302LLNR', 'lorem ipsum'))).toEqual({ noteId: 'HGPcayliwcdoUFzvbTok', body: 'lorem ipsum' });
    expect(lastPaths(1)).toEqual(['GET /contacts/sx6wyHhbFdRXh302LLNR/notes']);
  });

  it('sendSms and sendEmail post conversation messages of type SMS and Email', async () => {
    expect(await call(() => ghl.sendSms(effect(), { contactId: 'abc123def456', to: '+15125550123', from: '+15125550100', body: 'Thanks for your time' }))).toEqual({
      messageId: 't22c6DQcTDf3MjRhwf77',
      status: 'queued',
      body: 'Thanks for your time',
    });
    expect(await call(() => ghl.sendEmail(effect(), { contactId: 'abc123def456', to: 'ana@example.com', subject: 'Your quote', body: 'Hello Ana,\nhere it is.' }))).toEqual({
      messageId: 't22c6DQcTDf3MjRhwf77',
      status: 'queued',
    });
  });

  it('sendSms and sendEmail after an unknown outcome search the contact\'s conversations before sending', async () => {
    const e = effect();
    mj.seed(AGENCY, e.idempotencyKey, { state: 'pending', startedAt: '2024-03-27T18:00:00.000Z', attempts: 1 });
    // the documented message is inbound, so it is not the earlier send: the adapter sends
    await call(() => ghl.sendSms(e, { contactId: 'abc123def456', to: '+15125550123', from: null, body: 'Hi there' }));
    expect(lastPaths(3)).toEqual(['GET /conversations/search', 'GET /conversations/ABCHkzuJQ8ZMd4Te84GK/messages', 'POST /conversations/messages']);
    expect(mocks.exchanges.at(-2)!.path).toBe('/conversations/ABCHkzuJQ8ZMd4Te84GK/messages?type=TYPE_SMS&limit=100');
    const mail = effect();
    mj.seed(AGENCY, mail.idempotencyKey, { state: 'pending', startedAt: '2024-03-27T18:00:00.000Z', attempts: 1 });
    await call(() => ghl.sendEmail(mail, { contactId: 'abc123def456', to: 'ana@example.com', subject: 'Hi', body: 'Hi there' }));
    expect(lastPaths(3)).toEqual(['GET /conversations/search', 'GET /conversations/ABCHkzuJQ8ZMd4Te84GK/messages', 'POST /conversations/messages']);
    expect(mocks.exchanges.at(-2)!.path).toBe('/conversations/ABCHkzuJQ8ZMd4Te84GK/messages?type=TYPE_EMAIL&limit=100');
  });

  it('book checks the free slots and creates the appointment; a slot not offered is refused for good', async () => {
    // 2024-10-28T10:00:00-05:00 is a documented free slot
    expect(await call(() => ghl.book(effect(), { calendarId: 'ocQHyuzHvysMo5N5VsXc', contactId: '0007BWpSzSwfiuSl0tR2', startsAt: '2024-10-28T15:00:00.000Z', durationMinutes: 60 }))).toEqual({
      appointmentId: '0TkCdp9PfvLeWKYRRvIz',
      calendarId: 'ocQHyuzHvysMo5N5VsXc',
      startsAt: '2024-10-28T15:00:00.000Z',
      endsAt: '2024-10-28T16:00:00.000Z',
    });
    expect(lastPaths(2)).toEqual(['GET /calendars/ocQHyuzHvysMo5N5VsXc/free-slots', 'POST /calendars/events/appointments']);
    const e = effect();
    const err = await call(() => ghl.book(e, { calendarId: 'ocQHyuzHvysMo5N5VsXc', contactId: '0007BWpSzSwfiuSl0tR2', startsAt: '2024-10-28T17:30:00.000Z', durationMinutes: 30 })).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(PermanentPortError);
    expect((err as Error).message).toBe('slot 2024-10-28T17:30:00.000Z on calendar ocQHyuzHvysMo5N5VsXc is not free');
    expect(mj.entry(AGENCY, e.idempotencyKey)).toBeNull();
  });

  it('book after an unknown outcome looks for the appointment among the calendar\'s events first', async () => {
    const e = effect();
    mj.seed(AGENCY, e.idempotencyKey, { state: 'pending', startedAt: '2023-09-25T10:00:00.000Z', attempts: 1 });
    // the documented event: contact 9NkT… at 2023-09-25T16:00:00+05:30
    expect(await call(() => ghl.book(e, { calendarId: 'BqTwX8QFwXzpegMve9EQ', contactId: '9NkT25Vor1v4aQatFsv2', startsAt: '2023-09-25T10:30:00.000Z', durationMinutes: 30 }))).toEqual({
      appointmentId: 'ocQHyuzHvysMo5N5VsXc',
      calendarId: 'BqTwX8QFwXzpegMve9EQ',
      startsAt: '2023-09-25T10:30:00.000Z',
      endsAt: '2023-09-25T11:00:00.000Z',
    });
    expect(lastPaths(1)).toEqual(['GET /calendars/events']);
  });
});
