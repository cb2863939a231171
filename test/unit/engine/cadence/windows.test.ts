import { describe, expect, it } from 'vitest';
import {
  CadenceError,
  isOpen,
  nextOpening,
  normalizeWindows,
  resolveWindows,
  resolveZoneOptions,
  scheduleZone,
  windowProblems,
  windowSettingProblems,
  windowZone,
  type ZoneOptions,
} from '../../../../engine/cadence/index.js';
import type { CallingWindow } from '../../../../schemas/cadence.js';

const CHI = 'America/Chicago';
const LDN = 'Europe/London';
const WEEKDAYS = [1, 2, 3, 4, 5];

const win = (days: number[], start: string, end: string, tz = CHI): CallingWindow => ({ days, start, end, tz });
const at = (iso: string) => new Date(iso);
const next = (windows: CallingWindow[], from: string, opts?: ZoneOptions) => nextOpening(windows, at(from), opts)?.toISOString() ?? null;
const open = (windows: CallingWindow[], instant: string, opts?: ZoneOptions) => isOpen(windows, at(instant), opts);

describe('normalizeWindows', () => {
  it('turns a setting into a list', () => {
    const w = win([1], '9:00', '17:00');
    expect(normalizeWindows(null)).toEqual([]);
    expect(normalizeWindows(undefined)).toEqual([]);
    expect(normalizeWindows(w)).toEqual([w]);
    const list = [w, win([2], '9:00', '12:00')];
    const normalized = normalizeWindows(list);
    expect(normalized).toEqual(list);
    expect(normalized).not.toBe(list);
  });
});

describe('plain weekday window (America/Chicago, Mon-Fri 9:00-17:30)', () => {
  const windows = [win(WEEKDAYS, '9:00', '17:30')];

  it('is open inside, closed at and after the end, open exactly at the start', () => {
    // Tue 2026-03-10 is CDT (UTC-5).
    expect(open(windows, '2026-03-10T14:00:00Z')).toBe(true); // 09:00
    expect(open(windows, '2026-03-10T13:59:59Z')).toBe(false); // 08:59:59
    expect(open(windows, '2026-03-10T22:29:59Z')).toBe(true); // 17:29:59
    expect(open(windows, '2026-03-10T22:30:00Z')).toBe(false); // 17:30
  });

  it('returns `from` itself when open now', () => {
    expect(next(windows, '2026-03-10T16:12:34.567Z')).toBe('2026-03-10T16:12:34.567Z');
  });

  it('jumps to the next morning after closing', () => {
    expect(next(windows, '2026-03-10T23:00:00Z')).toBe('2026-03-11T14:00:00.000Z');
  });

  it('skips the weekend (and the spring-forward change in it): Friday evening -> Monday 9:00 CDT', () => {
    // Fri 2026-03-06 17:30 CST = 23:30Z; clocks change on Sun 03-08; Mon 9:00 CDT = 14:00Z.
    expect(next(windows, '2026-03-06T23:30:00Z')).toBe('2026-03-09T14:00:00.000Z');
    expect(open(windows, '2026-03-07T18:00:00Z')).toBe(false); // Saturday noon
  });

  it('skips the weekend in winter: Saturday -> Monday 9:00 CST', () => {
    expect(next(windows, '2026-01-10T18:00:00Z')).toBe('2026-01-12T15:00:00.000Z');
  });
});

