import { PermanentPortError, type Calendar } from '../../engine/ports.js';
import type { Db } from '../store/db.js';
import type { EffectsRepo } from '../store/effects.js';
import { newId, nowIso } from '../store/ids.js';

/** The built-in calendar: a location's calendars, one appointment per slot; a taken slot is permanent. */
export function embeddedCalendar(db: Db, effects: EffectsRepo): Calendar {
  const taken = db.prepare<[string, string, string, string, string], { id: string }>(
    'SELECT id FROM appointments WHERE agency_id = ? AND location_id = ? AND calendar_id = ? AND starts_at < ? AND ends_at > ? LIMIT 1',
  );
  const insert = db.prepare(
    `INSERT INTO appointments (id, agency_id, location_id, calendar_id, contact_id, starts_at, ends_at, idempotency_key, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return {
    async book(e, req) {
      return effects.once(e.idempotencyKey, e.agencyId, 'appointment', () => {
        const startsAt = new Date(req.startsAt).toISOString();
        const endsAt = new Date(Date.parse(startsAt) + req.durationMinutes * 60_000).toISOString();
        if (taken.get(e.agencyId, e.locationId, req.calendarId, endsAt, startsAt)) {
          throw new PermanentPortError(`slot ${startsAt} on calendar ${req.calendarId} is already booked`);
        }
        const id = newId('apt');
        insert.run(id, e.agencyId, e.locationId, req.calendarId, req.contactId, startsAt, endsAt, e.idempotencyKey, nowIso());
        return { appointmentId: id, calendarId: req.calendarId, startsAt, endsAt };
      });
    },
  };
}
