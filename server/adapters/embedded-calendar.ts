import { PermanentPortError, type Calendar } from '../../engine/ports.js';
import type { Store } from '../store/index.js';
import { newId } from '../ids.js';
import { effectOnce } from './effect-once.js';

/** The built-in calendar: a location's calendars, one appointment per slot; a taken slot is permanent. */
export function embeddedCalendar(store: Store): Calendar {
  return {
    book(e, req) {
      return effectOnce(store, e, 'appointment', async (tx) => {
        const startsAt = new Date(req.startsAt).toISOString();
        const endsAt = new Date(Date.parse(startsAt) + req.durationMinutes * 60_000).toISOString();
        const id = newId('apt');
        const booked = await tx.appointments.bookIfFree({ id, agencyId: e.agencyId, locationId: e.locationId, calendarId: req.calendarId, contactId: req.contactId, startsAt, endsAt, idempotencyKey: e.idempotencyKey });
        if (!booked) throw new PermanentPortError(`slot ${startsAt} on calendar ${req.calendarId} is already booked`);
        return { appointmentId: id, calendarId: req.calendarId, startsAt, endsAt };
      });
    },
  };
}
