import { PermanentPortError, type CalendarInfo, type EffectContext, type EffectJournal } from '../../../engine/ports.js';
import { journaled } from '../effect-journal.js';
import { seg, type GhlClient } from './client.js';
import { arr, obj, slotStarts, str, toCalendars } from './mapping.js';

export function calendarOps(client: GhlClient, journal: EffectJournal) {
  return {
    /** GET /calendars/?locationId (Version 2021-04-15) */
    async calendars(_agencyId: string, locationId: string): Promise<CalendarInfo[]> {
      return toCalendars(await client.call('calendars', { method: 'GET', path: '/calendars/', query: { locationId } }));
    },

    /**
     * The slot must be among the calendar's free slots (GET /calendars/{id}/free-slots, epoch-ms
     * range), else the booking is refused for good; then POST /calendars/events/appointments.
     * Journaled; after an unknown outcome GET /calendars/events over the slot finds the contact's
     * appointment at that start, if the first attempt made it.
     */
    async book(e: EffectContext, req: { calendarId: string; contactId: string; startsAt: string; durationMinutes: number }) {
      const startMs = Date.parse(req.startsAt);
      if (Number.isNaN(startMs)) throw new PermanentPortError(`invalid start time "${req.startsAt}"`);
      const endMs = startMs + req.durationMinutes * 60_000;
      const startsAt = new Date(startMs).toISOString();
      const endsAt = new Date(endMs).toISOString();
      const result = (appointmentId: string) => ({ appointmentId, calendarId: req.calendarId, startsAt, endsAt });
      return journaled(journal, { agencyId: e.agencyId, key: e.idempotencyKey, kind: 'appointment' }, {
        perform: async () => {
          const free = slotStarts(
            await client.call('calendars', { method: 'GET', path: `/calendars/${seg(req.calendarId)}/free-slots`, query: { startDate: startMs, endDate: endMs } }),
          );
          if (!free.includes(startMs)) throw new PermanentPortError(`slot ${startsAt} on calendar ${req.calendarId} is not free`);
          const raw = obj(
            await client.call('calendars', {
              method: 'POST',
              path: '/calendars/events/appointments',
              json: { calendarId: req.calendarId, locationId: e.locationId, contactId: req.contactId, startTime: startsAt, endTime: endsAt },
            }),
          );
          const id = str(raw.id) ?? str(obj(raw.appointment).id);
          if (!id) throw new Error('gohighlevel POST /calendars/events/appointments answered without an id');
          return result(id);
        },
        findExisting: async () => {
          const raw = obj(
            await client.call('calendars', {
              method: 'GET',
              path: '/calendars/events',
              query: { locationId: e.locationId, calendarId: req.calendarId, startTime: String(startMs), endTime: String(endMs) },
            }),
          );
          const hit = arr(raw.events)
            .map(obj)
            .find((ev) => ev.contactId === req.contactId && Date.parse(String(ev.startTime)) === startMs && ev.appointmentStatus !== 'cancelled' && str(ev.id));
          return hit ? result(hit.id as string) : null;
        },
      });
    },
  };
}
