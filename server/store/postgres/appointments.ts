import type { AppointmentsRepository } from '../index.js';
import { nowIso } from '../../ids.js';
import type { Sql } from './sql.js';

/**
 * The embedded calendar's appointments. The exclusion constraint `appointments_no_overlap` keeps
 * overlapping bookings of one calendar out, whichever connection writes them: a booking racing
 * another waits for it to commit, then is refused by the constraint, which the insert's ON
 * CONFLICT turns into "not booked".
 */
export function appointmentsRepo(sql: Sql): AppointmentsRepository {
  return {
    bookIfFree: async (a) =>
      (await sql.run(
        `INSERT INTO appointments (id, agency_id, location_id, calendar_id, contact_id, starts_at, ends_at, idempotency_key, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT ON CONSTRAINT appointments_no_overlap DO NOTHING`,
        [a.id, a.agencyId, a.locationId, a.calendarId, a.contactId, a.startsAt, a.endsAt, a.idempotencyKey, nowIso()],
      )) === 1,
  };
}
