import { DateTime } from 'luxon';
import { memoize } from '../../../engine/memo.js';

/** The calendar day in a zone, one formatter per zone: building one costs more than the formatting. */
const dayFormat = memoize((zone: string): Intl.DateTimeFormat | null => {
  try {
    // en-CA writes a date as YYYY-MM-DD: format() is half the cost of formatToParts (the unit test pins the form).
    return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', calendar: 'gregory', numberingSystem: 'latn' });
  } catch {
    return null; // not a zone ICU knows: the caller falls back to UTC, as luxon's invalid zone did
  }
}, 1000);

/**
 * A timestamp with its offset (or Z) and a real day and time, which `Date` reads exactly as luxon
 * does; anything else (no offset: luxon reads it in the zone; Feb 30: `Date` rolls it over) goes
 * to luxon.
 */
const WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/i;
function instantOf(dateTime: string): number {
  const m = WITH_OFFSET.exec(dateTime);
  if (!m) return Number.NaN;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1000) return Number.NaN; // Date.UTC reads years below 100 as 19xx
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return Number.NaN;
  return Date.parse(dateTime);
}

/**
 * Spec 2.6 `date`: the calendar date of the call in the project's time zone (UTC when it has none).
 * Every call read computes it (`GET …/by-call-id` is a hot path): a timestamp with an offset goes
 * through a cached `Intl.DateTimeFormat` (luxon's parse was the largest cost of that request,
 * bench/README.md), anything else through luxon as before.
 */
export function calendarDate(dateTime: string, timezone: string | null | undefined): string {
  const zone = timezone || 'UTC';
  const ms = instantOf(dateTime);
  const format = Number.isNaN(ms) ? null : (dayFormat(zone) ?? dayFormat('UTC'));
  if (format) return format.format(ms);
  const at = DateTime.fromISO(dateTime, { zone });
  return (at.isValid ? at : DateTime.fromISO(dateTime, { zone: 'UTC' })).toISODate()!;
}

