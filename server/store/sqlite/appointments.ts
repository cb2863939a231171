import type { AppointmentsRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { Db } from './db.js';
import { nowIso } from '../../ids.js';

/** The embedded calendar's appointments: a slot is taken when any appointment on its calendar overlaps it. */
export function appointmentsRepo(db: Db): Sync<AppointmentsRepository> {
  const taken = db.prepare<[string, string, string, string, string], { id: string }>(
    'SELECT id FROM appointments WHERE agency_id = ? AND location_id = ? AND calendar_id = ? AND starts_at < ? AND ends_at > ? LIMIT 1',
  );
  const insert = db.prepare(
    `INSERT INTO appointments (id, agency_id, location_id, calendar_id, contact_id, starts_at, ends_at, idempotency_key, created_at)
     VALUES (@id, @agencyId, @locationId, @calendarId, @contactId, @startsAt, @endsAt, @idempotencyKey, @createdAt)`,
  );
  // The check and the insert in one IMMEDIATE transaction: two bookings of one slot never both win.
  const book = db.transaction((a: Parameters<Sync<AppointmentsRepository>['bookIfFree']>[0]) => {
    if (taken.get(a.agencyId, a.locationId, a.calendarId, a.endsAt, a.startsAt)) return false;
    insert.run({ ...a, createdAt: nowIso() });
    return true;
  });
  return { bookIfFree: (a) => book.immediate(a) };
}
