import { IANAZone } from 'luxon';
import { CadenceError } from './errors.js';
import { memoize } from '../memo.js';

// Wall-clock arithmetic without reading the clock. A "local" time is written as the number of
// milliseconds a UTC clock would show for the same calendar date and time ("naive ms"), so that
// calendar arithmetic is plain integer arithmetic and only the offset lookup needs a zone.

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/**
 * `IANAZone.isValidZone` builds an `Intl.DateTimeFormat` on every call (~50-100 µs; an enrolment
 * asked it several times, bench/README.md), and a name's validity never changes.
 */
const knownZone = memoize((name: string) => IANAZone.isValidZone(name), 2000);

/** True for a time-zone name the runtime knows (IANA names, `UTC`). */
export function isValidZone(name: unknown): name is string {
  return typeof name === 'string' && name.trim() !== '' && knownZone(name);
}

/** The zone, or a CadenceError naming the offending value. */
export function requireZone(name: unknown, what = 'time zone'): IANAZone {
  if (!isValidZone(name)) {
    throw new CadenceError('INVALID_ZONE', `Unknown ${what} "${String(name)}": expected an IANA time zone name such as America/Chicago`);
  }
  return IANAZone.create(name);
}

/** Offset of the zone at the instant, in milliseconds (local = utc + offset). */
function offsetMs(zone: IANAZone, instant: number): number {
  return zone.offset(instant) * MINUTE_MS;
}

/** Naive ms of the zone's wall clock at the instant. */
export function toLocal(zone: IANAZone, instant: number): number {
  return instant + offsetMs(zone, instant);
}

/** Days since 1970-01-01 of the zone's calendar date at the instant. */
export function localDay(zone: IANAZone, instant: number): number {
  return Math.floor(toLocal(zone, instant) / DAY_MS);
}

/** ISO weekday (1 = Monday ... 7 = Sunday) of a day number; day 0 was a Thursday. */
export function isoWeekday(day: number): number {
  return ((((day % 7) + 7) % 7) + 3) % 7 + 1;
}

/**
 * The first instant at which the zone's wall clock reads `local` or later.
 *
 * - An ordinary time has one instant.
 * - A time repeated when clocks fall back resolves to its first occurrence, so a window never
 *   opens (or closes) twice for the repeated hour.
 * - A time skipped when clocks spring forward resolves to the transition itself, the first
 *   instant that exists after it (02:30 on a day that jumps 02:00 -> 03:00 gives 03:00).
 */
export function wallToInstant(zone: IANAZone, local: number): number {
  // The answer lies within +/- 14 h of `local`; sample the offsets in force around there.
  const offsets = new Set<number>();
  for (const hours of [-18, -9, 0, 9, 18]) offsets.add(offsetMs(zone, local + hours * 3_600_000));

  let best: number | undefined;
  for (const offset of offsets) {
    const instant = local - offset;
    if (offsetMs(zone, instant) === offset && (best === undefined || instant < best)) best = instant;
  }
  if (best !== undefined) return best;

  // In a gap: bisect between the reading under the later offset (before the jump, wall clock
  // still short of `local`) and under the earlier one (after the jump, wall clock past it).
  const candidates = [...offsets].map((offset) => local - offset);
  let lo = Math.min(...candidates);
  let hi = Math.max(...candidates);
  if (!(toLocal(zone, lo) < local && toLocal(zone, hi) >= local)) {
    throw new CadenceError('INVALID_INPUT', `Cannot place wall time ${new Date(local).toISOString().slice(0, 16)} in zone ${zone.name}`);
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (toLocal(zone, mid) >= local) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Minutes after midnight of an "H:MM" / "HH:MM" time; `24:00` only where `allow24` (a closing time). */
export function parseClock(text: unknown, what: string, allow24 = false): number {
  const match = typeof text === 'string' ? /^(\d{1,2}):(\d{2})$/.exec(text) : null;
  if (match) {
    const hours = Number(match[1]);
    const minutes = Number(match[2]);
    if (hours <= 23 && minutes <= 59) return hours * 60 + minutes;
    if (allow24 && hours === 24 && minutes === 0) return 24 * 60;
  }
  const range = allow24 ? '00:00 to 23:59, or 24:00' : '00:00 to 23:59';
  throw new CadenceError('INVALID_CLOCK', `Invalid ${what} "${String(text)}": expected H:MM or HH:MM, ${range}`);
}

/** A Date the arithmetic can use, or a CadenceError naming the parameter. */
export function requireInstant(value: unknown, what: string): number {
  const ms = value instanceof Date ? value.getTime() : NaN;
  if (!Number.isFinite(ms)) throw new CadenceError('INVALID_INPUT', `${what} must be a valid Date`);
  return ms;
}
