import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { calendarDate } from '../../../server/domain/calls/calendar-date.js';

/** What the call's `date` was before the Intl fast path: luxon, for every input. */
const byLuxon = (dateTime: string, zone: string | null) => {
  const at = DateTime.fromISO(dateTime, { zone: zone || 'UTC' });
  return (at.isValid ? at : DateTime.fromISO(dateTime, { zone: 'UTC' })).toISODate();
};

describe('calendarDate (spec 2.6 `date`)', () => {
  it('gives the day luxon gives, for offsets, no offset, impossible days, odd zones and garbage', () => {
    const zones = ['America/Chicago', 'Asia/Kolkata', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Australia/Lord_Howe', 'UTC', null, 'Not/AZone'];
    let x = 12345;
    const random = () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 100; i++) {
      const iso = new Date(Date.UTC(1990, 0, 1) + Math.floor(random() * 60 * 365 * 86_400_000)).toISOString();
      const shapes = [iso, iso.replace('Z', '+05:30'), iso.replace(/\.\d+Z$/, '-0800'), iso.slice(0, 19), iso.slice(0, 16) + 'Z', '2026-02-30T10:00:00Z', '2024-02-29T23:30:00-05:00', '2026-11-25T24:00:00Z', '0050-01-01T00:00:00Z', 'garbage'];
      for (const dateTime of shapes) for (const zone of zones) expect([dateTime, zone, calendarDate(dateTime, zone)]).toEqual([dateTime, zone, byLuxon(dateTime, zone)]);
    }
  });

  it('is the local day: late evening in Chicago is the next day in UTC', () => {
    expect(calendarDate('2026-11-26T03:30:00Z', 'America/Chicago')).toBe('2026-11-25');
    expect(calendarDate('2026-11-26T03:30:00Z', null)).toBe('2026-11-26');
  });
});
