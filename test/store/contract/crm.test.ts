import { describe, expect, it } from 'vitest';
import { DIALECTS, unique, useStore } from './dialects.js';

describe.each(DIALECTS)('the embedded CRM, effects, the journal, the outbox and appointments on %s', (dialect) => {
  const s = useStore(dialect);

  it('contacts: created, found by id or phone in their location, saved; per agency and location', async () => {
    const a = unique('ag');
    const loc = unique('loc');
    const made = await s.store.crm.createContact(a, { locationId: loc, phone: '+15125550100', fullName: 'Ana Lopez', email: 'ana@x.org' });
    expect(made).toMatchObject({ locationId: loc, phone: '+15125550100', tags: [], fields: {} });
    expect(made.id).toMatch(/^ct_/);
    const named = await s.store.crm.createContact(a, { id: 'ct_given', locationId: loc, phone: '+15125550199', tags: ['vip'], fields: { x: 1 } });
    expect(named.id).toBe('ct_given');
    expect(await s.store.crm.getContact(a, loc, made.id)).toEqual(made);
    expect(await s.store.crm.getContact(a, unique('loc'), made.id)).toBeUndefined();
    expect(await s.store.crm.getContact(unique('ag'), loc, made.id)).toBeUndefined();
    expect(await s.store.crm.findByPhone(a, loc, '+15125550100')).toEqual(made);
    expect(await s.store.crm.findByPhone(a, unique('loc'), '+15125550100')).toBeUndefined();
    await s.store.crm.saveContact(a, { ...made, tags: ['x'], phone: '+15125550111' });
    expect(await s.store.crm.getContact(a, loc, made.id)).toEqual({ ...made, tags: ['x'], phone: '+15125550111' });
    expect(await s.store.crm.findByPhone(a, loc, '+15125550100')).toBeUndefined();
    // saveContact of a contact not stored yet stores it.
    await s.store.crm.saveContact(a, { id: 'ct_new', locationId: loc, tags: [], fields: {} });
    expect(await s.store.crm.getContact(a, loc, 'ct_new')).toEqual({ id: 'ct_new', locationId: loc, tags: [], fields: {} });
  });

  it('findOrCreateByPhone finds the location\'s contact with the phone, else creates one (with the given id)', async () => {
    const a = unique('ag');
    const loc = unique('loc');
    const first = await s.store.crm.findOrCreateByPhone(a, { locationId: loc, phone: '+15125550300', fullName: 'New Caller' });
    expect(first.created).toBe(true);
    expect(first.contact).toMatchObject({ locationId: loc, phone: '+15125550300', fullName: 'New Caller', tags: [], fields: {} });
    expect(await s.store.crm.findOrCreateByPhone(a, { locationId: loc, phone: '+15125550300', fullName: 'Other' })).toEqual({ contact: first.contact, created: false });
    const elsewhere = await s.store.crm.findOrCreateByPhone(a, { locationId: unique('loc'), phone: '+15125550300', id: 'ct_here' });
    expect(elsewhere).toMatchObject({ created: true, contact: { id: 'ct_here' } });
    await s.store.withTransaction(async (tx) => {
      expect((await tx.crm.findOrCreateByPhone(a, { locationId: loc, phone: '+15125550300' })).created).toBe(false);
      expect((await tx.crm.findOrCreateByPhone(a, { locationId: loc, phone: '+15125550301' })).created).toBe(true);
    });
    expect(await s.store.crm.findByPhone(a, loc, '+15125550301')).toBeDefined();
  });

  it('custom values and fields: added, listed by name, per location', async () => {
    const a = unique('ag');
    const loc = unique('loc');
    await s.store.crm.addCustomValue(a, loc, 'business name', 'business_name', 'Bright');
    await s.store.crm.addCustomValue(a, loc, 'Booking link', 'booking_link', 'https://b');
    await s.store.crm.addCustomField(a, loc, 'Insurance', 'insurance');
    await s.store.crm.addCustomField(a, loc, 'Callback time', 'callback_time', 'DATE');
    const values = await s.store.crm.customValues(a, loc);
    // By name, byte order: upper case before lower case, as SQLite compares.
    expect(values.map(({ id: _id, ...v }) => v)).toEqual([
      { name: 'Booking link', fieldKey: '{{custom_values.booking_link}}', placeholder: 'custom_values.booking_link', value: 'https://b' },
      { name: 'business name', fieldKey: '{{custom_values.business_name}}', placeholder: 'custom_values.business_name', value: 'Bright' },
    ]);
    expect((await s.store.crm.customFields(a, loc)).map(({ id: _id, ...f }) => f)).toEqual([
      { name: 'Callback time', fieldKey: 'contact.callback_time', placeholder: '{{contact.callback_time}}', dataType: 'DATE' },
      { name: 'Insurance', fieldKey: 'contact.insurance', placeholder: '{{contact.insurance}}', dataType: 'TEXT' },
    ]);
    expect(await s.store.crm.customValues(a, unique('loc'))).toEqual([]);
    expect(await s.store.crm.customFields(unique('ag'), loc)).toEqual([]);
  });

  it('CRM setup: defaults seeded once per location, listed by name', async () => {
    const a = unique('ag');
    const loc = unique('loc');
    expect(await s.store.crmSetup.pipelines(a, loc)).toEqual([]);
    const pipelines = [{ id: 'p2', name: 'Sales', stages: [{ id: 's1', name: 'New' }] }, { id: 'p1', name: 'Patients', stages: [] }];
    const calendars = [{ id: 'c2', name: 'Main' }, { id: 'c1', name: 'Cleaning' }];
    await s.store.crmSetup.seedDefaults(a, loc, pipelines, calendars);
    await s.store.crmSetup.seedDefaults(a, loc, [{ id: 'p3', name: 'Other', stages: [] }], []);
    expect(await s.store.crmSetup.pipelines(a, loc)).toEqual([pipelines[1], pipelines[0]]);
    expect(await s.store.crmSetup.calendars(a, loc)).toEqual([calendars[1], calendars[0]]);
    expect(await s.store.crmSetup.calendars(a, unique('loc'))).toEqual([]);
  });

  it('effects: recorded under their key per agency, read back, counted by prefix', async () => {
    const a = unique('ag');
    expect(await s.store.effects.result(a, 'wf:n1')).toBeUndefined();
    await s.store.effects.record(a, 'wf:n1', 'tag', { ok: true });
    await s.store.effects.record(a, 'wf:n2', 'sms', undefined);
    await s.store.effects.record(a, 'other:n1', 'sms', 'x');
    expect(await s.store.effects.result(a, 'wf:n1')).toEqual({ value: { ok: true } });
    expect(await s.store.effects.result(a, 'wf:n2')).toEqual({ value: null });
    expect(await s.store.effects.result(unique('ag'), 'wf:n1')).toBeUndefined();
    expect(await s.store.effects.countWithPrefix(a, 'wf:')).toBe(2);
    expect(await s.store.effects.countWithPrefix(a, '')).toBe(3);
    await expect(s.store.effects.record(a, 'wf:n1', 'tag', 1)).rejects.toThrow();
  });

  it('the effect journal: pending with its first start and attempts, done with its result, abandoned', async () => {
    const a = unique('ag');
    const key = unique('wf');
    expect(await s.store.effectJournal.lookup(a, key)).toBeNull();
    await s.store.effectJournal.begin(a, key, 'note');
    const pending = await s.store.effectJournal.lookup(a, key);
    expect(pending).toMatchObject({ state: 'pending', attempts: 1, startedAt: expect.any(String) });
    await s.store.effectJournal.begin(a, key, 'note');
    expect(await s.store.effectJournal.lookup(a, key)).toEqual({ ...pending, attempts: 2 });
    await s.store.effectJournal.complete(a, key, 'note', { noteId: 'n1' });
    expect(await s.store.effectJournal.lookup(a, key)).toEqual({ state: 'done', result: { noteId: 'n1' } });
    // A done entry is kept: begin and abandon leave it.
    await s.store.effectJournal.begin(a, key, 'note');
    await s.store.effectJournal.abandon(a, key);
    expect(await s.store.effectJournal.lookup(a, key)).toEqual({ state: 'done', result: { noteId: 'n1' } });
    expect(await s.store.effects.result(a, key)).toEqual({ value: { noteId: 'n1' } });
    const other = unique('wf');
    await s.store.effectJournal.begin(a, other, 'sms');
    expect(await s.store.effects.result(a, other)).toBeUndefined();
    await s.store.effectJournal.abandon(a, other);
    expect(await s.store.effectJournal.lookup(a, other)).toBeNull();
    await s.store.effectJournal.complete(a, other, 'sms', null);
    expect(await s.store.effectJournal.lookup(a, other)).toEqual({ state: 'done', result: null });
  });

  it('the outbox keeps one message per key and agency', async () => {
    const a = unique('ag');
    const m = { id: unique('msg'), agencyId: a, channel: 'sms' as const, key: 'wf:n1', contactId: 'ct', recipient: '+1', sender: null, subject: null, body: 'hi' };
    await s.store.outbox.add(m);
    await expect(s.store.outbox.add({ ...m, id: unique('msg') })).rejects.toThrow();
    await s.store.outbox.add({ ...m, id: unique('msg'), agencyId: unique('ag') });
    await s.store.outbox.add({ ...m, id: unique('msg'), key: 'wf:n2', channel: 'email', subject: 's', sender: 'a@b' });
  });

  it('appointments: a slot is booked unless one on the same calendar overlaps it', async () => {
    const a = unique('ag');
    const base = { agencyId: a, locationId: 'loc', calendarId: 'cal', contactId: 'ct' };
    const book = (startsAt: string, endsAt: string, over: Partial<typeof base> = {}) =>
      s.store.appointments.bookIfFree({ ...base, ...over, id: unique('apt'), startsAt, endsAt, idempotencyKey: unique('k') });
    expect(await book('2026-05-01T10:00:00.000Z', '2026-05-01T10:30:00.000Z')).toBe(true);
    expect(await book('2026-05-01T10:00:00.000Z', '2026-05-01T10:30:00.000Z')).toBe(false);
    expect(await book('2026-05-01T10:15:00.000Z', '2026-05-01T10:45:00.000Z')).toBe(false);
    expect(await book('2026-05-01T09:45:00.000Z', '2026-05-01T10:01:00.000Z')).toBe(false);
    // Touching ends do not overlap.
    expect(await book('2026-05-01T10:30:00.000Z', '2026-05-01T11:00:00.000Z')).toBe(true);
    expect(await book('2026-05-01T09:30:00.000Z', '2026-05-01T10:00:00.000Z')).toBe(true);
    // Another calendar, location or agency is another diary.
    expect(await book('2026-05-01T10:00:00.000Z', '2026-05-01T10:30:00.000Z', { calendarId: 'cal2' })).toBe(true);
    expect(await book('2026-05-01T10:00:00.000Z', '2026-05-01T10:30:00.000Z', { locationId: 'loc2' })).toBe(true);
    expect(await book('2026-05-01T10:00:00.000Z', '2026-05-01T10:30:00.000Z', { agencyId: unique('ag') })).toBe(true);
  });
});