describe('America/Chicago spring forward (Sun 2026-03-08, 02:00 CST -> 03:00 CDT at 08:00Z)', () => {
  it('reads a daytime window in the new offset that day and the old one the day before', () => {
    const sundays = [win([7], '9:00', '17:00')];
    expect(next(sundays, '2026-03-08T00:00:00Z')).toBe('2026-03-08T14:00:00.000Z'); // 09:00 CDT
    expect(open(sundays, '2026-03-08T21:59:00Z')).toBe(true); // 16:59 CDT
    expect(open(sundays, '2026-03-08T22:00:00Z')).toBe(false); // 17:00 CDT
    expect(next(sundays, '2026-03-01T00:00:00Z')).toBe('2026-03-01T15:00:00.000Z'); // 09:00 CST
  });

  it('opens a window starting in the gap at the first valid instant (03:00 CDT)', () => {
    const w = [win([7], '2:30', '5:00')];
    expect(next(w, '2026-03-08T00:00:00Z')).toBe('2026-03-08T08:00:00.000Z');
    expect(open(w, '2026-03-08T07:59:59Z')).toBe(false); // 01:59:59 CST
    expect(open(w, '2026-03-08T08:00:00Z')).toBe(true); // 03:00 CDT
    expect(open(w, '2026-03-08T09:59:59Z')).toBe(true); // 04:59:59 CDT
    expect(open(w, '2026-03-08T10:00:00Z')).toBe(false); // 05:00 CDT
  });

  it('closes a window ending in the gap at the jump', () => {
    const w = [win([7], '1:00', '2:30')];
    expect(next(w, '2026-03-08T00:00:00Z')).toBe('2026-03-08T07:00:00.000Z'); // 01:00 CST
    expect(open(w, '2026-03-08T07:59:59Z')).toBe(true);
    expect(open(w, '2026-03-08T08:00:00Z')).toBe(false); // 03:00 CDT, past 02:30
  });

  it('a window wholly inside the gap is empty that day; the next week opens normally', () => {
    const w = [win([7], '2:00', '2:45')];
    expect(next(w, '2026-03-08T00:00:00Z')).toBe('2026-03-15T07:00:00.000Z'); // 02:00 CDT a week later
  });

  it('a midnight-spanning window over the change is 3 real hours (22:00 CST -> 03:00 CDT)', () => {
    const w = [win([6], '22:00', '3:00')]; // Saturday night into Sunday
    expect(next(w, '2026-03-07T12:00:00Z')).toBe('2026-03-08T04:00:00.000Z'); // Sat 22:00 CST
    expect(open(w, '2026-03-08T07:59:00Z')).toBe(true); // 01:59 CST
    expect(open(w, '2026-03-08T08:00:00Z')).toBe(false); // 03:00 CDT
  });
});

describe('America/Chicago fall back (Sun 2026-11-01, 02:00 CDT -> 01:00 CST at 07:00Z)', () => {
  it('reads a daytime window in the new offset that day', () => {
    const w = [win([6, 7], '9:00', '17:00')];
    expect(next(w, '2026-10-31T00:00:00Z')).toBe('2026-10-31T14:00:00.000Z'); // Sat 09:00 CDT
    expect(next(w, '2026-10-31T22:00:00Z')).toBe('2026-11-01T15:00:00.000Z'); // Sun 09:00 CST
    expect(open(w, '2026-11-01T22:59:00Z')).toBe(true); // 16:59 CST
    expect(open(w, '2026-11-01T23:00:00Z')).toBe(false); // 17:00 CST
  });

  it('does not open a window twice for the repeated hour', () => {
    const w = [win([7], '1:00', '1:30')];
    expect(next(w, '2026-11-01T00:00:00Z')).toBe('2026-11-01T06:00:00.000Z'); // 01:00 CDT, first pass
    expect(open(w, '2026-11-01T06:29:00Z')).toBe(true); // 01:29 CDT
    expect(open(w, '2026-11-01T06:30:00Z')).toBe(false); // 01:30 CDT: closed
    expect(open(w, '2026-11-01T07:15:00Z')).toBe(false); // 01:15 CST: the clock reads it again, still closed
    // After the first pass the next opening is a week later (01:00 CST).
    expect(next(w, '2026-11-01T06:30:00Z')).toBe('2026-11-08T07:00:00.000Z');
  });

  it('a window starting in the repeated hour opens at its first occurrence and runs to the end once', () => {
    const w = [win([7], '1:30', '3:00')];
    expect(next(w, '2026-11-01T00:00:00Z')).toBe('2026-11-01T06:30:00.000Z'); // 01:30 CDT
    expect(open(w, '2026-11-01T07:10:00Z')).toBe(true); // 01:10 CST, inside the one interval
    expect(open(w, '2026-11-01T08:59:00Z')).toBe(true); // 02:59 CST
    expect(open(w, '2026-11-01T09:00:00Z')).toBe(false); // 03:00 CST
  });

  it('a midnight-spanning window closes when the clock first reads its end (02:00 CST)', () => {
    const w = [win([6], '22:00', '2:00')];
    expect(next(w, '2026-10-31T12:00:00Z')).toBe('2026-11-01T03:00:00.000Z'); // Sat 22:00 CDT
    expect(open(w, '2026-11-01T07:30:00Z')).toBe(true); // 01:30 CST
    expect(open(w, '2026-11-01T08:00:00Z')).toBe(false); // 02:00 CST
  });
});

describe('Europe/London', () => {
  it('spring forward (Sun 2026-03-29, 01:00 GMT -> 02:00 BST at 01:00Z)', () => {
    const day = [win([7], '9:00', '17:00', LDN)];
    expect(next(day, '2026-03-22T00:00:00Z')).toBe('2026-03-22T09:00:00.000Z'); // GMT
    expect(next(day, '2026-03-28T20:00:00Z')).toBe('2026-03-29T08:00:00.000Z'); // BST
    const gap = [win([7], '1:15', '4:00', LDN)];
    expect(next(gap, '2026-03-29T00:00:00Z')).toBe('2026-03-29T01:00:00.000Z'); // 02:00 BST, first valid instant
    expect(open(gap, '2026-03-29T00:59:00Z')).toBe(false); // 00:59 GMT
    expect(open(gap, '2026-03-29T02:59:00Z')).toBe(true); // 03:59 BST
    expect(open(gap, '2026-03-29T03:00:00Z')).toBe(false); // 04:00 BST
  });

  it('fall back (Sun 2026-10-25, 02:00 BST -> 01:00 GMT at 01:00Z): the first 01:30 counts, once', () => {
    const w = [win([7], '1:30', '1:45', LDN)];
    expect(next(w, '2026-10-25T00:00:00Z')).toBe('2026-10-25T00:30:00.000Z'); // 01:30 BST
    expect(open(w, '2026-10-25T00:44:00Z')).toBe(true);
    expect(open(w, '2026-10-25T01:35:00Z')).toBe(false); // 01:35 GMT, the repeat
    const day = [win([7], '9:00', '17:00', LDN)];
    expect(next(day, '2026-10-25T00:00:00Z')).toBe('2026-10-25T09:00:00.000Z'); // GMT
  });
});

describe('midnight-spanning, 24-hour and several windows', () => {
  it('22:00-02:00 on Friday covers Friday night into Saturday; days name the starting day', () => {
    const w = [win([5], '22:00', '2:00')];
    // Winter, CST (UTC-6). Fri 2026-01-09 22:00 CST = Sat 04:00Z.
    expect(open(w, '2026-01-10T03:59:00Z')).toBe(false); // Fri 21:59
    expect(open(w, '2026-01-10T04:00:00Z')).toBe(true); // Fri 22:00
    expect(open(w, '2026-01-10T07:00:00Z')).toBe(true); // Sat 01:00
    expect(open(w, '2026-01-10T08:00:00Z')).toBe(false); // Sat 02:00
    expect(open(w, '2026-01-09T07:00:00Z')).toBe(false); // Fri 01:00: Thursday is not a day of the window
    expect(next(w, '2026-01-10T08:00:00Z')).toBe('2026-01-17T04:00:00.000Z');
    // From inside the part after midnight: open now.
    expect(next(w, '2026-01-10T06:30:00Z')).toBe('2026-01-10T06:30:00.000Z');
  });

  it('end equal to start is a full day; end 24:00 is midnight', () => {
    const allMonday = [win([1], '0:00', '0:00')];
    expect(open(allMonday, '2026-01-12T06:00:00Z')).toBe(true); // Mon 00:00 CST
    expect(open(allMonday, '2026-01-13T05:59:00Z')).toBe(true); // Mon 23:59
    expect(open(allMonday, '2026-01-13T06:00:00Z')).toBe(false); // Tue 00:00
    const evening = [win([1], '18:00', '24:00')];
    expect(open(evening, '2026-01-13T05:59:00Z')).toBe(true);
    expect(open(evening, '2026-01-13T06:00:00Z')).toBe(false);
  });

  it('unions several windows on one day', () => {
    const split = [win(WEEKDAYS, '9:00', '12:00'), win(WEEKDAYS, '13:00', '17:00')];
    // Mon 2026-01-12, CST.
    expect(open(split, '2026-01-12T17:59:00Z')).toBe(true); // 11:59
    expect(open(split, '2026-01-12T18:00:00Z')).toBe(false); // 12:00
    expect(next(split, '2026-01-12T18:30:00Z')).toBe('2026-01-12T19:00:00.000Z'); // lunch -> 13:00
    expect(next(split, '2026-01-12T23:00:00Z')).toBe('2026-01-13T15:00:00.000Z'); // evening -> 9:00
    const overlapping = [win([1], '9:00', '12:00'), win([1], '11:00', '14:00')];
    expect(open(overlapping, '2026-01-12T19:30:00Z')).toBe(true); // 13:30
  });

  it('takes the earliest opening among windows on different days and zones', () => {
    const windows = [win([3], '9:00', '10:00', 'America/New_York'), win([2], '15:00', '16:00', 'America/Los_Angeles')];
    // From Mon 2026-01-12 noon UTC: Tue 15:00 PST (Tue 23:00Z) comes before Wed 9:00 EST (Wed 14:00Z).
    expect(next(windows, '2026-01-12T12:00:00Z')).toBe('2026-01-13T23:00:00.000Z');
  });

  it('no windows means no restriction', () => {
    expect(open([], '2026-01-12T03:00:00Z')).toBe(true);
    expect(next([], '2026-01-12T03:00:00Z')).toBe('2026-01-12T03:00:00.000Z');
  });
});

describe('time zones: lead, project, multipleTimezoneCheck', () => {
  const windows = [win(WEEKDAYS, '9:00', '17:00', CHI)];

  it('multipleTimezoneCheck off: the window zone, whatever the lead', () => {
    const opts = { leadTz: 'America/Los_Angeles', projectTz: CHI, multipleTimezoneCheck: false };
    expect(windowZone(windows[0]!, opts)).toBe(CHI);
    expect(next(windows, '2026-03-09T12:00:00Z', opts)).toBe('2026-03-09T14:00:00.000Z'); // 9:00 CDT
  });

  it('multipleTimezoneCheck on: the lead zone', () => {
    const la = { leadTz: 'America/Los_Angeles', projectTz: CHI, multipleTimezoneCheck: true };
    expect(windowZone(windows[0]!, la)).toBe('America/Los_Angeles');
    expect(next(windows, '2026-03-09T12:00:00Z', la)).toBe('2026-03-09T16:00:00.000Z'); // 9:00 PDT
    expect(open(windows, '2026-03-09T15:00:00Z', la)).toBe(false); // 8:00 PDT (10:00 in Chicago)
    expect(open(windows, '2026-03-09T23:30:00Z', la)).toBe(true); // 16:30 PDT (18:30 in Chicago)

    const tokyo = { leadTz: 'Asia/Tokyo', multipleTimezoneCheck: true };
    // Mon 2026-03-09 09:00 JST = Mon 00:00Z.
    expect(next(windows, '2026-03-08T12:00:00Z', tokyo)).toBe('2026-03-09T00:00:00.000Z');
    // Sat in Tokyo although still Friday in Chicago: closed.
    expect(open(windows, '2026-03-07T01:00:00Z', tokyo)).toBe(false);
  });

  it('multipleTimezoneCheck on but no usable lead zone: the window zone', () => {
    for (const leadTz of ['Mars/Olympus_Mons', '', null, undefined]) {
      const opts = { leadTz, projectTz: CHI, multipleTimezoneCheck: true };
      expect(windowZone(windows[0]!, opts)).toBe(CHI);
      expect(next(windows, '2026-03-09T12:00:00Z', opts)).toBe('2026-03-09T14:00:00.000Z');
    }
  });

  it('a stored window without a zone falls back to the project zone', () => {
    const legacy = { days: [1], start: '9:00', end: '10:00', tz: '' } as CallingWindow;
    expect(windowZone(legacy, { projectTz: LDN })).toBe(LDN);
  });

  it('scheduleZone: first window, else lead (with the check), else project, else UTC', () => {
    expect(scheduleZone(windows, { leadTz: 'Asia/Tokyo', multipleTimezoneCheck: true })).toBe('Asia/Tokyo');
    expect(scheduleZone(windows, { leadTz: 'Asia/Tokyo' })).toBe(CHI);
    expect(scheduleZone([], { leadTz: 'Asia/Tokyo', projectTz: LDN, multipleTimezoneCheck: true })).toBe('Asia/Tokyo');
    expect(scheduleZone([], { leadTz: 'Asia/Tokyo', projectTz: LDN })).toBe(LDN);
    expect(scheduleZone([], {})).toBe('UTC');
  });
});

describe('invalid input', () => {
  it('an unknown window zone throws a CadenceError naming it', () => {
    const bad = [win([1], '9:00', '17:00', 'America/Atlantis')];
    expect(() => isOpen(bad, at('2026-01-12T15:00:00Z'))).toThrow(CadenceError);
    expect(() => nextOpening(bad, at('2026-01-12T15:00:00Z'))).toThrow(/America\/Atlantis/);
    try {
      windowZone(bad[0]!);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(CadenceError);
      expect((err as CadenceError).code).toBe('INVALID_ZONE');
    }
  });

  it('an impossible clock time throws', () => {
    expect(() => isOpen([win([1], '25:00', '26:00')], at('2026-01-12T15:00:00Z'))).toThrow(/25:00/);
    expect(() => isOpen([win([1], '9:60', '17:00')], at('2026-01-12T15:00:00Z'))).toThrow(CadenceError);
    expect(() => isOpen([win([1], '24:00', '17:00')], at('2026-01-12T15:00:00Z'))).toThrow(CadenceError);
  });

  it('an invalid Date throws', () => {
    expect(() => nextOpening([win([1], '9:00', '17:00')], new Date('nope'))).toThrow(/from must be a valid Date/);
  });

  it('windowProblems names each bad field; a good window has none', () => {
    expect(windowProblems(win(WEEKDAYS, '9:00', '17:30'))).toEqual([]);
    expect(windowProblems(win([1], '9:00', '24:00'))).toEqual([]);
    const problems = windowProblems({ days: [0, 8], start: '9:75', end: '17:00', tz: 'Nowhere/Land' });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^callingWindow\.days/);
    expect(problems[1]).toMatch(/callingWindow\.start "9:75"/);
    expect(problems[2]).toMatch(/Nowhere\/Land/);
    expect(windowSettingProblems([win([1], '9:00', '10:00'), win([], '9:00', '10:00')], 'callingWindowOverride')).toEqual([
      'callingWindowOverride[1].days must list at least one day (1 = Monday ... 7 = Sunday)',
    ]);
    expect(windowSettingProblems(null)).toEqual([]);
  });
});

describe('resolveWindows and resolveZoneOptions', () => {
  const campaignW = win(WEEKDAYS, '9:00', '17:30', CHI);
  const projectW = win([1, 2, 3, 4, 5, 6], '8:00', '20:00', CHI);
  const agencyW = win(WEEKDAYS, '10:00', '16:00', 'America/New_York');

  it('campaign window first', () => {
    expect(
      resolveWindows({ campaign: { callingWindow: campaignW }, project: { callingWindowOverride: [projectW] }, agencyDefault: agencyW }),
    ).toEqual([campaignW]);
  });

  it('else the project override (null and [] count as unset)', () => {
    expect(resolveWindows({ campaign: { callingWindow: null }, project: { callingWindowOverride: [projectW] }, agencyDefault: agencyW })).toEqual([
      projectW,
    ]);
    expect(resolveWindows({ campaign: { callingWindow: [] }, project: { callingWindowOverride: projectW } })).toEqual([projectW]);
  });

  it('else the agency default, read in the project zone when the project has one', () => {
    expect(resolveWindows({ campaign: {}, project: { callingWindowOverride: null, timezone: CHI }, agencyDefault: agencyW })).toEqual([
      { ...agencyW, tz: CHI },
    ]);
    expect(resolveWindows({ campaign: null, project: { timezone: null }, agencyDefault: agencyW })).toEqual([agencyW]);
    expect(resolveWindows({})).toEqual([]);
  });

  it('resolveZoneOptions: the campaign check wins over the project one', () => {
    expect(
      resolveZoneOptions({
        campaign: { multipleTimezoneCheck: false },
        project: { multipleTimezoneCheck: true, timezone: CHI },
        lead: { timezone: 'America/Denver' },
      }),
    ).toEqual({ leadTz: 'America/Denver', projectTz: CHI, multipleTimezoneCheck: false });
    expect(resolveZoneOptions({ campaign: {}, project: { multipleTimezoneCheck: true } })).toEqual({
      leadTz: null,
      projectTz: null,
      multipleTimezoneCheck: true,
    });
  });
});
